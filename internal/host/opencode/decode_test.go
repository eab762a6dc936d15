package opencode

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

// samplesDir is the captured OpenCode 1.18.33 hooks and events, vendored
// in internal/host/hosttest/testdata.
func samplesDir(t *testing.T) string {
	return hosttest.Samples(t, "opencode-samples")
}

// capture is one file of hooks/ or events/.
type capture struct {
	Hook         string          `json:"hook"`
	Input        json.RawMessage `json:"input"`
	OutputBefore json.RawMessage `json:"output_before"`
	Event        json.RawMessage `json:"event"`
}

// methodOf is the serve method the plugin uses for a hook ("" for the
// hooks atreides does not register).
var methodOf = map[string]string{
	"tool.execute.before":                MethodToolBefore,
	"tool.execute.after":                 MethodToolAfter,
	"experimental.chat.system.transform": MethodSystem,
	"experimental.session.compacting":    MethodCompacting,
	"chat.message":                       MethodChat,
}

func params(t *testing.T, input, output json.RawMessage) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(Params{Directory: "/scratch/oc/proj", Input: input, Output: output})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestDecodeCapturedHooks decodes every hook input OpenCode sent in the
// capture runs that atreides registers, as the plugin forwards it.
func TestDecodeCapturedHooks(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(samplesDir(t), "hooks", "*.json"))
	if len(files) == 0 {
		t.Fatal("no hook captures")
	}
	seen := map[string]bool{}
	for _, f := range files {
		var c capture
		data, err := os.ReadFile(f)
		if err != nil || json.Unmarshal(data, &c) != nil {
			t.Fatalf("%s: unreadable capture: %v", f, err)
		}
		method := methodOf[c.Hook]
		if method == "" {
			continue // config, dispose, chat.params, ...: not forwarded
		}
		seen[c.Hook] = true
		t.Run(filepath.Base(f), func(t *testing.T) {
			ev, err := Decode(method, params(t, c.Input, c.OutputBefore), time.Unix(0, 0))
			if err != nil {
				t.Fatalf("Decode: %v", err)
			}
			if ev.Host != Host || ev.HostEvent != c.Hook || ev.SessionID == "" || ev.Cwd == "" {
				t.Fatalf("event %+v", ev)
			}
			switch c.Hook {
			case "tool.execute.before", "tool.execute.after":
				want := map[string]event.Kind{"tool.execute.before": event.PreTool, "tool.execute.after": event.PostTool}[c.Hook]
				if ev.Kind != want || ev.Tool.Raw == "" || ev.ToolUseID == "" {
					t.Fatalf("tool event %+v", ev)
				}
				switch ev.Tool.Raw {
				case "bash":
					if ev.Tool.Name != event.Shell || (!strings.HasPrefix(ev.Tool.Command, "echo hello-from-bash") && ev.Tool.Command != "rm -rf /tmp/x") {
						t.Errorf("bash: %q %q", ev.Tool.Name, ev.Tool.Command)
					}
				case "write":
					if ev.Tool.Name != event.Write || len(ev.Tool.Paths) != 1 || !strings.HasSuffix(ev.Tool.Paths[0], "/hello.txt") {
						t.Errorf("write: %q %v", ev.Tool.Name, ev.Tool.Paths)
					}
				case "todowrite":
					if ev.Tool.Name != event.Todo {
						t.Errorf("todowrite: %q", ev.Tool.Name)
					}
				}
				if c.Hook == "tool.execute.after" && ev.Tool.Raw == "bash" && !strings.Contains(ev.Output, "hello-from-bash") {
					t.Errorf("bash output %q", ev.Output)
				}
			case "experimental.chat.system.transform":
				// The captured one is the title agent's request.
				if ev.Kind != event.Unknown {
					t.Errorf("title request decoded as %q, want no decision", ev.Kind)
				}
			case "experimental.session.compacting":
				if ev.Kind != event.PreCompact {
					t.Errorf("kind %q", ev.Kind)
				}
			case "chat.message":
				if ev.Kind != event.UserPrompt || !strings.Contains(ev.Prompt, "SCENARIO:full") {
					t.Errorf("kind %q prompt %q", ev.Kind, ev.Prompt)
				}
			}
		})
	}
	for hook := range methodOf {
		if !seen[hook] {
			t.Errorf("no capture of %s", hook)
		}
	}
}

