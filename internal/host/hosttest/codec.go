package hosttest

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// Codec is one host's adapter as its own package's tests put it to the
// checks below: each host brings its own tables (payloads, answers, tool
// names), and the checks are the same for every host.
type Codec struct {
	Adapter host.Adapter
	// SamplesDir names the host's captured payloads below
	// testdata/host-samples ("claude-code", "gemini-cli", "codex").
	SamplesDir string
	// ToolEvents are the host events that carry a tool call: an
	// unreadable one must be blocked.
	ToolEvents []string
}

// noEnv is a hook process's environment with nothing set.
func noEnv(string) string { return "" }

// decode decodes data as the host's hook payload with nothing in the
// environment.
func (c Codec) decode(data []byte) (*event.Event, error) {
	return c.Adapter.Decode(data, noEnv, time.Unix(0, 0))
}

// everything is a decision that says something on every event, to see
// that each event's answer is JSON the host can parse.
var everything = event.Decision{Verdict: event.Deny, Reason: "r", Block: true, BlockReason: "b", Context: []event.Entry{{Text: "c"}}}

// Sample is one captured hook payload.
type Sample struct {
	Rel string         // its path below the host's captured samples
	Raw map[string]any // the payload as plain JSON
}

// Event is the sample's hook_event_name.
func (s Sample) Event() string { name, _ := s.Raw["hook_event_name"].(string); return name }

// Captured decodes every payload the host sent in the capture runs, each
// in a subtest: it must decode without error as its own event, for this
// host, with the session and cwd it names and no project root (the
// environment is empty); its kind is Unknown exactly when unknown names
// it; an answer to it must be valid JSON; and check sees what else it
// must carry. Every event in want must have been captured. It returns
// the samples read.
func (c Codec) Captured(t *testing.T, unknown map[string]bool, want []string, check func(t *testing.T, ev *event.Event, raw map[string]any)) []Sample {
	t.Helper()
	dir := Samples(t, "host-samples", c.SamplesDir, "captured")
	files, err := filepath.Glob(filepath.Join(dir, "*", "*", "hooks", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var samples []Sample
	seen := map[string]int{}
	for _, f := range files {
		if strings.HasSuffix(f, ".env.json") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		s := Sample{}
		if err := json.Unmarshal(data, &s.Raw); err != nil {
			t.Fatalf("%s: sample is not JSON: %v", f, err)
		}
		s.Rel, _ = filepath.Rel(dir, f)
		samples = append(samples, s)
		seen[s.Event()]++
		t.Run(s.Rel, func(t *testing.T) { c.checkSample(t, data, s, unknown, check) })
	}
	for _, name := range want {
		if seen[name] == 0 {
			t.Errorf("no captured %s payload decoded (saw %v)", name, seen)
		}
	}
	return samples
}

func (c Codec) checkSample(t *testing.T, data []byte, s Sample, unknown map[string]bool, check func(*testing.T, *event.Event, map[string]any)) {
	t.Helper()
	name := s.Event()
	ev, err := c.decode(data)
	if err != nil {
		t.Fatalf("Decode: %v", err)
	}
	if ev.HostEvent != name || ev.Host != c.Adapter.Name() {
		t.Fatalf("event %q decoded as %q from %q", name, ev.HostEvent, ev.Host)
	}
	if (ev.Kind == event.Unknown) != unknown[name] {
		t.Fatalf("event %q decoded as kind %q", name, ev.Kind)
	}
	if ev.SessionID != s.Raw["session_id"] || ev.Cwd != s.Raw["cwd"] || ev.ProjectDir != "" {
		t.Errorf("ids: session %q cwd %q project %q", ev.SessionID, ev.Cwd, ev.ProjectDir)
	}
	switch ev.Kind {
	case event.SessionStart:
		Carried(t, name+" source", ev.Source, s.Raw, "source")
	case event.UserPrompt:
		Carried(t, name+" prompt", ev.Prompt, s.Raw, "prompt")
	case event.Stop:
		CheckStopHookActive(t, ev, s.Raw)
	}
	check(t, ev, s.Raw)
	d := everything
	if ans := c.Adapter.Encode(ev, &d); len(ans.Stdout) > 0 && !json.Valid(ans.Stdout) {
		t.Errorf("invalid JSON answer %q", ans.Stdout)
	}
}

// Malformed is a payload the host's decoder must refuse, and the event
// name it must still recover from it (so that a tool call fails closed).
type Malformed struct {
	Name, In, Event string
}

// CheckMalformed decodes each payload and wants [host.ErrMalformed] and
// the recovered event name.
func (c Codec) CheckMalformed(t *testing.T, cases []Malformed) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			ev, err := c.decode([]byte(tt.In))
			if !errors.Is(err, host.ErrMalformed) {
				t.Fatalf("err = %v, want host.ErrMalformed", err)
			}
			if ev.HostEvent != tt.Event {
				t.Errorf("recovered event %q, want %q", ev.HostEvent, tt.Event)
			}
		})
	}
}

