package state_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/compaction"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/strikes"
	"github.com/atreides-dev/atreides/internal/subagents"
)

// stopKey is the stop gate's group, which lives in package session.
func stopKey(s *state.Session) *session.StopState { return session.StopKey.Of(s) }

func TestDecodeSessionV1(t *testing.T) {
	s, err := state.DecodeSession([]byte(state.SessionV1Record))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	want := &state.Session{
		Version: state.SessionVersion, ID: "sess-v1", Host: "claude", Started: t0, Updated: t0.Add(time.Hour),
		Cwd: "/home/u/p", Transcript: "/home/u/.claude/projects/p/sess-v1.jsonl",
		Counters: state.Counters{Events: 12, Prompts: 2, ToolCalls: 7, Denied: 1, Failed: 2, Stops: 3, Compacts: 1, Escalations: 1},
		Agents:   []state.Agent{{ID: "ag1", Type: "Explore", Started: t0}},
	}
	*history.Key.Of(want) = history.Calls{{Time: t0, ID: "tu1", Tool: "shell", Raw: "Bash", Summary: "go test ./...", Outcome: "failed", Duration: 900}}
	*agenttodos.Key.Of(want) = agenttodos.State{Agent: []agenttodos.Todo{{Content: "write tests", Status: "in_progress", Active: "Writing tests"}}}
	*phase.Key.Of(want) = phase.State{Current: "implementation", Calls: 4, Transitions: []phase.Transition{
		{From: "", To: "exploration", Cause: "read x.go", Time: t0},
		{From: "exploration", To: "implementation", Cause: "edit x.go", Time: t0.Add(time.Minute)},
	}}
	*strikes.Key.Of(want) = strikes.State{Targets: []strikes.Strike{{Tool: "shell", Target: "go test ./...", Count: 1, Class: "test-failure",
		Errors: []strikes.StrikeError{{Class: "test-failure", Excerpt: "--- FAIL: TestX", Time: t0}}, Last: t0}}}
	*subagents.Key.Of(want) = subagents.State{Agents: []subagents.Delegation{{ID: "ag1", Type: "Explore", Depth: 1, Started: t0}}}
	compaction.Key.Of(want).Snapshot = &compaction.Snapshot{Time: t0, Trigger: "auto", Phase: "implementation", Todos: []string{"#1 a"}, Delivered: true}
	*stopKey(want) = session.StopState{Blocks: 2, Interrupted: true, Pending: 1, Done: 2, Fingerprint: "00ff", Stagnant: 1, Last: t0, GaveUp: "x"}
	if !reflect.DeepEqual(s, want) {
		t.Fatalf("migrated v1 record:\n got %+v\nwant %+v", s, want)
	}
	// Written back, it is version 2 and reads back the same.
	b, err := state.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	if !state.IsBinary(b) {
		t.Errorf("re-encoded: %s", b)
	}
	again, err := state.DecodeSession(b)
	if err != nil || !reflect.DeepEqual(again, want) {
		t.Errorf("v2 round trip: %v\n%+v", err, again)
	}
}
