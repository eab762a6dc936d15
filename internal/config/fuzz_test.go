package config

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// FuzzLoad feeds arbitrary bytes as the project file. The oracle: Load
// returns a config or a *ValidationError, never an internal error (parse
// turns parser panics into those, which would otherwise hide them here);
// every FieldError names the file; and a loaded config survives a round
// trip through Show's YAML unchanged.
func FuzzLoad(f *testing.F) {
	for _, s := range []string{
		"",
		"audit: {max_mib: 7}\n",
		"guard:\n  verdicts: {git.reset-hard: ask}\n  disable: [a.b]\n  switches: {x: 1.5}\n",
		"rules:\n  - {verdict: deny, command: rm -rf}\n  - {verdict: ask, tool: write, path: 'db/**'}\n",
		"a: &a [*a]\nguard: {disable: *a}\n",
		"- x\n",
		"guard:\n  <<: {enabled: true}\n",
		"audit:\n  max_mib: ~\nguard:\n",
		"session: {identity: {name: 'x', prefix: true}, stop: {max_blocks: 0x10}}\n",
		"--- \n...\n---\n",
		"\t\x00",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		const file = "p.yaml"
		c, err := load(Paths{}, []layer{{"u.yaml", []byte("guard: {verdicts: {a.b: deny}}\n"), false}, {file, data, false}})
		if err != nil {
			var verr *ValidationError
			if !errors.As(err, &verr) || len(verr.Errs) == 0 {
				t.Fatalf("error %v (%T) is not a non-empty *ValidationError", err, err)
			}
			for _, fe := range verr.Errs {
				if fe.File != file || strings.HasPrefix(fe.Msg, "internal error") {
					t.Fatalf("bad FieldError %+v", fe)
				}
			}
			return
		}
		var out bytes.Buffer
		if err := c.Show(&out, "yaml"); err != nil {
			t.Fatalf("Show: %v", err)
		}
		c2, err := load(Paths{}, []layer{{"show.yaml", out.Bytes(), false}})
		if err != nil {
			t.Fatalf("reloading Show output failed: %v\n%s", err, out.String())
		}
		var out2 bytes.Buffer
		if err := c2.Show(&out2, "yaml"); err != nil {
			t.Fatal(err)
		}
		if norm(out.String()) != norm(out2.String()) {
			t.Fatalf("round trip changed the config:\n%s\n---\n%s", out.String(), out2.String())
		}
	})
}

// norm drops the source comments, which differ between the two loads.
func norm(s string) string {
	var b strings.Builder
	for line := range strings.Lines(s) {
		if i := strings.LastIndex(line, " # from: "); i >= 0 {
			line = line[:i] + "\n"
		}
		b.WriteString(line)
	}
	return b.String()
}
