package strikes

import (
	"testing"
	"time"
)

// TestIntentStreak: failures of runners of one intent share a count and
// mark the streak varied once the command changes; a success of the
// intent clears it and leaves another intent's count alone.
func TestIntentStreak(t *testing.T) {
	var g State
	e := StrikeError{Class: "test-failure", Time: time.Unix(1, 0)}
	g.AddRun("shell", "npm test", "test", e)
	if k := g.AddRun("shell", "npm test", "test", e); k.Count != 2 || k.Varied {
		t.Fatalf("same command twice: %+v", k)
	}
	g.AddRun("shell", "npm ci", "install", e)
	k := g.AddRun("shell", "npx jest", "test", e)
	if k.Count != 3 || !k.Varied || k.Target != "npx jest" {
		t.Fatalf("another runner: %+v", k)
	}
	if !g.ClearIntent("shell", "test") || g.FindIntent("shell", "test") != nil || g.FindIntent("shell", "install") == nil {
		t.Fatalf("after a success: %+v", g.Targets)
	}
	if k := g.Add("shell", "make", e); k.Intent != "" || g.Find("shell", "make") != k {
		t.Fatalf("a command without intent: %+v", k)
	}
}
