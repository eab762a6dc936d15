package delegation

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/todos"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/subagents"
)

type env struct {
	now time.Time
	mu  sync.Mutex
	log []string
}

func (e *env) Logf(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.log = append(e.log, fmt.Sprintf(format, args...))
}
func (e *env) Now() time.Time { return e.now }

// fixture runs the delegation handlers through the engine over a real
// store, one engine per event like one hook process per event.
type fixture struct {
	t     *testing.T
	root  string
	host  string
	trans string // the session's transcript
	env   *env
	opts  Options
	st    *store.Store
}

func newFixture(t *testing.T) *fixture {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".atreides"), 0o755)
	return &fixture{t: t, root: root, host: "claude", trans: filepath.Join(t.TempDir(), "s1.jsonl"),
		env: &env{now: time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)}, opts: FromConfig(config.Builtin()), st: store.Open(project.StateDir(root))}
}

// carries are the kinds Claude Code puts into the agent's context.
var carries = map[event.Kind]bool{event.SessionStart: true, event.UserPrompt: true, event.PreTool: true, event.PostTool: true, event.SubagentStart: true}

func (f *fixture) run(ev *event.Event) *event.Decision {
	ev.ProjectDir, ev.Cwd, ev.Host, ev.Facts, ev.Time, ev.TranscriptPath = f.root, f.root, f.host, testHosts[f.host], f.env.now, f.trans
	if ev.SessionID == "" {
		ev.SessionID = "s1"
	}
	if carries[ev.Kind] {
		ev.ContextCap = 10000
	}
	eng := engine.New(engine.StoreLoader{Store: f.st}, f.env, Handlers(func() Options { return f.opts })...)
	return eng.Run(context.Background(), ev)
}

func (f *fixture) delegate(agentID, agentType, sub string) *event.Decision {
	in, _ := json.Marshal(map[string]any{"subagent_type": sub, "description": "d", "prompt": "p", "run_in_background": false})
	return f.run(&event.Event{Kind: event.PreTool, AgentID: agentID, AgentType: agentType, ToolUseID: "t-" + sub,
		Tool: event.Tool{Name: event.Delegate, Raw: "Agent", Input: in}})
}

func (f *fixture) start(id, typ string) *event.Decision {
	return f.run(&event.Event{Kind: event.SubagentStart, AgentID: id, AgentType: typ})
}

func (f *fixture) session() *state.Session {
	var s *state.Session
	f.st.View(context.Background(), func(tx *store.Tx) error {
		var err error
		s, err = state.LoadSession(tx, "s1", f.host, f.env.now)
		return err
	})
	return s
}

func (f *fixture) logged(part string) int {
	n := 0
	for _, l := range f.env.log {
		if strings.Contains(l, part) {
			n++
		}
	}
	return n
}

func TestCheck(t *testing.T) {
	o := &Options{MaxDepth: 3}
	for _, tc := range []struct {
		name   string
		path   []string
		target string
		opts   *Options
		want   Verdict
		reason string
	}{
		{"from the main agent", []string{"main"}, "Explore", o, Allowed, ""},
		{"no path is the main agent", nil, "Explore", o, Allowed, ""},
		{"at the limit", []string{"main", "a", "b"}, "c", o, Allowed, ""},
		{"over the limit", []string{"main", "a", "b", "c"}, "d", o, TooDeep, "4 deep, over the limit of 3 (delegation.max_depth). Path: main → a → b → c → d"},
		{"max depth 1 refuses a nested one", []string{"main", "a"}, "b", &Options{MaxDepth: 1}, TooDeep, "2 deep, over the limit of 1"},
		{"no limit", []string{"main", "a", "b", "c", "d", "e"}, "f", &Options{}, Allowed, ""},
		{"a cycle", []string{"main", "planner", "coder"}, "planner", o, Cycle, "main → planner → coder → planner"},
		{"a type named main is no cycle with the main agent", []string{"main"}, "main", o, Allowed, ""},
		{"depth before cycle", []string{"main", "a", "b", "c"}, "a", o, TooDeep, "over the limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, why := Check(tc.path, tc.target, tc.opts)
			if v != tc.want || !strings.Contains(why, tc.reason) || (v == Allowed) != (why == "") {
				t.Fatalf("Check(%v, %q) = %v %q, want %v containing %q", tc.path, tc.target, v, why, tc.want, tc.reason)
			}
		})
	}
}

