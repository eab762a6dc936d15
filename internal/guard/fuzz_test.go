package guard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// FuzzCheck: no panic and no hang on any input; seeded from the corpora.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(corporaDir(f), "*.tsv"))
	for _, fn := range files {
		data, err := os.ReadFile(fn)
		if err != nil {
			continue
		}
		for i, line := range strings.Split(string(data), "\n") {
			if i == 0 || line == "" || i%3 != 0 {
				continue
			}
			cmd, _, _ := strings.Cut(line, "\t")
			if strings.Contains(fn, "multiline") {
				cmd = unescapeCorpus(cmd)
			}
			if len(cmd) < 4096 {
				f.Add(cmd)
			}
		}
	}
	f.Add(":(){ :|:& };:")
	f.Fuzz(func(t *testing.T, cmd string) {
		start := time.Now()
		r := DefaultPolicy().Check(shellReq(cmd, testProject))
		if r.Verdict < Allow || r.Verdict > Deny {
			t.Fatalf("bad verdict %d", r.Verdict)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("Check took %v on %q", d, cmd)
		}
		DefaultPolicy().Check(Request{Tool: "read", Path: cmd, Cwd: testProject, Home: testHome})
	})
}
