package guard

import (
	"path"
	"slices"
	"strings"
	"testing"
)

// FuzzEffects is the write finder's fuzz target, seeded from the corpora.
// It calls the analysis without ShellEffects' recovery, so a panic fails
// the run, and checks properties beyond "no crash": every write is an
// absolute, clean path listed once; the judging walk finds the same
// writes; a command whose effects name a change has something to show
// for it.
func FuzzEffects(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, cmd string) {
		req := shellReq(cmd, testProject)
		stop := watchdog("effects", cmd)
		e := noRules.checkShell(req).Effects
		stop()
		seen := map[string]bool{}
		for _, p := range e.Writes {
			if !path.IsAbs(p) || path.Clean(p) != p {
				t.Fatalf("%q: write %q is not absolute and clean", cmd, p)
			}
			if seen[p] {
				t.Fatalf("%q: write %q listed twice", cmd, p)
			}
			seen[p] = true
		}
		if (e.Changes != "") && e.Empty() && !strings.HasPrefix(e.Changes, "git ") {
			t.Fatalf("%q: changes %q with no write listed or unknown", cmd, e.Changes)
		}
		if j := DefaultPolicy().Check(req).Effects; !slices.Equal(j.Writes, e.Writes) {
			t.Fatalf("%q: judging walk writes %q, effects-only walk %q", cmd, j.Writes, e.Writes)
		}
	})
}