func TestTargetAndRetarget(t *testing.T) {
	for _, tc := range []struct {
		host, input, typ, key, to, rewritten string
	}{
		{"claude", `{"subagent_type":"Explore","prompt":"p"}`, "Explore", "subagent_type", "Plan", `{"prompt":"p","subagent_type":"Plan"}`},
		{"claude", `{"prompt":"p"}`, "general-purpose", "subagent_type", "Explore", `{"prompt":"p","subagent_type":"Explore"}`},
		{"opencode", `{"subagent_type":"explore","description":"d"}`, "explore", "subagent_type", "build", `{"description":"d","subagent_type":"build"}`},
		{"gemini", `{"agent_name":"codebase_investigator","prompt":"p"}`, "codebase_investigator", "agent_name", "x", `{"agent_name":"x","prompt":"p"}`},
		{"codex", `{"message":"m"}`, "default", "agent_type", "explorer", `{"agent_type":"explorer","message":"m"}`},
		{"codex", `{"agent_type":"worker","message":"m"}`, "worker", "agent_type", "explorer", `{"agent_type":"explorer","message":"m"}`},
	} {
		typ, key := Target(testHosts[tc.host], json.RawMessage(tc.input))
		if typ != tc.typ || key != tc.key {
			t.Errorf("%s %s: target %q under %q, want %q under %q", tc.host, tc.input, typ, key, tc.typ, tc.key)
		}
		got, err := retarget(json.RawMessage(tc.input), key, tc.to)
		if err != nil || string(got) != tc.rewritten {
			t.Errorf("%s %s: retarget = %s %v, want %s", tc.host, tc.input, got, err, tc.rewritten)
		}
	}
}

func TestDepthAndCyclesThroughTheRegistry(t *testing.T) {
	f := newFixture(t)
	if d := f.delegate("", "", "planner"); d.Verdict != event.None {
		t.Fatal(d.Reason)
	}
	f.start("A1", "planner")
	if d := f.delegate("A1", "planner", "coder"); d.Verdict != event.None {
		t.Fatal(d.Reason)
	}
	f.start("A2", "coder")
	if d := f.delegate("A2", "coder", "planner"); d.Rule != "delegation.cycle" || !strings.Contains(d.Reason, "main → planner → coder → planner") {
		t.Fatalf("cycle: %s %q", d.Rule, d.Reason)
	}
	f.delegate("A2", "coder", "tester")
	f.start("A3", "tester")
	if d := f.delegate("A3", "tester", "helper"); d.Rule != "delegation.depth" || !strings.Contains(d.Reason, "main → planner → coder → tester → helper") {
		t.Fatalf("depth: %s %q", d.Rule, d.Reason)
	}
	a := subagents.Key.Of(f.session()).Agent("A3")
	if a == nil || a.Parent != "A2" || a.Depth != 3 || strings.Join(a.Path, "/") != "main/planner/coder/tester" || !a.Deadline.Equal(f.env.now.Add(120*time.Minute)) {
		t.Fatalf("record: %+v", a)
	}
}

func TestRedirect(t *testing.T) {
	f := newFixture(t)
	f.opts.MaxDepth = 1
	f.opts.Redirect = map[string]string{"general-purpose": "Explore", "A": "B"}
	d := f.delegate("", "", "general-purpose")
	var in map[string]any
	json.Unmarshal(d.UpdatedInput, &in)
	if d.Verdict != event.None || in["subagent_type"] != "Explore" || in["run_in_background"] != false || in["prompt"] != "p" {
		t.Fatalf("redirect: %v %s", d.Verdict, d.UpdatedInput)
	}
	if !strings.Contains(d.ContextText(), `delegations to "general-purpose" go to "Explore"`) {
		t.Fatalf("not told: %q", d.ContextText())
	}
	// Told once; the redirected type is what starts and is recorded.
	if d := f.delegate("", "", "general-purpose"); d.ContextText() != "" || d.UpdatedInput == nil {
		t.Fatalf("second redirect: %q %s", d.ContextText(), d.UpdatedInput)
	}
	f.start("X1", "Explore")
	if a := subagents.Key.Of(f.session()).Agent("X1"); a == nil || a.Type != "Explore" || a.Depth != 1 {
		t.Fatalf("record: %+v", a)
	}
	// The checks judge the redirected type: B from X1 is too deep.
	if d := f.delegate("X1", "Explore", "A"); d.Verdict != event.Deny || !strings.Contains(d.Reason, `"B"`) || d.UpdatedInput != nil {
		t.Fatalf("redirected and refused: %v %q %s", d.Verdict, d.Reason, d.UpdatedInput)
	}
}

