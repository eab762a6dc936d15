package session

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/tasks"
)

// An escalation goes to the session's error outbox (for the task board's
// error log) with the strike's class and the tool and target as its
// cause; the warning strikes before it do not.
func TestEscalationQueuesAnError(t *testing.T) {
	opts := testOptions()
	r := newRun(t, opts)
	fail := func(i int, cmd string) {
		b, _ := json.Marshal(map[string]any{"hook_event_name": "PostToolUseFailure", "session_id": "s1", "cwd": r.dir,
			"transcript_path": "/nonexistent/t.jsonl", "tool_name": "Bash", "tool_input": map[string]any{"command": cmd},
			"tool_use_id": "t" + itoa(i), "error": "Exit code 1\n./main.go:3:2: undefined: foo"})
		r.line(t.Name(), i, b)
	}
	for i := range opts.EscalateAt - 1 {
		fail(i, "go build ./...  | tail -5")
	}
	if s, _ := r.loader.state(t, "s1"); len(*tasks.OutboxKey.Of(s)) != 0 {
		t.Fatalf("queued before the escalation: %+v", *tasks.OutboxKey.Of(s))
	}
	fail(opts.EscalateAt, "go build ./...")
	s, _ := r.loader.state(t, "s1")
	if len(*tasks.OutboxKey.Of(s)) != 1 {
		t.Fatalf("outbox %+v", *tasks.OutboxKey.Of(s))
	}
	e := (*tasks.OutboxKey.Of(s))[0]
	if e.Type != "compile-error" || e.Cause != "shell go build ./..." || e.Command != "go build ./..." ||
		!strings.Contains(e.Message, "failed 3 times in a row: ./main.go:3:2: undefined: foo") || e.Time.IsZero() {
		t.Fatalf("event %+v", e)
	}
}

// Every class the strike counter names (but the user's interrupt, which
// is not a failure) is a known type of the error log.
func TestStrikeClassesAreErrorTypes(t *testing.T) {
	for _, c := range append(errorClasses, errorClass{Name: fallbackClass}) {
		if c.Name != "interrupted" && !tasks.KnownErrorType(c.Name) {
			t.Errorf("strike class %q is not an error type of package tasks", c.Name)
		}
	}
}