// Fuzz decodes any bytes: the decoder returns an event, fails only with
// [host.ErrMalformed], the answer to what it decoded is valid JSON, and
// an unreadable tool call is blocked. seeds start the corpus.
func (c Codec) Fuzz(f *testing.F, seeds ...string) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		ev, err := c.decode(data)
		if ev == nil {
			t.Fatal("nil event")
		}
		if err != nil && !errors.Is(err, host.ErrMalformed) {
			t.Fatalf("error not host.ErrMalformed: %v", err)
		}
		ans := c.Adapter.Encode(ev, &event.Decision{Verdict: event.Deny, Reason: "r", Context: []event.Entry{{Text: "c"}}})
		if len(ans.Stdout) > 0 && !json.Valid(ans.Stdout) {
			t.Fatalf("invalid JSON answer %q", ans.Stdout)
		}
		if err != nil && slices.Contains(c.ToolEvents, ev.HostEvent) {
			if u := c.Adapter.Unreadable(ev.HostEvent, err); u.Exit != 2 || !json.Valid(u.Stdout) {
				t.Fatalf("unreadable tool call not blocked: %+v", u)
			}
		}
	})
}

// Answer is the host's exact answer to a decision on one of its events.
type Answer struct {
	Name  string
	Event string // the host's event name
	D     *event.Decision
	Want  string // exact JSON, "" for no output
}

// CheckEncode encodes each decision for its event and wants exactly the
// JSON, exit 0 and nothing on stderr.
func (c Codec) CheckEncode(t *testing.T, cases []Answer) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.Name, func(t *testing.T) {
			ans := c.Adapter.Encode(&event.Event{HostEvent: tt.Event}, tt.D)
			if got := strings.TrimSpace(string(ans.Stdout)); got != tt.Want {
				t.Errorf("got  %s\nwant %s", got, tt.Want)
			}
			if ans.Exit != 0 || ans.Stderr != "" {
				t.Errorf("exit %d stderr %q", ans.Exit, ans.Stderr)
			}
		})
	}
}

// CheckUnreadable wants every tool event's answer to an unreadable
// payload to block (exit 2, the reason on stderr) with the deny that
// denies accepts, and no answer at all to the events in quiet.
func (c Codec) CheckUnreadable(t *testing.T, quiet []string, denies func(hostEvent string, ans host.Answer) error) {
	t.Helper()
	for _, ev := range c.ToolEvents {
		ans := c.Adapter.Unreadable(ev, host.ErrMalformed)
		if ans.Exit != 2 || !strings.Contains(ans.Stderr, "could not read") {
			t.Errorf("%s: %+v", ev, ans)
		}
		if err := denies(ev, ans); err != nil {
			t.Errorf("%s: %v", ev, err)
		}
	}
	for _, ev := range quiet {
		if ans := c.Adapter.Unreadable(ev, host.ErrMalformed); len(ans.Stdout) != 0 || ans.Exit != 0 {
			t.Errorf("%q: want no decision, got %+v", ev, ans)
		}
	}
}