func TestRequireTodo(t *testing.T) {
	for _, tc := range []struct {
		name, host string
		todo       func(*fixture)
		deny       bool
		how        string
	}{
		{"off", "claude", nil, false, ""},
		{"no todo on Claude Code", "claude", nil, true, "TodoWrite"},
		{"no todo on Gemini CLI", "gemini", nil, true, "write_todos"},
		{"no todo on OpenCode", "opencode", nil, true, "todowrite"},
		{"no todo on Codex", "codex", nil, true, "atreides todo add"},
		{"an open agent todo", "claude", func(f *fixture) { f.agentTodo("pending") }, false, ""},
		{"only a finished agent todo", "claude", func(f *fixture) { f.agentTodo("completed") }, true, "TodoWrite"},
		{"an open todo of the session", "codex", func(f *fixture) { f.projectTodo("s1") }, false, ""},
		{"only a person's todo", "codex", func(f *fixture) { f.projectTodo("") }, true, "atreides todo add"},
		{"only another session's todo", "codex", func(f *fixture) { f.projectTodo("s2") }, true, "atreides todo add"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			f.host = tc.host
			f.opts.RequireTodo = tc.name != "off"
			if tc.todo != nil {
				tc.todo(f)
			}
			d := f.delegate("", "", "Explore")
			if (d.Verdict == event.Deny) != tc.deny || tc.deny && (d.Rule != "delegation.no-todo" || !strings.Contains(d.Reason, tc.how)) {
				t.Fatalf("%v %s %q", d.Verdict, d.Rule, d.Reason)
			}
			if n := len(subagents.Key.Of(f.session()).Spawns); n != map[bool]int{true: 0, false: 1}[tc.deny] {
				t.Fatalf("%d spawns recorded", n)
			}
		})
	}
}

func (f *fixture) agentTodo(status string) {
	f.st.Update(context.Background(), func(tx *store.Tx) error {
		ld, err := state.Load(tx, "s1", f.host, f.env.now, agenttodos.Key.Group())
		if err != nil {
			return err
		}
		agenttodos.Key.Of(ld.Session).Agent = []agenttodos.Todo{{Content: "x", Status: status}}
		return ld.Save(tx)
	})
}

func (f *fixture) projectTodo(session string) {
	f.st.Update(context.Background(), func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			_, err := todos.Add(p, todos.New{Title: "x", Session: session}, f.env.now)
			return err
		})
	})
}