// TestDecodeCapturedEvents decodes every bus event OpenCode delivered to
// the event hook in the capture runs.
func TestDecodeCapturedEvents(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(samplesDir(t), "events", "*.json"))
	if len(files) < 20 {
		t.Fatalf("%d event captures, want every one", len(files))
	}
	kinds := map[string]event.Kind{}
	for _, f := range files {
		var c capture
		data, err := os.ReadFile(f)
		if err != nil || json.Unmarshal(data, &c) != nil || len(c.Event) == 0 {
			t.Fatalf("%s: unreadable capture: %v", f, err)
		}
		input, _ := json.Marshal(map[string]json.RawMessage{"event": c.Event})
		ev, err := Decode(MethodEvent, params(t, input, nil), time.Unix(0, 0))
		if err != nil {
			t.Errorf("%s: %v", filepath.Base(f), err)
			continue
		}
		kinds[ev.HostEvent] = ev.Kind
		if ev.Kind != event.Unknown && ev.SessionID == "" {
			t.Errorf("%s: %q without a session", filepath.Base(f), ev.Kind)
		}
		// The ordering key must find the session of every event that has one.
		var props struct {
			Properties struct {
				SessionID string `json:"sessionID"`
			} `json:"properties"`
		}
		_ = json.Unmarshal(c.Event, &props)
		if k := SessionKey(MethodEvent, params(t, input, nil)); k != props.Properties.SessionID {
			t.Errorf("%s: SessionKey %q, want %q", filepath.Base(f), k, props.Properties.SessionID)
		}
	}
	want := map[string]event.Kind{
		"session.created": event.SessionStart, "session.idle": event.Stop, "session.compacted": event.PostCompact,
		"todo.updated": event.Unknown, "file.edited": event.Unknown, "message.updated": event.Unknown,
	}
	for name, k := range want {
		if got, ok := kinds[name]; !ok || got != k {
			t.Errorf("%s decoded as %q (captured: %v), want %q", name, got, ok, k)
		}
	}
}

func TestDecodeMalformed(t *testing.T) {
	for _, tc := range []struct {
		method, params string
		block          bool
	}{
		{MethodToolBefore, `{"directory":"/p","input":{"tool":"bash","sessionID":"s"},"output":{"args":"rm"}}`, true},
		{MethodToolBefore, `{"directory":"/p","input":{"sessionID":"s"},"output":{"args":{}}}`, true},
		{MethodToolBefore, `[1]`, true},
		{MethodToolAfter, `{"input":5}`, false},
		{"nope", `{}`, false},
		{MethodEvent, `{"input":{"event":{}}}`, false},
	} {
		ev, err := Decode(tc.method, json.RawMessage(tc.params), time.Unix(0, 0))
		if err == nil {
			t.Errorf("%s %s: no error", tc.method, tc.params)
			continue
		}
		r := Unreadable(ev.HostEvent, err)
		if (r.Block != "") != tc.block {
			t.Errorf("%s %s: block %q, want block=%v", tc.method, tc.params, r.Block, tc.block)
		}
	}
	// A request cut inside its params still names the hook.
	ev, err := DecodeRequest([]byte(`{"method":"tool.before","params":{"input":{"tool":"bash","sessionID":"s"},"output":{"args":{"command":"rm -`), time.Unix(0, 0))
	if err == nil || ev.HostEvent != "tool.execute.before" || ev.Kind != event.PreTool {
		t.Errorf("cut request: %v %+v", err, ev)
	}
}

