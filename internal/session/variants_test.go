package session

import (
	"context"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/event"
)

// TestAgentVariants: with the built-in configuration, the first message
// of a main session gets its lead agent's own variant (the orchestrator
// high, the other roster agents medium), a host's own agent none, and a
// later message or a child session none; context.keywords.variant, when
// set, is the one variant of every main session.
func TestAgentVariants(t *testing.T) {
	for _, c := range []struct {
		name, global, agent, child, want string
		later                            bool
	}{
		{name: "orchestrator", agent: "atreides-muaddib", want: "high"},
		{name: "another roster agent leads", agent: "atreides-plan", want: "medium"},
		{name: "the host's own agent", agent: "build", want: ""},
		{name: "second message", agent: "atreides-muaddib", later: true, want: ""},
		{name: "child session", agent: "atreides-explore", child: "c1", want: ""},
		{name: "global override", global: "max", agent: "atreides-explore", want: "max"},
	} {
		t.Run(c.name, func(t *testing.T) {
			cfg := config.Builtin()
			o := KeywordsFromConfig(cfg)
			if c.global != "" {
				o.Variant = c.global
			}
			r := newKeywordRun(t, o)
			d := r.promptAs("s1", c.child, c.agent)
			if c.later {
				d = r.promptAs("s1", c.child, c.agent)
			}
			if d.Variant != c.want {
				t.Errorf("variant %q, want %q", d.Variant, c.want)
			}
		})
	}
}

// promptAs sends a prompt to the session as OpenCode's chat.message does,
// naming the agent that leads it.
func (r *keywordRun) promptAs(sid, child, agent string) *event.Decision {
	r.now = r.now.Add(time.Second)
	ev := &event.Event{Kind: event.UserPrompt, Host: "opencode", Facts: testHosts["opencode"], HostEvent: "chat.message", SessionID: sid,
		AgentID: child, AgentType: agent, Prompt: "go", ContextCap: 10000, Time: r.now}
	return r.eng.Run(context.Background(), ev)
}
