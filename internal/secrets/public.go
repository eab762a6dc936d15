package secrets

import (
	"slices"
	"strings"
)

// PublicOrTemplate reports whether a file name is, by convention, safe to
// read: a public key (`id_ed25519.pub`, `deploy_key.pub`) or a committed
// template (`.env.example`, `config.sample.json`, `secrets.yml.dist`,
// `.env_template`). It looks at the name only; callers use it to tell a
// template copied onto a secret's name (`cp .env.example .env`) from a
// secret read, and a public key read from a secret read.
func PublicOrTemplate(name string) bool {
	b := strings.ToLower(name[strings.LastIndexByte(name, '/')+1:])
	if strings.HasSuffix(b, ".pub") && len(b) > len(".pub") {
		return true
	}
	segs := strings.Split(strings.TrimPrefix(b, "."), ".")
	for i, s := range segs {
		if i > 0 && slices.Contains(templateWords, s) {
			return true
		}
		for _, w := range []string{"example", "sample", "template", "tmpl", "dist"} {
			if len(s) > len(w)+1 && strings.HasSuffix(s, w) && (s[len(s)-len(w)-1] == '_' || s[len(s)-len(w)-1] == '-') {
				return true // .env_example, config-template.yml
			}
		}
	}
	return false
}