// A subagent past its deadline is reported to its parent on the parent's
// next event that carries context, whichever agent's event found it, once.
func TestDeadlineReportedToTheParentOnce(t *testing.T) {
	f := newFixture(t)
	f.opts.Deadlines = map[string]time.Duration{"coder": 5 * time.Minute, "*": 0}
	f.delegate("", "", "planner")
	f.start("A1", "planner")
	f.delegate("A1", "planner", "coder")
	f.start("A2", "coder")
	// A2's transcript holds its work so far.
	dir := filepath.Join(strings.TrimSuffix(f.trans, ".jsonl"), "subagents")
	os.MkdirAll(dir, 0o755)
	os.WriteFile(filepath.Join(dir, "agent-A2.jsonl"), []byte(
		`{"type":"assistant","message":{"content":[{"type":"text","text":"first look"}]}}`+"\n"+
			`{"type":"user","message":{"content":[{"type":"tool_result","content":"ok"}]}}`+"\n"+
			`{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Bash"},{"type":"text","text":"half of the parser is done"}]}}`+"\n"), 0o644)

	f.env.now = f.env.now.Add(4 * time.Minute)
	if d := f.run(&event.Event{Kind: event.PostTool, AgentID: "A2", AgentType: "coder", Tool: event.Tool{Name: event.Read}}); d.ContextText() != "" {
		t.Fatalf("before the deadline: %q", d.ContextText())
	}
	f.env.now = f.env.now.Add(2 * time.Minute)
	// Found on an event of the main agent (not A2's parent): nothing for it.
	if d := f.run(&event.Event{Kind: event.PreTool, Tool: event.Tool{Name: event.Read}}); strings.Contains(d.ContextText(), "A2") {
		t.Fatalf("the main agent was told: %q", d.ContextText())
	}
	a := subagents.Key.Of(f.session()).Agent("A2")
	if a.Overdue.IsZero() || a.Partial != "half of the parser is done" || f.logged("error: session s1: subagent A2 (coder, path main → planner → coder) is past its deadline") != 1 {
		t.Fatalf("record %+v, log %q", a, f.env.log)
	}
	// A2's own events and a Stop of A1 (no carrier) do not deliver it.
	if d := f.run(&event.Event{Kind: event.PreTool, AgentID: "A2", AgentType: "coder", Tool: event.Tool{Name: event.Read}}); strings.Contains(d.ContextText(), "overdue") || strings.Contains(d.ContextText(), "past its deadline") {
		t.Fatalf("A2 was told: %q", d.ContextText())
	}
	// A1's next carrier event does, with the partial result.
	d := f.run(&event.Event{Kind: event.PostTool, AgentID: "A1", AgentType: "planner", Tool: event.Tool{Name: event.Read}})
	for _, want := range []string{"subagent A2 (coder) is still running 6m0s", "past its deadline of 5m0s", "half of the parser is done"} {
		if !strings.Contains(d.ContextText(), want) {
			t.Fatalf("A1 not told %q: %q", want, d.ContextText())
		}
	}
	// Exactly once: neither repeated nor logged again, and its stop adds
	// no second report of the same overrun.
	f.env.now = f.env.now.Add(time.Minute)
	if d := f.run(&event.Event{Kind: event.PostTool, AgentID: "A1", AgentType: "planner", Tool: event.Tool{Name: event.Read}}); d.ContextText() != "" {
		t.Fatalf("repeated: %q", d.ContextText())
	}
	f.run(&event.Event{Kind: event.SubagentStop, AgentID: "A2", AgentType: "coder", LastMessage: "done"})
	if d := f.run(&event.Event{Kind: event.PostTool, AgentID: "A1", AgentType: "planner", Tool: event.Tool{Name: event.Read}}); d.ContextText() != "" {
		t.Fatalf("stop reported again: %q", d.ContextText())
	}
	if a := subagents.Key.Of(f.session()).Agent("A2"); a.Outcome != "ok" || a.Stopped.IsZero() || f.logged("past its deadline") != 1 {
		t.Fatalf("after stop: %+v %q", a, f.env.log)
	}
}

// The main agent's report waits through non-carrier events (Stop).
func TestDeadlineReportWaitsForACarrier(t *testing.T) {
	f := newFixture(t)
	f.opts.Deadlines = map[string]time.Duration{"*": time.Minute}
	f.delegate("", "", "Explore")
	f.start("E1", "Explore")
	f.env.now = f.env.now.Add(2 * time.Minute)
	if d := f.run(&event.Event{Kind: event.Stop}); d.ContextText() != "" {
		t.Fatalf("a Stop carried it: %q", d.ContextText())
	}
	d := f.run(&event.Event{Kind: event.UserPrompt, Prompt: "<task-notification>"})
	if !strings.Contains(d.ContextText(), "subagent E1 (Explore) is still running") || strings.Contains(d.ContextText(), "last message so far") {
		t.Fatalf("main agent: %q", d.ContextText())
	}
}

