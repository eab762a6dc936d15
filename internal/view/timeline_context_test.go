package view

import (
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
)

// TestContextOnlyRecordsNotInTimeline: a record the trail keeps only for
// the context its event carried (context_bytes) is no point of the
// session's story; a lifecycle event with context still is one.
func TestContextOnlyRecordsNotInTimeline(t *testing.T) {
	at := time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)
	ctx := map[string]int{"phase": 40}
	if _, ok := recordItem(&audit.Record{Event: "post_tool", HostEvent: "PostToolUse", Verdict: "none", ContextBytes: ctx}, at); ok {
		t.Error("a post_tool kept for its context is in the timeline")
	}
	if _, ok := recordItem(&audit.Record{Event: "user_prompt", HostEvent: "UserPromptSubmit", Verdict: "none", ContextBytes: ctx}, at); ok {
		t.Error("a prompt kept for its context is in the timeline")
	}
	if it, ok := recordItem(&audit.Record{Event: "session_start", HostEvent: "SessionStart", Verdict: "none", ContextBytes: ctx}, at); !ok || it.Kind != "event" {
		t.Errorf("a session start with context: %+v, %v", it, ok)
	}
}
