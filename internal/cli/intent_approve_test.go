package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/ptytest"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// TestIntentApproveAtTerminal: the user, at a terminal, approves one
// scope request and denies another; the approved paths are then inside
// the intent's scope for the gate, the intents file is left as it was,
// and the session that asked is told of each decision once, at its next
// event.
func TestIntentApproveAtTerminal(t *testing.T) {
	dir, env := governedProject(t) // session s1 holds intent src (src/**)
	request := func(paths ...string) {
		err := fleet.OpenLogged(dir).Update(context.Background(), func(tx *store.Tx) error {
			return state.UpdateProject(tx, func(p *state.Project) error {
				govstate.RequestScope(p, "src", "s1", paths, "needed", time.Now())
				return nil
			})
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	hook := func(event, file string, n int) string {
		b, _ := json.Marshal(map[string]any{"session_id": "s1", "cwd": dir, "hook_event_name": event, "tool_name": "Write",
			"tool_use_id": "toolu_" + string(rune('a'+n)), "tool_input": map[string]string{"file_path": filepath.Join(dir, file), "content": "x\n"},
			"tool_response": map[string]any{"success": true}})
		out, _, _, _ := runMain(t, time.Minute, dir, b, env, "hook", "claude")
		return string(out)
	}
	request("docs/**")
	request("vendor/**")
	if out := hook("PreToolUse", "docs/a.md", 0); !isDeny(out) {
		t.Fatalf("a write outside the scope was not denied: %s", out)
	}
	decide(t, dir, "approve", "1", "--note", "keep it short")
	decide(t, dir, "deny", "2")
	if out := hook("PreToolUse", "docs/a.md", 1); isDeny(out) {
		t.Fatalf("an approved path is still denied: %s", out)
	}
	if out := hook("PreToolUse", "vendor/x.go", 2); !isDeny(out) {
		t.Fatalf("a denied path was allowed: %s", out)
	}
	told := hook("PostToolUse", "docs/a.md", 1)
	for _, w := range []string{"the user approved scope request #1: intent src now also owns docs/**", "Their note: keep it short", "the user denied scope request #2 (vendor/**"} {
		if !strings.Contains(told, w) {
			t.Errorf("the agent was not told %q: %s", w, told)
		}
	}
	if again := hook("PostToolUse", "docs/a.md", 3); strings.Contains(again, "scope request") {
		t.Errorf("told twice: %s", again)
	}
	b, _ := os.ReadFile(filepath.Join(dir, ".atreides", "intents.yaml"))
	if strings.Contains(string(b), "docs") {
		t.Errorf("the intents file was rewritten: %s", b)
	}
}

// TestIntentApprovePrintsAgentTextSafely: a request's paths and intent
// are the agent's words; the decision printed at the user's terminal
// shows them without their escape sequences (a retitled terminal, a
// cleared line).
func TestIntentApprovePrintsAgentTextSafely(t *testing.T) {
	dir, _ := governedProject(t)
	err := fleet.OpenLogged(dir).Update(context.Background(), func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			govstate.RequestScope(p, "src", "s1", []string{"docs/\x1b]0;pwned\x07**", "\x1b[2Kdocs"}, "needed", time.Now())
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	screen := decide(t, dir, "approve", "1")
	if !strings.Contains(screen, "approved scope request #1") {
		t.Fatalf("no decision shown: %q", screen)
	}
	if strings.Contains(screen, "\x1b]0;") || strings.Contains(screen, "\x07") || strings.Contains(screen, "\x1b[2K") {
		t.Errorf("the agent's escape sequences reached the terminal: %q", screen)
	}
}

// decide runs `atreides intent VERB ARGS...` at a pseudo-terminal, as a
// person does, fails the test unless it succeeds, and returns what the
// terminal showed.
func decide(t *testing.T, dir, verb string, args ...string) string {
	t.Helper()
	t.Chdir(dir)
	master, term := ptytest.Open(t)
	sc := &ptytest.Screen{}
	done := make(chan struct{})
	defer close(done)
	go sc.Read(master, done)
	var stderr bytes.Buffer
	exit := make(chan int, 1)
	go func() { exit <- Main(append([]string{"atreides", "intent", verb}, args...), term, term, &stderr) }()
	select {
	case code := <-exit:
		if code != 0 {
			t.Fatalf("intent %s %v exited %d: %s", verb, args, code, stderr.String())
		}
	case <-time.After(30 * time.Second):
		t.Fatalf("intent %s did not end; terminal:\n%s", verb, sc.Text())
	}
	sc.Expect(t, 0, "scope request", 10*time.Second)
	return sc.Text()
}
