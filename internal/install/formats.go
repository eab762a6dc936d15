package install

import (
	"encoding/json"
	"slices"
	"strings"
	"unicode"
)

// The file formats the hosts' agent and command files are written in.

// FrontMatter renders a markdown file with a YAML front matter of the
// non-empty key-value pairs, in order, and body.
func FrontMatter(body string, kv ...string) string {
	return FrontMatterList(body, nil, kv...)
}

// FrontMatterList is FrontMatter with a "tools" list after the pairs
// (none when empty).
func FrontMatterList(body string, tools []string, kv ...string) string {
	var b strings.Builder
	b.WriteString("---\n")
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			b.WriteString(kv[i] + ": " + yamlString(kv[i+1]) + "\n")
		}
	}
	if len(tools) > 0 {
		b.WriteString("tools:\n")
		for _, t := range tools {
			b.WriteString("  - " + t + "\n")
		}
	}
	b.WriteString("---\n\n")
	b.WriteString(strings.TrimSpace(body))
	b.WriteString("\n")
	return b.String()
}

// yamlString is s as one YAML scalar on one line: plain when it starts
// with a letter and holds nothing YAML would read otherwise (so "Read,
// Grep, Glob" stays as people write it), else a JSON string, which is a
// YAML double-quoted scalar.
func yamlString(s string) string {
	plain := s != "" && unicode.IsLetter(rune(s[0])) && strings.TrimSpace(s) == s &&
		!strings.ContainsAny(s, ":#\"'\n\r\t{}[]&*!|>%@`\\") && !slices.Contains([]string{"true", "false", "null", "yes", "no", "on", "off", "y", "n"}, strings.ToLower(s))
	if plain {
		return s
	}
	return jsonString(s)
}

// TOMLString is s as a TOML basic string: JSON's escapes are TOML's.
func TOMLString(s string) string { return jsonString(s) }

// jsonString is s as a JSON string, with <, > and & as they are.
func jsonString(s string) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}
