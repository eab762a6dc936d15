package delegation

import (
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/subagents"
)

// A subagent's deadline is its operation's time from the one table
// (background.timeouts), a roster agent's by its role and a host's own
// agent's by its type; deadline_minutes still overrides by type.
func TestDeadlineByOperation(t *testing.T) {
	o := FromConfig(config.Builtin())
	for typ, want := range map[string]time.Duration{
		"Explore":                    60 * time.Minute, // Claude Code's
		"explorer":                   60 * time.Minute, // Codex's
		"Plan":                       30 * time.Minute,
		"general-purpose":            120 * time.Minute,
		"statusline-setup":           5 * time.Minute,
		"atreides-stilgar":           60 * time.Minute, // oracle
		"atreides:atreides-explore":  60 * time.Minute, // the plugin's name
		"atreides-plan":              30 * time.Minute,
		"atreides-build":             120 * time.Minute,
		"atreides-not-in-the-roster": 120 * time.Minute,
	} {
		if got := o.Deadline(typ); got != want {
			t.Errorf("%s: %s, want %s", typ, got, want)
		}
	}
	o.Deadlines = map[string]time.Duration{"Explore": 10 * time.Minute, "plan": 0}
	if got := o.Deadline("Explore"); got != 10*time.Minute {
		t.Errorf("override: %s", got)
	}
	if got := o.Deadline("atreides-plan"); got != 0 {
		t.Errorf("0 by roster id is no deadline: %s", got)
	}
	o.Deadlines["*"] = 7 * time.Minute
	if got := o.Deadline("general-purpose"); got != 7*time.Minute {
		t.Errorf("\"*\" still covers the rest: %s", got)
	}
}

// The roster's agents must end with the return object by default; the
// host's own agents need not.
func TestStructuredByDefaultForTheRoster(t *testing.T) {
	o := FromConfig(config.Builtin())
	for typ, want := range map[string]bool{"atreides-explore": true, "atreides:atreides-build": true, "Explore": false, "general-purpose": false, "explore": false} {
		if got := o.Structured(typ); got != want {
			t.Errorf("%s: %v, want %v", typ, got, want)
		}
	}
}

// Past its deadline a subagent's tool calls are refused with a note to end
// now; its parent is told once, with how to resume it on Claude Code.
func TestPastDeadlineToolCallsRefused(t *testing.T) {
	f := newFixture(t)
	f.opts = FromConfig(config.Builtin())
	f.delegate("", "", "Explore")
	f.start("E1", "Explore")
	read := &event.Event{Kind: event.PreTool, AgentID: "E1", AgentType: "Explore", Tool: event.Tool{Name: event.Read}}
	f.env.now = f.env.now.Add(59 * time.Minute)
	if d := f.run(read); d.Verdict == event.Deny {
		t.Fatalf("refused before its deadline: %q", d.Reason)
	}
	f.env.now = f.env.now.Add(2 * time.Minute)
	for range 2 {
		d := f.run(&event.Event{Kind: event.PreTool, AgentID: "E1", AgentType: "Explore", Tool: event.Tool{Name: event.Read}})
		if d.Verdict != event.Deny || d.Rule != "delegation.deadline" || !strings.Contains(d.Reason, "past your deadline of 1h0m0s") || !strings.Contains(d.Reason, "end with your final message") {
			t.Fatalf("not refused: %+v", d)
		}
	}
	// Its parent's calls go on, and carry the report.
	d := f.run(&event.Event{Kind: event.PreTool, Tool: event.Tool{Name: event.Read}})
	if d.Verdict == event.Deny {
		t.Fatalf("the main agent was refused: %q", d.Reason)
	}
	for _, want := range []string{"subagent E1 (Explore) is still running", "its research operation's time", "It is being stopped", `resume it where it stopped with the SendMessage tool with to: "E1"`} {
		if !strings.Contains(d.ContextText(), want) {
			t.Errorf("parent not told %q: %q", want, d.ContextText())
		}
	}
	if d := f.run(&event.Event{Kind: event.UserPrompt}); d.ContextText() != "" {
		t.Fatalf("told twice: %q", d.ContextText())
	}
	// Its final message ends it; nothing more is refused.
	f.run(&event.Event{Kind: event.SubagentStop, AgentID: "E1", AgentType: "Explore", LastMessage: "found half"})
	if a := subagents.Key.Of(f.session()).Agent("E1"); a.Running() || a.Overdue.IsZero() {
		t.Fatalf("record: %+v", a)
	}
}

// A host whose subagent stop cannot keep the subagent going reports an
// invalid return at once, never waiting for a second stop.
func TestNoBounceWhereTheHostCannot(t *testing.T) {
	f := newFixture(t)
	f.host = "opencode"
	f.opts = FromConfig(config.Builtin())
	f.delegate("", "", "atreides-build")
	f.start("B1", "atreides-build")
	if d := f.run(&event.Event{Kind: event.SubagentStop, AgentID: "B1", AgentType: "atreides-build", LastMessage: "done"}); d.Block {
		t.Fatalf("blocked: %q", d.BlockReason)
	}
	if a := subagents.Key.Of(f.session()).Agent("B1"); a.Outcome != "invalid_return" || !a.Bounced.IsZero() {
		t.Fatalf("record: %+v", a)
	}
}
