package session

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
)

var testModes = KeywordOptions{
	Modes: []KeywordMode{
		{Name: "ultrawork", Keywords: []string{"ultrawork", "ulw"}, Text: "ULTRAWORK BLOCK", Priority: event.High, Once: true},
		{Name: "careful", Keywords: []string{"be careful"}, Text: "CAREFUL BLOCK", Priority: event.Normal},
	},
	Variant: "max",
}

// keywordRun replays prompts through the session handlers and the keyword
// handler, the state kept between them as the store would.
type keywordRun struct {
	eng *engine.Engine
	now time.Time
}

func newKeywordRun(t *testing.T, o KeywordOptions) *keywordRun {
	hs := append(Handlers(func() Options { return testOptions() }, engine.AnyKind), Keywords(func() KeywordOptions { return o }))
	return &keywordRun{eng: engine.New(&memLoader{}, testEnv{t}, hs...), now: t0}
}

func (r *keywordRun) prompt(sid, agent, text string) *event.Decision {
	r.now = r.now.Add(time.Second)
	ev := &event.Event{Kind: event.UserPrompt, Host: "opencode", Facts: testHosts["opencode"], HostEvent: "chat.message", SessionID: sid,
		AgentID: agent, Prompt: text, ContextCap: 10000, Time: r.now}
	return r.eng.Run(context.Background(), ev)
}

func TestKeywordModes(t *testing.T) {
	r := newKeywordRun(t, testModes)
	for i, step := range []struct {
		sid, agent, prompt string
		want, not          []string
		variant            string
	}{
		{sid: "s1", prompt: "ulw: fix the parser", want: []string{"ULTRAWORK BLOCK"}, not: []string{"CAREFUL"}, variant: "max"},
		// Once per session: the second mention adds nothing, and the
		// variant is for the first prompt only.
		{sid: "s1", prompt: "ultrawork again, and be careful", want: []string{"CAREFUL BLOCK"}, not: []string{"ULTRAWORK"}},
		// Every time: the mode without once comes again.
		{sid: "s1", prompt: "Be careful with the migration", want: []string{"CAREFUL BLOCK"}},
		// Names, paths and code do not trigger.
		{sid: "s2", prompt: "open ulw.go and `ultrawork` in src/ultrawork/x", not: []string{"ULTRAWORK", "CAREFUL"}, variant: "max"},
		{sid: "s2", prompt: "the multiworkload is careful-ish", not: []string{"ULTRAWORK", "CAREFUL"}},
		// Another session gets its own once-only block.
		{sid: "s3", prompt: "ULW", want: []string{"ULTRAWORK BLOCK"}, variant: "max"},
		// A subagent's prompt (an OpenCode child session) triggers nothing.
		{sid: "s4", agent: "child", prompt: "ulw, be careful", not: []string{"ULTRAWORK", "CAREFUL"}},
	} {
		d := r.prompt(step.sid, step.agent, step.prompt)
		ctx := d.ContextText()
		for _, w := range step.want {
			if !strings.Contains(ctx, w) {
				t.Errorf("step %d (%q): context lacks %q:\n%s", i, step.prompt, w, ctx)
			}
		}
		for _, w := range step.not {
			if strings.Contains(ctx, w) {
				t.Errorf("step %d (%q): context has %q:\n%s", i, step.prompt, w, ctx)
			}
		}
		if d.Variant != step.variant {
			t.Errorf("step %d: variant %q, want %q", i, d.Variant, step.variant)
		}
	}
}

// TestKeywordBlockOrder: a high-priority mode's block comes before the
// phase line, whatever the order of the handlers.
func TestKeywordBlockOrder(t *testing.T) {
	d := newKeywordRun(t, testModes).prompt("s1", "", "ultrawork: add a flag")
	ctx := d.ContextText()
	if i, j := strings.Index(ctx, "ULTRAWORK BLOCK"), strings.Index(ctx, "atreides phase: intent (feature)."); i < 0 || j < 0 || i > j {
		t.Errorf("want the mode's block, then the phase line with the class:\n%s", ctx)
	}
}

// TestVerifyGateOff: with context.work.verify_before_stop off, changed
// files never hold a stop back.
func TestVerifyGateOff(t *testing.T) {
	o := testOptions()
	o.VerifyBeforeStop = false
	r := newRun(t, o)
	r.line("off", 1, []byte(`{"session_id":"s1","cwd":"$DIR","hook_event_name":"UserPromptSubmit","prompt":"fix it"}`))
	r.line("off", 2, []byte(`{"session_id":"s1","cwd":"$DIR","hook_event_name":"PostToolUse","tool_name":"Edit","tool_input":{"file_path":"$DIR/a.go","old_string":"a","new_string":"b"},"tool_use_id":"t1"}`))
	r.line("off", 3, []byte(`{"session_id":"s1","cwd":"$DIR","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Done.","_want":{"block":false}}`))
}