func TestNormalizeTool(t *testing.T) {
	for _, tc := range []struct {
		name, args string
		want       event.ToolName
		command    string
		paths      []string
		pattern    string
		workdir    string
	}{
		{"bash", `{"command":"ls","workdir":"/w","description":"d"}`, event.Shell, "ls", nil, "", "/w"},
		{"bash", `{"command":"ls","workdir":"rel/"}`, event.Shell, "ls", nil, "", "rel"},
		{"read", `{"filePath":"/a"}`, event.Read, "", []string{"/a"}, "", ""},
		{"edit", `{"filePath":"/a","oldString":"x","newString":"y"}`, event.Edit, "", []string{"/a"}, "", ""},
		{"glob", `{"pattern":"**/*.go","path":"/src"}`, event.Search, "", []string{"/src"}, "**/*.go", ""},
		{"grep", `{"pattern":"foo","include":"*.ts"}`, event.Search, "", nil, "*.ts", ""},
		{"webfetch", `{"url":"https://x"}`, event.Fetch, "", nil, "", ""},
		{"github_create_issue", `{}`, event.Other, "", nil, "", ""},
		{"shell_shell_execute", `{"command":["ls","-la"],"path":5}`, event.Other, "", nil, "", ""},
		{"atreides_todo_add", `{"title":"x"}`, "mcp:atreides__todo_add", "", nil, "", ""},
		{"atreides_", `{}`, event.Other, "", nil, "", ""},
		// The patch tools (GPT models get apply_patch in place of edit and
		// write, in OpenCode and in Kilo) are judged as edits of every file
		// their envelope names, a moved file's new name too.
		{"apply_patch", `{"patchText":"*** Begin Patch\n*** Add File: .kilo/plugin/x.js\n+x\n*** Update File: a.go\n*** Move to: b.go\n@@\n-a\n+b\n*** Delete File: .kilo/plugin/atreides.ts\n*** End Patch"}`,
			event.Edit, "", []string{".kilo/plugin/x.js", "a.go", "b.go", ".kilo/plugin/atreides.ts"}, "", ""},
		{"patch", `{"patchText":"*** Begin Patch\n*** Add File: /h/.config/opencode/opencode.json\n+{}\n*** End Patch"}`,
			event.Edit, "", []string{"/h/.config/opencode/opencode.json"}, "", ""},
	} {
		tool, wd, err := NormalizeTool(tc.name, json.RawMessage(tc.args))
		if err != nil || tool.Name != tc.want || tool.Command != tc.command || strings.Join(tool.Paths, ",") != strings.Join(tc.paths, ",") || tool.Pattern != tc.pattern || wd != tc.workdir {
			t.Errorf("%s %s: %+v wd=%q err=%v", tc.name, tc.args, tool, wd, err)
		}
	}
}

// runner is an engine stand-in: it records events and answers with the
// decision the test sets for the event's kind.
type runner struct {
	events []event.Event
	answer map[event.Kind]*event.Decision
}

func (r *runner) run(_ context.Context, ev *event.Event) *event.Decision {
	r.events = append(r.events, *ev)
	if d, ok := r.answer[ev.Kind]; ok {
		c := *d
		return &c
	}
	return &event.Decision{}
}

func req(method, input string) json.RawMessage {
	switch method {
	case MethodToolBefore:
		return json.RawMessage(`{"directory":"/proj","input":` + input + `,"output":{"args":{"command":"ls"}}}`)
	case MethodSystem:
		return json.RawMessage(`{"directory":"/proj","input":` + input + `,"output":{"system":["You are opencode"]}}`)
	case MethodChat:
		return json.RawMessage(`{"directory":"/proj","input":{"sessionID":"s"},"output":{"message":{},"parts":[{"type":"text","text":` + input + `}]}}`)
	case MethodEvent:
		return json.RawMessage(`{"directory":"/proj","input":{"event":` + input + `}}`)
	}
	return json.RawMessage(`{"directory":"/proj","input":` + input + `}`)
}

// TestMapperContinuation: an idle with open todos asks for a continuation;
// the prompt it sends is not a user prompt, and the idle after it is
// marked as following atreides's own continuation (stop_hook_active).
func TestMapperContinuation(t *testing.T) {
	r := &runner{answer: map[event.Kind]*event.Decision{event.Stop: {Block: true, BlockReason: "todos open"}}}
	m := &Mapper{Run: r.run}
	ctx := context.Background()
	idle := req(MethodEvent, `{"type":"session.idle","properties":{"sessionID":"s"}}`)

	m.Handle(ctx, MethodChat, req(MethodChat, `"do the work"`))
	res := m.Handle(ctx, MethodEvent, idle)
	if res.Continue != "todos open" {
		t.Fatalf("first idle: %+v", res)
	}
	if got := m.Handle(ctx, MethodChat, req(MethodChat, `"todos open"`)); !got.Empty() {
		t.Errorf("own continuation answered %+v", got)
	}
	m.Handle(ctx, MethodEvent, idle)
	var stops []event.Event
	prompts := 0
	for _, e := range r.events {
		switch e.Kind {
		case event.Stop:
			stops = append(stops, e)
		case event.UserPrompt:
			prompts++
		}
	}
	if len(stops) != 2 || stops[0].StopHookActive || !stops[1].StopHookActive || prompts != 1 {
		t.Fatalf("stops %+v, %d user prompts (want the continuation not counted)", stops, prompts)
	}
	// A real prompt clears it.
	r.answer = nil
	m.Handle(ctx, MethodChat, req(MethodChat, `"something else"`))
	m.Handle(ctx, MethodEvent, idle)
	if last := r.events[len(r.events)-1]; last.Kind != event.Stop || last.StopHookActive {
		t.Errorf("after a user prompt: %+v", last)
	}
}

