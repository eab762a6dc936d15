package session

import (
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/phase"
)

func TestNextPhase(t *testing.T) {
	tests := []struct {
		cur   string
		calls int
		act   activity
		want  string
	}{
		{"", 0, actNone, ""},
		{"", 0, actRead, "assessment"},
		{"intent", 0, actRead, "assessment"},
		{"assessment", 2, actRead, "assessment"},
		{"assessment", 3, actRead, "exploration"},
		{"exploration", 9, actRead, "exploration"},
		{"assessment", 0, actVerify, "assessment"}, // tests before any change are exploration-like
		{"exploration", 0, actChange, "implementation"},
		{"implementation", 0, actRead, "implementation"},
		{"implementation", 0, actVerify, "verification"},
		{"verification", 0, actRead, "verification"},
		{"verification", 0, actChange, "implementation"},
		{"verification", 0, actNone, "verification"},
	}
	for _, tt := range tests {
		if got := nextPhase(tt.cur, tt.calls, tt.act); got != tt.want {
			t.Errorf("nextPhase(%q, %d, %d) = %q, want %q", tt.cur, tt.calls, tt.act, got, tt.want)
		}
	}
}

func TestNormalizeCommand(t *testing.T) {
	for in, want := range map[string]string{
		"go test ./...":                       "go test ./...",
		"  go   test\t./...  ":                "go test ./...",
		"go test ./... 2>&1 | tail -20":       "go test ./...",
		"go test ./... | grep FAIL | head -5": "go test ./...",
		"go test ./... | go run ./cmd/format": "go test ./... | go run ./cmd/format",
		"npm test":                            "npm test",
	} {
		if got := normalizeCommand(in); got != want {
			t.Errorf("normalizeCommand(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestContinuationKeepsPhase: a prompt that only says to go on keeps the
// phase and says nothing; a new request moves it to intent and says so,
// once; a second request while in intent says nothing.
func TestContinuationKeepsPhase(t *testing.T) {
	ev := &event.Event{Kind: event.UserPrompt, SessionID: "s", Time: time.Unix(100, 0)}
	st := engine.NewState(ev)
	phase.Key.Of(st.Session).Current = phase.Implementation
	prompt := func(text string) string {
		ev.Prompt = text
		r, err := trackPhase(&engine.Call{Event: ev, State: st, Memo: &engine.Memo{}}, func() Options { return testOptions() })
		if err != nil {
			t.Fatal(err)
		}
		return event.JoinEntries(r.Context)
	}
	for _, p := range []string{"ok", "continue", "Go on!", "yes, proceed"} {
		if got := prompt(p); got != "" || phase.Key.Of(st.Session).Current != phase.Implementation {
			t.Fatalf("%q: said %q, phase %q", p, got, phase.Key.Of(st.Session).Current)
		}
	}
	if got := prompt("now add a test for the parser"); !strings.HasPrefix(got, "atreides phase: intent") || phase.Key.Of(st.Session).Current != phase.Intent {
		t.Fatalf("new request: said %q, phase %q", got, phase.Key.Of(st.Session).Current)
	}
	if got := prompt("and update the changelog"); got != "" {
		t.Fatalf("second request while in intent said %q", got)
	}
}
