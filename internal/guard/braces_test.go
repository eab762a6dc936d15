package guard

import "testing"

// A two-word sequence near the top of int64 is judged as the two words it
// makes (shell's TestExpandBracesBounds checks the expansion itself).
func TestExpandBracesBounds(t *testing.T) {
	r := DefaultPolicy().Check(Request{Tool: "shell", Command: "echo {9223372036854775806..9223372036854775807}", Cwd: "/p", ProjectRoot: "/p", Home: "/h"})
	if r.Verdict != Allow {
		t.Errorf("echo of a two-word sequence: %v %s", r.Verdict, r.Rule)
	}
}