// TestMapperContextDelivery: a prompt carries no context (what it
// registers waits in the session, the engine's collector's part) and the
// system prompt carries what the engine gives it; after a compaction the
// system prompt gets the state block (SessionStart source compact).
func TestMapperContextDelivery(t *testing.T) {
	r := &runner{answer: map[event.Kind]*event.Decision{
		event.SessionStart: {Context: []event.Entry{{Source: "session", Text: "<!-- atreides:session -->"}, {Source: "memory", Text: "kept as anchor #1"}}},
	}}
	m := &Mapper{Run: r.run}
	ctx := context.Background()
	if chat := m.Handle(ctx, MethodChat, req(MethodChat, `"remember: x"`)); !chat.Empty() || r.events[0].ContextCap != 0 {
		t.Fatalf("chat.message: %+v, cap %d", chat, r.events[0].ContextCap)
	}
	sys := m.Handle(ctx, MethodSystem, req(MethodSystem, `{"sessionID":"s"}`))
	if len(sys.System) != 1 || sys.System[0] != "<!-- atreides:session -->\n\nkept as anchor #1" || r.events[1].ContextCap != MaxContext {
		t.Fatalf("system %q", sys.System)
	}
	title := json.RawMessage(`{"directory":"/proj","input":{"sessionID":"s"},"output":{"system":["You are a title generator. You output ONLY a thread title."]}}`)
	if got := m.Handle(ctx, MethodSystem, title); !got.Empty() {
		t.Errorf("title request got %+v", got)
	}

	r.answer[event.SessionStart] = &event.Decision{Context: []event.Entry{
		{Source: "memory", Text: "<!-- ATREIDES STATE -->"}, {Source: "session", Text: "identity"}}}
	comp := m.Handle(ctx, MethodCompacting, req(MethodCompacting, `{"sessionID":"s"}`))
	if len(comp.Context) != 1 || comp.Context[0] != "<!-- ATREIDES STATE -->" {
		t.Errorf("compacting context %q", comp.Context)
	}
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.compacted","properties":{"sessionID":"s"}}`))
	m.Handle(ctx, MethodSystem, req(MethodSystem, `{"sessionID":"s"}`))
	last := r.events[len(r.events)-1]
	if last.Kind != event.SessionStart || last.Source != "compact" {
		t.Errorf("system prompt after compaction: kind %q source %q", last.Kind, last.Source)
	}
}

// TestMapperChildSession: a session with a parent is a subagent of it:
// its idle is a SubagentStop (no continuation) and its tool calls carry
// the agent id.
func TestMapperChildSession(t *testing.T) {
	r := &runner{}
	m := &Mapper{Run: r.run}
	ctx := context.Background()
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.created","properties":{"sessionID":"c","info":{"id":"c","parentID":"p","directory":"/proj"}}}`))
	m.Handle(ctx, MethodToolBefore, req(MethodToolBefore, `{"tool":"bash","sessionID":"c","callID":"k"}`))
	m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.idle","properties":{"sessionID":"c"}}`))
	want := []event.Kind{event.SubagentStart, event.PreTool, event.SubagentStop}
	if len(r.events) != len(want) {
		t.Fatalf("events %+v", r.events)
	}
	for i, e := range r.events {
		if e.Kind != want[i] || e.SessionID != "p" || e.AgentID != "c" {
			t.Errorf("event %d: kind %q session %q agent %q", i, e.Kind, e.SessionID, e.AgentID)
		}
	}
}