func TestReturnValidatedAtStop(t *testing.T) {
	f := newFixture(t)
	f.opts.StructuredReturn = []string{"coder"}
	os.WriteFile(filepath.Join(f.root, "done.go"), []byte("package x\n"), 0o644)
	f.delegate("", "", "coder")
	if d := f.start("C1", "coder"); !strings.Contains(d.ContextText(), `"session_id": "s1"`) || !strings.Contains(d.ContextText(), "completed|partial|failed|blocked") {
		t.Fatalf("instructions: %q", d.ContextText())
	}
	invalid := `{"status":"success","summary":"did it","artifacts":["done.go","gone.go"],"metadata":{"session_id":"other"},"errors":[],"next_steps":[]}`
	problems := []string{`status "success" is not one of completed`, "artifacts not found in the project: gone.go", `metadata.session_id "other" is not this session (s1)`}
	// The first invalid return goes back to the subagent, with what is
	// wrong and how to end; its parent hears nothing yet.
	bounce := f.run(&event.Event{Kind: event.SubagentStop, AgentID: "C1", AgentType: "coder", LastMessage: invalid})
	if !bounce.Block || !strings.Contains(bounce.BlockReason, "not a valid return object") || !strings.Contains(bounce.BlockReason, `"session_id": "s1"`) {
		t.Fatalf("not sent back: %+v", bounce)
	}
	for _, want := range problems {
		if !strings.Contains(bounce.BlockReason, want) {
			t.Errorf("bounce misses %q:\n%s", want, bounce.BlockReason)
		}
	}
	if a := subagents.Key.Of(f.session()).Agent("C1"); !a.Running() || a.Bounced.IsZero() {
		t.Fatalf("after the bounce: %+v", a)
	}
	if d := f.run(&event.Event{Kind: event.UserPrompt}); d.ContextText() != "" {
		t.Fatalf("reported before its second try: %q", d.ContextText())
	}
	// The second is final: reported, never sent back twice.
	if d := f.run(&event.Event{Kind: event.SubagentStop, AgentID: "C1", AgentType: "coder", LastMessage: invalid, StopHookActive: true}); d.Block {
		t.Fatalf("sent back twice: %q", d.BlockReason)
	}
	d := f.run(&event.Event{Kind: event.UserPrompt})
	for _, want := range append(problems, "subagent C1 (coder) finished with problems", "even after it was sent back once") {
		if !strings.Contains(d.ContextText(), want) {
			t.Errorf("report misses %q:\n%s", want, d.ContextText())
		}
	}
	if a := subagents.Key.Of(f.session()).Agent("C1"); a.Outcome != "invalid_return" {
		t.Fatalf("outcome %q", a.Outcome)
	}
	f.delegate("", "", "coder")
	f.start("C2", "coder")
	f.run(&event.Event{Kind: event.SubagentStop, AgentID: "C2", AgentType: "coder",
		LastMessage: "```json\n" + `{"status":"partial","summary":"half","artifacts":["done.go"],"metadata":{"session_id":"s1"},"errors":[],"next_steps":["the rest"]}` + "\n```"})
	if a := subagents.Key.Of(f.session()).Agent("C2"); a.Outcome != "partial" || a.Detail != "" {
		t.Fatalf("valid return: %+v", a)
	}
	if d := f.run(&event.Event{Kind: event.UserPrompt}); d.ContextText() != "" {
		t.Fatalf("a valid return was reported: %q", d.ContextText())
	}
}

func TestValidateReturn(t *testing.T) {
	root := t.TempDir()
	os.WriteFile(filepath.Join(root, "a.go"), nil, 0o644)
	ok := func(extra string) string {
		return `{"status":"completed","summary":"did it","artifacts":["a.go"],"metadata":{},"errors":[],"next_steps":[]` + extra + `}`
	}
	for _, tc := range []struct {
		name, msg string
		bad       []string
	}{
		{"valid", ok(""), nil},
		{"fenced after prose", "Done.\n```json\n" + ok("") + "\n```", nil},
		{"prose", "I finished the task.", []string{"no JSON object found"}},
		{"broken", `{"status":"completed"`, []string{"not valid JSON"}},
		{"old status", strings.Replace(ok(""), "completed", "success", 1), []string{`status "success" is not one of completed, partial, failed, blocked`}},
		{"long summary", strings.Replace(ok(""), "did it", strings.Repeat("word ", MaxSummaryWords+1), 1), []string{"summary has 101 words, over 100"}},
		{"empty summary", strings.Replace(ok(""), "did it", " ", 1), []string{"summary is empty"}},
		{"missing and outside artifacts", strings.Replace(ok(""), `["a.go"]`, `["a.go",{"path":"b.go"},"/etc/passwd","../x"]`, 1), []string{"artifacts not found in the project: b.go, /etc/passwd (outside the project), ../x (outside the project)"}},
		{"absolute artifact inside", strings.Replace(ok(""), `["a.go"]`, `["`+filepath.Join(root, "a.go")+`"]`, 1), nil},
		{"session mismatch", strings.Replace(ok(""), `"metadata":{}`, `"metadata":{"session_id":"s2"}`, 1), []string{`metadata.session_id "s2" is not this session (s1)`}},
		{"session match", strings.Replace(ok(""), `"metadata":{}`, `"metadata":{"session_id":"s1"}`, 1), nil},
		{"wrong kinds", `{"status":"completed","summary":"x","artifacts":{},"metadata":[],"errors":[]}`, []string{"artifacts must be an array, not object", "metadata must be an object, not array", "missing next_steps"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, bad := ValidateReturn(tc.msg, root, "s1")
			if len(bad) != len(tc.bad) {
				t.Fatalf("got %q, want %q", bad, tc.bad)
			}
			for i := range bad {
				if !strings.HasPrefix(bad[i], tc.bad[i]) {
					t.Errorf("got %q, want %q", bad[i], tc.bad[i])
				}
			}
		})
	}
}
