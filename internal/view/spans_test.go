package view

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/subagents"
)

var spanT0 = time.Date(2026, 11, 20, 9, 0, 0, 0, time.UTC)

func sec(n int) time.Time { return spanT0.Add(time.Duration(n) * time.Second) }

func rec(at int, ev string, mod func(r *audit.Record)) audit.Record {
	r := audit.Record{Time: sec(at).Format(time.RFC3339Nano), Event: ev, HostEvent: ev, Verdict: "none"}
	if mod != nil {
		mod(&r)
	}
	return r
}

func call(id, tool, cmd string) func(*audit.Record) {
	return func(r *audit.Record) { r.Call, r.Tool, r.Command = id, tool, cmd }
}

// spanLine is a span as the table expects it: indent by depth, kind,
// title, outcome and duration.
func spanLine(sp Span) string {
	return strings.Repeat("  ", sp.Depth) + sp.Kind + " " + sp.Title + " " + sp.Outcome + " " + strconv.Itoa(int(sp.DurationMS))
}

// TestBuildTrace: pre and post pair by tool-use id into one span with its
// duration; a call the trail has no pre of comes from the history with the
// host's duration; a subagent's calls nest under its delegation and a
// nested delegation under its parent, and a delegation under the call to
// the delegation tool that was running when it started; a denied call is
// blocked; the
// filter keeps ancestors; the title is the first prompt's first words.
func TestBuildTrace(t *testing.T) {
	prompt := func(text string) func(*audit.Record) { return func(r *audit.Record) { r.Prompt = text } }
	sess := &state.Session{ID: "s"}
	*subagents.Key.Of(sess) = subagents.State{Agents: []subagents.Delegation{
		{ID: "ag1", Type: "explorer", Started: sec(20), Stopped: sec(40), Outcome: "completed"},
		{ID: "ag2", Type: "reviewer", Parent: "ag1", Depth: 2, Started: sec(25), Stopped: sec(30)},
	}}
	h := history.Key.Of(sess)
	h.Add(history.ToolCall{Time: sec(2), ID: "c1", Raw: "Bash", Outcome: "failed", Duration: 1500})
	h.Add(history.ToolCall{Time: sec(9), ID: "c3", Raw: "Read", Summary: "a.go", Outcome: "ok", Duration: 2000})
	h.Add(history.ToolCall{Time: sec(19), ID: "c0", Tool: "delegate", Raw: "Agent", Summary: "explore", Outcome: "ok"})
	h.Add(history.ToolCall{Time: sec(27), ID: "c5", Raw: "Grep", Summary: "x", Agent: "ag2", Outcome: "ok", Duration: 1000})
	recs := []audit.Record{
		rec(1, "user_prompt", prompt("Fix the failing tests in the parser package and then run them all again")),
		rec(2, "pre_tool", call("c1", "Bash", "go test ./...")),
		rec(4, "post_tool", func(r *audit.Record) { call("c1", "Bash", "go test ./...")(r); r.Outcome = "failed" }),
		rec(5, "pre_tool", func(r *audit.Record) {
			call("c2", "Bash", "git reset --hard")(r)
			r.Verdict, r.Rule = "deny", "git.reset-hard"
		}),
		rec(10, "user_prompt", prompt("ok")),
		rec(19, "pre_tool", func(r *audit.Record) { call("c0", "Agent", "")(r) }),
		rec(41, "post_tool", func(r *audit.Record) { call("c0", "Agent", "")(r); r.Outcome = "ok" }),
		rec(22, "pre_tool", func(r *audit.Record) { call("c4", "Bash", "ls")(r); r.Agent = "explorer" }),
		rec(50, "stop", func(r *audit.Record) { r.Block, r.BlockReason = true, "todo #1 open" }),
	}
	tr := BuildTrace(recs, sess, nil, SpanFilter{})
	want := []string{
		"prompt Fix the failing tests in the parser package and then run them all again  8000",
		"  tool Bash: go test ./... failed 2000",
		"  tool Bash: git reset --hard blocked 0",
		"  tool Read: a.go ok 2000",
		"prompt ok  40000",
		"  tool Agent ok 22000",
		"    delegation explorer completed 20000",
		"      tool Bash: ls pending -1",
		"      delegation reviewer ok 5000",
		"        tool Grep: x ok 1000",
		"  event stop kept going  0",
	}
	check := func(name string, tr *Trace, want []string) {
		t.Helper()
		var got []string
		for _, sp := range tr.Spans {
			got = append(got, spanLine(sp))
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s:\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
	}
	check("whole", tr, want)
	if tr.Title != "Fix the failing tests in the parser package …" {
		t.Errorf("title %q", tr.Title)
	}
	// Only the reviewer's call starts in [26s, 28s): its ancestors stay.
	check("filtered", BuildTrace(recs, sess, nil, SpanFilter{Since: sec(26), Until: sec(28)}), []string{
		"prompt ok  40000",
		"  tool Agent ok 22000",
		"    delegation explorer completed 20000",
		"      delegation reviewer ok 5000",
		"        tool Grep: x ok 1000",
	})
	// A background task a subagent launched nests under its delegation
	// and names its own session.
	bg := []bgtasks.Task{{ID: "bg-1", ParentAgent: "ag1", Description: "find callers", Status: "running", Child: "child-1", Created: sec(30)}}
	for _, sp := range BuildTrace(recs, sess, bg, SpanFilter{}).Spans {
		if sp.ID == "bg-1" && (sp.Parent != "a:ag1" || sp.Session != "child-1" || sp.Kind != SpanBackground || sp.DurationMS != -1) {
			t.Errorf("the background task's span: %+v", sp)
		}
	}
	// Without the history (older than its window) a call with no post is
	// unknown, not pending.
	old := &state.Session{ID: "s"}
	history.Key.Of(old).Add(history.ToolCall{Time: sec(100), ID: "later", Raw: "Read", Outcome: "ok"})
	for _, sp := range BuildTrace(recs[7:8], old, nil, SpanFilter{}).Spans {
		if sp.Call == "c4" && sp.Outcome != OutcomeUnknown {
			t.Errorf("a call older than the history: %q", sp.Outcome)
		}
	}
}

// TestConfigChange: the configuration that changes a verdict goes one
// step (deny to ask, ask to allow) on the rule that decided; a call no
// rule stopped gets a user rule that asks, on its command's first words
// or its path.
func TestConfigChange(t *testing.T) {
	for _, c := range []struct {
		verdict, rule, tool, target string
		want                        string
	}{
		{"deny", "git.reset-hard", "shell", "git reset --hard", "guard:\n  verdicts:\n    git.reset-hard: ask\n"},
		{"ask", "git.force-push", "shell", "git push -f", "guard:\n  verdicts:\n    git.force-push: allow\n"},
		{"allow", "", "shell", "terraform apply -auto-approve", "rules:\n  - verdict: ask\n    tool: shell\n    command: \"terraform apply\"\n"},
		{"none", "", "write", `db/"x".sql`, "rules:\n  - verdict: ask\n    tool: write\n    path: \"db/\\\"x\\\".sql\"\n"},
		{"none", "", "shell", "", ""},
	} {
		if got, _ := ConfigChange(c.verdict, c.rule, c.tool, c.target); got != c.want {
			t.Errorf("ConfigChange(%q, %q, %q, %q) =\n%s\nwant\n%s", c.verdict, c.rule, c.tool, c.target, got, c.want)
		}
	}
}

// TestBuildTraceParentCycle: delegations whose recorded parents make a
// cycle (each started while the other's delegation call ran: a damaged
// or odd record) still give a trace, every span once, instead of a
// walk up the parents that never ends.
func TestBuildTraceParentCycle(t *testing.T) {
	sess := &state.Session{ID: "s"}
	*subagents.Key.Of(sess) = subagents.State{Agents: []subagents.Delegation{
		{ID: "x", Type: "explorer", Parent: "y", Started: sec(10), Stopped: sec(40)},
		{ID: "y", Type: "reviewer", Parent: "x", Started: sec(12), Stopped: sec(40)},
		{ID: "z", Type: "self", Parent: "z", Started: sec(14), Stopped: sec(40)},
	}}
	h := history.Key.Of(sess)
	h.Add(history.ToolCall{Time: sec(11), ID: "cy", Tool: "delegate", Raw: "Agent", Agent: "y", Outcome: "pending"})
	h.Add(history.ToolCall{Time: sec(11), ID: "cx", Tool: "delegate", Raw: "Agent", Agent: "x", Outcome: "pending"})
	h.Add(history.ToolCall{Time: sec(13), ID: "cz", Tool: "delegate", Raw: "Agent", Agent: "z", Outcome: "pending"})
	recs := []audit.Record{rec(1, "user_prompt", func(r *audit.Record) { r.Prompt = "go" })}
	done := make(chan *Trace, 1)
	go func() { done <- BuildTrace(recs, sess, nil, SpanFilter{}) }()
	select {
	case tr := <-done:
		if n := len(tr.Spans); n != 7 {
			t.Errorf("%d spans, want 7 (a prompt, three delegations, three calls)", n)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("BuildTrace did not return: a cycle of parents")
	}
}

// TestBuildTracePairsCallsWithoutID: a host that sends no tool-use id
// still gets one span per call: a post pairs with the oldest open call of
// the same agent, tool and target; a post of another target opens its
// own span.
func TestBuildTracePairsCallsWithoutID(t *testing.T) {
	post := func(cmd string) func(*audit.Record) {
		return func(r *audit.Record) { call("", "run_shell_command", cmd)(r); r.Outcome = "ok" }
	}
	recs := []audit.Record{
		rec(1, "pre_tool", call("", "run_shell_command", "ls")),
		rec(2, "pre_tool", call("", "run_shell_command", "ls")),
		rec(3, "post_tool", post("ls")),
		rec(5, "post_tool", post("ls")),
		rec(6, "pre_tool", call("", "run_shell_command", "cat a")),
		rec(7, "post_tool", post("cat b")),
	}
	var got []string
	for _, sp := range BuildTrace(recs, &state.Session{ID: "s"}, nil, SpanFilter{}).Spans {
		got = append(got, spanLine(sp))
	}
	want := []string{
		"tool run_shell_command: ls ok 2000",
		"tool run_shell_command: ls ok 3000",
		"tool run_shell_command: cat a unknown -1",
		"tool run_shell_command: cat b ok -1",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("spans:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