func TestEncodeAskBecomesBlock(t *testing.T) {
	ev := &event.Event{HostEvent: "tool.execute.before"}
	r := Encode(ev, &event.Decision{Verdict: event.Ask, Reason: "force push"})
	if !strings.HasPrefix(r.Block, "force push") || !strings.Contains(r.Block, "cannot ask") {
		t.Errorf("ask: %q", r.Block)
	}
	r = Encode(ev, &event.Decision{Verdict: event.Deny, Rule: "x"})
	if !strings.Contains(r.Block, "rule x") {
		t.Errorf("deny without reason: %q", r.Block)
	}
}

func TestMapperWarnsOncePerSession(t *testing.T) {
	r := &runner{answer: map[event.Kind]*event.Decision{event.SessionStart: {Warnings: []string{"no AGENTS.md"}}}}
	m := &Mapper{Run: r.run}
	ctx := context.Background()
	if got := m.Handle(ctx, MethodSystem, req(MethodSystem, `{"sessionID":"s"}`)); len(got.Warn) != 1 {
		t.Errorf("first: %v", got.Warn)
	}
	if got := m.Handle(ctx, MethodSystem, req(MethodSystem, `{"sessionID":"s"}`)); len(got.Warn) != 0 {
		t.Errorf("second: %v", got.Warn)
	}
}

// TestMapperFirstSystemPromptOneSessionBlock: OpenCode announces a new
// session on the bus (session.created, a SessionStart) and then asks for
// its first system prompt (another SessionStart). The session block the
// engine decides at both must reach the model once, not once from the
// prompt and again from the queue.
func TestMapperFirstSystemPromptOneSessionBlock(t *testing.T) {
	const block = "<!-- atreides:session --> identity"
	r := &runner{answer: map[event.Kind]*event.Decision{
		event.SessionStart: {Context: []event.Entry{{Source: "session-context", Text: block}}, Warnings: []string{"atreides: a problem"}},
	}}
	m := &Mapper{Run: r.run}
	ctx := context.Background()
	created := m.Handle(ctx, MethodEvent, req(MethodEvent, `{"type":"session.created","properties":{"info":{"id":"s","directory":"/proj"}}}`))
	sys := m.Handle(ctx, MethodSystem, req(MethodSystem, `{"sessionID":"s"}`))
	if n := strings.Count(strings.Join(sys.System, "\n"), "<!-- atreides:session -->"); n != 1 {
		t.Errorf("first system prompt carries the session block %d times, want 1: %q", n, sys.System)
	}
	if len(created.Warn)+len(sys.Warn) != 1 {
		t.Errorf("warning passed on %d times, want once (created %q, system %q)", len(created.Warn)+len(sys.Warn), created.Warn, sys.Warn)
	}
}

// A command's workdir, relative or not, is where the guard reads its
// relative paths from: Kilo 7.7.7 (and OpenCode) resolve a relative
// workdir of bash and background_process from the session's directory, so
// `echo x > atreides.ts` in workdir .kilo/plugin writes the plugin.
func TestDecodeRelativeWorkdir(t *testing.T) {
	for _, tc := range []struct{ tool, args, cwd string }{
		{"bash", `{"command":"echo x > atreides.ts","workdir":".kilo/plugin"}`, "/proj/.kilo/plugin"},
		{"background_process", `{"action":"start","command":"echo x > atreides.ts","workdir":".kilo/plugin"}`, "/proj/.kilo/plugin"},
		{"bash", `{"command":"ls","workdir":"/abs"}`, "/abs"},
		{"bash", `{"command":"ls"}`, "/proj"},
	} {
		raw := `{"directory":"/proj","input":{"tool":"` + tc.tool + `","sessionID":"s","callID":"c"},"output":{"args":` + tc.args + `}}`
		ev, err := Decode(MethodToolBefore, json.RawMessage(raw), time.Unix(0, 0))
		if err != nil || ev.Cwd != tc.cwd || ev.Tool.Name != event.Shell {
			t.Errorf("%s %s: cwd %q tool %+v, %v", tc.tool, tc.args, ev.Cwd, ev.Tool, err)
		}
	}
	raw := `{"directory":"","input":{"tool":"bash","sessionID":"s","callID":"c"},"output":{"args":{"command":"ls","workdir":"rel"}}}`
	if ev, err := Decode(MethodToolBefore, json.RawMessage(raw), time.Unix(0, 0)); err == nil || ev.Kind != event.PreTool {
		t.Errorf("a relative workdir with no directory decoded: %+v", ev)
	}
}