// HookSpecificDeny accepts a Claude-format deny: hookSpecificOutput for
// the event with permissionDecision "deny" or decision.behavior "deny".
func HookSpecificDeny(hostEvent string, ans host.Answer) error {
	var out struct {
		HSO struct {
			HookEventName      string                    `json:"hookEventName"`
			PermissionDecision string                    `json:"permissionDecision"`
			Decision           struct{ Behavior string } `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(ans.Stdout, &out); err != nil {
		return err
	}
	if out.HSO.HookEventName != hostEvent || (out.HSO.PermissionDecision != "deny" && out.HSO.Decision.Behavior != "deny") {
		return fmt.Errorf("not a deny: %s", ans.Stdout)
	}
	return nil
}

// Tool is a tool call as the host names it and what atreides makes of it.
type Tool struct {
	Name, Input string
	Want        event.ToolName
	Command     string
	Paths       []string
}

// CheckTools normalizes each tool call and wants its name, command and
// paths.
func CheckTools(t *testing.T, cases []Tool, normalize func(name string, input json.RawMessage) (event.Tool, error)) {
	t.Helper()
	for _, tt := range cases {
		got, err := normalize(tt.Name, json.RawMessage(tt.Input))
		if err != nil {
			t.Fatalf("%s: %v", tt.Name, err)
		}
		if got.Name != tt.Want || got.Command != tt.Command || strings.Join(got.Paths, ",") != strings.Join(tt.Paths, ",") {
			t.Errorf("%s %s: got %q %q %v, want %q %q %v", tt.Name, tt.Input, got.Name, got.Command, got.Paths, tt.Want, tt.Command, tt.Paths)
		}
	}
}

// Bench decodes every captured payload of the host once per round.
func (c Codec) Bench(b *testing.B) {
	BenchDecode(b, c.SamplesDir, func(data []byte) error {
		_, err := c.decode(data)
		return err
	})
}

// Carried checks that a decoded field is set and is the payload's value
// under key.
func Carried(t *testing.T, what, got string, raw map[string]any, key string) {
	t.Helper()
	if got == "" || got != raw[key] {
		t.Errorf("%s %q, payload's %s %v", what, got, key, raw[key])
	}
}

// CheckToolCall checks a decoded tool call against its payload: the
// host's tool name is kept and mapped, a shell command is the input's
// command, and a file tool's first path is the input's file_path.
func CheckToolCall(t *testing.T, ev *event.Event, raw map[string]any) {
	t.Helper()
	if ev.Tool.Raw != raw["tool_name"] || ev.Tool.Name == "" {
		t.Errorf("tool %q normalized to %q", raw["tool_name"], ev.Tool.Name)
	}
	in, _ := raw["tool_input"].(map[string]any)
	switch ev.Tool.Name {
	case event.Shell:
		if ev.Tool.Command == "" || ev.Tool.Command != in["command"] {
			t.Errorf("shell command %q, input %v", ev.Tool.Command, in)
		}
	case event.Read, event.Write, event.Edit:
		if len(ev.Tool.Paths) == 0 || ev.Tool.Paths[0] != in["file_path"] {
			t.Errorf("paths %v, input %v", ev.Tool.Paths, in)
		}
	}
}

// CheckStopHookActive checks a stop's stop_hook_active against its
// payload.
func CheckStopHookActive(t *testing.T, ev *event.Event, raw map[string]any) {
	t.Helper()
	if active, _ := raw["stop_hook_active"].(bool); active != ev.StopHookActive {
		t.Errorf("stop_hook_active %v, decoded %v", active, ev.StopHookActive)
	}
}

// Decisions are the engine decisions the hosts' encode tables put to
// their events, each new per call so that no table shares one with another.
type Decisions struct {
	Deny, Ask, Allow, Context, Block, Rewrite *event.Decision
}

// Decided returns the [Decisions]: deny "rm -rf is blocked", ask "unsure",
// allow "fine", context "phase: implementation", block "todos open", and
// a rewrite of the input to {"command":"ls -a"}.
func Decided() Decisions {
	return Decisions{
		Deny:    &event.Decision{Verdict: event.Deny, Rule: "fs.rm-rf", Reason: "rm -rf is blocked"},
		Ask:     &event.Decision{Verdict: event.Ask, Reason: "unsure"},
		Allow:   &event.Decision{Verdict: event.Allow, Reason: "fine"},
		Context: &event.Decision{Context: []event.Entry{{Text: "phase: implementation"}}},
		Block:   &event.Decision{Block: true, BlockReason: "todos open"},
		Rewrite: &event.Decision{UpdatedInput: json.RawMessage(`{"command":"ls -a"}`)},
	}
}

// CheckHandles wants every event in events, sent as a call of the shell
// tool, to decode as an event the adapter handles: the events install
// registers must be ones the adapter knows.
func (c Codec) CheckHandles(t *testing.T, events []string, shell string) {
	t.Helper()
	for _, ev := range events {
		payload := fmt.Sprintf(`{"hook_event_name":%q,"tool_name":%q,"tool_input":{"command":"ls"}}`, ev, shell)
		e, err := c.decode([]byte(payload))
		if err != nil || e.Kind == event.Unknown {
			t.Errorf("adapter does not handle %s: %v %v", ev, e.Kind, err)
		}
	}
}

// CheckJudged wants every tool, with no input, to be one the adapter maps
// to a name of atreides's: the tools install limits the hook to must be
// ones the adapter judges.
func CheckJudged(t *testing.T, tools []string, normalize func(name string, input json.RawMessage) (event.Tool, error)) {
	t.Helper()
	for _, tool := range tools {
		if tt, _ := normalize(tool, nil); tt.Name == event.Other {
			t.Errorf("%s is not a tool the adapter judges", tool)
		}
	}
}

// CheckMatcher compiles a hook matcher (as Go's RE2, which agrees with
// the hosts' regex engines on what install writes) and wants it to match
// exactly the tool names marked true.
func CheckMatcher(t *testing.T, matcher string, names map[string]bool) {
	t.Helper()
	re := regexp.MustCompile(matcher)
	for name, want := range names {
		if re.MatchString(name) != want {
			t.Errorf("matcher %s on %s: %v, want %v", matcher, name, !want, want)
		}
	}
}
