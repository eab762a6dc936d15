package hosttest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// Case names one engine decision the suite puts to every adapter.
type Case string

// The cases every adapter must state an answer for.
const (
	DenyShell       Case = "deny a shell command"
	AskShell        Case = "ask about a shell command"
	AllowRewrite    Case = "allow with rewritten input"
	SessionContext  Case = "context at session start"
	PostToolContext Case = "context after a tool"
	KeepGoing       Case = "keep going at stop"
	Nothing         Case = "nothing to say"
	UnreadableTool  Case = "unreadable tool call"
)

// Any, as a string value anywhere in an expected JSON answer, matches any
// non-empty string: for texts that carry an error message the suite does
// not control.
const Any = "<any>"

// Contains returns an expected string value that matches any string
// containing s: for a reason a host has to reword.
func Contains(s string) string { return containsMark + s + ">" }

const containsMark = "<contains:"

// Wire is a host's expected answer to one case.
type Wire struct {
	// Stdout is the expected JSON, compared by value (key order and
	// spacing do not matter, every key must match); "" expects no output.
	Stdout string
	Exit   int
	// Stderr, when set, must occur in the answer's stderr. An answer that
	// exits non-zero must always say why on stderr.
	Stderr string
}

// ProjectDir is the project the suite's payloads and environments name
// (an Expectations.Env value equal to it names the project).
const ProjectDir = "/proj"

// Expectations is how one host takes part in the suite.
type Expectations struct {
	// Payload returns the host's hook payload for an event of the kind, as
	// the host would write it on stdin, with session id "s" and cwd
	// "/proj" (the project root, if the host names one, is "/proj" too).
	// For PreTool and PostTool it is the host's shell tool
	// running cmd; for Stop it is a first stop (no stop hook active).
	Payload func(kind event.Kind, cmd string) []byte
	// Env is what the hook process's environment holds (getenv).
	Env map[string]string
	// Want is the host's answer to every case.
	Want map[Case]Wire
	// Attack, when set, is the PreTool payload of the shell tool running
	// "rm -rf ~" with inject added to its input object, after its own
	// members: for a host whose shell tool takes a list of commands
	// (Cline's run_commands), where inject cannot follow the command
	// string. Unset, the attack follows that string in Payload's.
	Attack func(inject string) []byte
}

// scenario is one row of the table: the event the host sends and the
// decision the engine reaches about it.
type scenario struct {
	c    Case
	kind event.Kind
	cmd  string
	d    event.Decision
}

var rewritten = json.RawMessage(`{"command":"ls -la"}`)

var table = []scenario{
	{DenyShell, event.PreTool, "rm -rf victim", event.Decision{Verdict: event.Deny, Rule: "fs.rm-recursive", Reason: "rm -rf would delete victim"}},
	{AskShell, event.PreTool, "git push --force", event.Decision{Verdict: event.Ask, Rule: "git.force-push", Reason: "force push rewrites history"}},
	{AllowRewrite, event.PreTool, "ls", event.Decision{Verdict: event.Allow, UpdatedInput: rewritten}},
	{SessionContext, event.SessionStart, "", event.Decision{Context: event.Note("session", "", event.High, "phase: plan")}},
	{PostToolContext, event.PostTool, "go test ./...", event.Decision{Context: event.Note("tests", "", event.Normal, "3 tests failed")}},
	{KeepGoing, event.Stop, "", event.Decision{Block: true, BlockReason: "todos open: write the report"}},
	{Nothing, event.PreTool, "ls", event.Decision{}},
	{UnreadableTool, event.PreTool, "rm -rf victim", event.Decision{}},
}

// Cases lists every case, in the suite's order.
func Cases() []Case {
	out := make([]Case, len(table))
	for i, s := range table {
		out[i] = s.c
	}
	return out
}

// Run puts every case to the adapter and checks its wire answer.
func Run(t *testing.T, a host.Adapter, wire Expectations) {
	t.Helper()
	for c := range wire.Want {
		if !slices.Contains(Cases(), c) {
			t.Errorf("expectation for unknown case %q", c)
		}
	}
	getenv := func(k string) string { return wire.Env[k] }
	for _, s := range table {
		t.Run(string(s.c), func(t *testing.T) {
			want, ok := wire.Want[s.c]
			if !ok {
				t.Fatalf("%s states no answer for %q", a.Name(), s.c)
			}
			payload := wire.Payload(s.kind, s.cmd)
			var ans host.Answer
			if s.c == UnreadableTool {
				ans = unreadable(t, a, payload, getenv)
			} else {
				ev := decode(t, a, s, payload, getenv)
				d := s.d
				ans = a.Encode(ev, &d)
			}
			check(t, ans, want)
		})
	}
	for _, k := range KeyAttacks {
		t.Run("key attack: "+k.Name, func(t *testing.T) {
			checkKeyAttack(t, a, wire, k, getenv)
		})
	}
}

// A KeyAttack is a shell tool input whose keys a case-insensitive decoder
// would read differently from the host (which reads `command` exactly):
// Inject follows the command's JSON string inside the tool input.
type KeyAttack struct {
	Name, Inject string
	Key          string // the key the deny reason must name
}

// KeyAttacks are the tool inputs every adapter must refuse to decode, so
// that the tool call is blocked like an unreadable one.
var KeyAttacks = []KeyAttack{
	{"upper-case variant after", `,"COMMAND":"ls"`, `COMMAND`},
	{"duplicate", `,"command":"ls"`, `duplicate key`},
	{"long s variant", `,"de\u017fcription":"x","description":"y"`, `description`},
	{"variant in a nested object", `,"env":{"path":"/bin","PATH":"/tmp"}`, `in env`},
	{"variant in an array of objects", `,"edits":[{"a":1},{"old":"x","OLD":"y"}]`, `in edits[1]`},
}

// checkKeyAttack injects the attack into the host's shell tool payload
// and expects the answer to an unreadable tool call, naming the key.
func checkKeyAttack(t *testing.T, a host.Adapter, wire Expectations, k KeyAttack, getenv func(string) string) {
	t.Helper()
	var payload []byte
	if wire.Attack != nil {
		payload = wire.Attack(k.Inject)
	} else {
		payload = wire.Payload(event.PreTool, "rm -rf ~")
		cmd := []byte(`"rm -rf ~"`)
		if !bytes.Contains(payload, cmd) {
			t.Fatalf("payload does not carry the command as %s: %s", cmd, payload)
		}
		payload = bytes.Replace(payload, cmd, append(cmd, k.Inject...), 1)
	}
	ev, err := a.Decode(payload, getenv, time.Unix(0, 0))
	if err == nil {
		t.Fatalf("decoded without error as %q: %s", ev.Tool.Command, payload)
	}
	if ev == nil || ev.HostEvent == "" {
		t.Fatalf("the event name was not recovered from %s", payload)
	}
	ans := a.Unreadable(ev.HostEvent, err)
	check(t, ans, wire.Want[UnreadableTool])
	if !strings.Contains(ans.Stderr+string(ans.Stdout), k.Key) {
		t.Errorf("the answer does not name %s:\n%s\n%s", k.Key, ans.Stdout, ans.Stderr)
	}
}

// decode decodes a well-formed payload and checks the event the engine
// would see.
func decode(t *testing.T, a host.Adapter, s scenario, payload []byte, getenv func(string) string) *event.Event {
	t.Helper()
	ev, err := a.Decode(payload, getenv, time.Unix(0, 0))
	if err != nil {
		t.Fatalf("Decode(%s): %v", payload, err)
	}
	if ev.Kind != s.kind || ev.Host != a.Name() || ev.HostEvent == "" {
		t.Fatalf("decoded kind %q host %q event %q, want kind %q host %q", ev.Kind, ev.Host, ev.HostEvent, s.kind, a.Name())
	}
	// A project the host names must come through; without one the
	// caller finds it from the cwd.
	if ev.SessionID != "s" || ev.Cwd != "/proj" || (ev.ProjectDir != "" && ev.ProjectDir != "/proj") {
		t.Errorf("session %q cwd %q project %q", ev.SessionID, ev.Cwd, ev.ProjectDir)
	}
	if s.cmd != "" && (ev.Tool.Name != event.Shell || ev.Tool.Command != s.cmd) {
		t.Errorf("tool %q command %q, want the shell running %q", ev.Tool.Name, ev.Tool.Command, s.cmd)
	}
	if s.kind == event.Stop && ev.StopHookActive {
		t.Error("a first stop decoded as stop_hook_active")
	}
	return ev
}

// unreadable cuts the payload inside its command, as a pipe closed early
// would, and asks the adapter for its answer.
func unreadable(t *testing.T, a host.Adapter, payload []byte, getenv func(string) string) host.Answer {
	t.Helper()
	i := bytes.Index(payload, []byte("rm -rf"))
	if i < 0 {
		t.Fatalf("payload does not carry the command: %s", payload)
	}
	ev, err := a.Decode(payload[:i+3], getenv, time.Unix(0, 0))
	if err == nil {
		t.Fatalf("a cut payload decoded without error: %s", payload[:i+3])
	}
	if ev == nil || ev.HostEvent == "" {
		t.Fatalf("the event name was not recovered from %s", payload[:i+3])
	}
	return a.Unreadable(ev.HostEvent, err)
}

func check(t *testing.T, got host.Answer, want Wire) {
	t.Helper()
	if got.Exit != want.Exit {
		t.Errorf("exit %d, want %d", got.Exit, want.Exit)
	}
	if got.Exit != 0 && strings.TrimSpace(got.Stderr) == "" {
		t.Errorf("exit %d with nothing on stderr", got.Exit)
	}
	if want.Stderr != "" && !strings.Contains(got.Stderr, want.Stderr) {
		t.Errorf("stderr %q does not contain %q", got.Stderr, want.Stderr)
	}
	if want.Stdout == "" {
		if len(got.Stdout) != 0 {
			t.Errorf("want no output, got %s", got.Stdout)
		}
		return
	}
	if len(got.Stdout) == 0 || got.Stdout[len(got.Stdout)-1] != '\n' || bytes.Count(got.Stdout, []byte("\n")) != 1 {
		t.Errorf("stdout must be one JSON line: %q", got.Stdout)
	}
	var g, w any
	if err := json.Unmarshal(got.Stdout, &g); err != nil {
		t.Fatalf("stdout is not JSON: %v: %s", err, got.Stdout)
	}
	if err := json.Unmarshal([]byte(want.Stdout), &w); err != nil {
		t.Fatalf("bad expectation %s: %v", want.Stdout, err)
	}
	if diff := match(w, g, "$"); diff != "" {
		t.Errorf("%s\ngot  %s\nwant %s", diff, bytes.TrimSpace(got.Stdout), want.Stdout)
	}
}

// match compares decoded JSON values; the expected string Any matches any
// non-empty string. It returns the first difference, or "".
func match(want, got any, path string) string {
	switch w := want.(type) {
	case string:
		g, ok := got.(string)
		if !ok {
			break
		}
		if w == g || (w == Any && g != "") {
			return ""
		}
		if sub, ok := strings.CutPrefix(w, containsMark); ok && strings.HasSuffix(sub, ">") && strings.Contains(g, strings.TrimSuffix(sub, ">")) {
			return ""
		}
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			break
		}
		for k := range g {
			if _, ok := w[k]; !ok {
				return fmt.Sprintf("%s: unexpected key %q", path, k)
			}
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Sprintf("%s: missing key %q", path, k)
			}
			if d := match(wv, gv, path+"."+k); d != "" {
				return d
			}
		}
		return ""
	default:
		if reflect.DeepEqual(want, got) {
			return ""
		}
	}
	return fmt.Sprintf("%s: got %v, want %v", path, got, want)
}

// Samples is a directory of captured host payloads vendored in this
// package's testdata (copied from the project's shared/research; see
// testdata/README.md). parts name it below testdata, for example
// "host-samples", "codex", "captured". A missing or empty directory fails
// the test: the samples are part of the repository.
func Samples(t testing.TB, parts ...string) string {
	t.Helper()
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := wd
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			t.Fatalf("no go.mod above %s", wd)
		}
		root = parent
	}
	dir := filepath.Join(append([]string{root, "internal", "host", "hosttest", "testdata"}, parts...)...)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatalf("host samples missing: %v (see internal/host/hosttest/testdata/README.md)", err)
	}
	if len(entries) == 0 {
		t.Fatalf("host samples missing: %s is empty", dir)
	}
	return dir
}

// CapturedFiles lists the files of every captured hook payload of a host,
// named as in testdata/host-samples ("claude-code", "gemini-cli",
// "codex"); none fails the test.
func CapturedFiles(t testing.TB, hostDir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(Samples(t, "host-samples", hostDir, "captured"), "*", "*", "hooks", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	files = slices.DeleteFunc(files, func(f string) bool { return strings.HasSuffix(f, ".env.json") })
	if len(files) == 0 {
		t.Fatalf("no captured payloads of %s", hostDir)
	}
	return files
}

// payloads reads every captured hook payload of a host (see
// CapturedFiles).
func payloads(t testing.TB, hostDir string) [][]byte {
	t.Helper()
	var out [][]byte
	for _, f := range CapturedFiles(t, hostDir) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, data)
	}
	return out
}

// BenchDecode decodes every captured payload of a host once per round.
func BenchDecode(b *testing.B, hostDir string, decode func([]byte) error) {
	all := payloads(b, hostDir)
	b.ReportMetric(float64(len(all)), "payloads")
	b.ReportAllocs()
	for b.Loop() {
		for _, data := range all {
			if err := decode(data); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// SamplesDecodeAsLoose checks every captured payload of a Claude-format
// host, decoded as a [hookjson.Payload], and its tool input, decoded into
// T (the host's tool input struct): both come out as encoding/json makes
// them, and the tool input has unique keys.
func SamplesDecodeAsLoose[T any](t *testing.T, hostDir string) {
	t.Helper()
	for i, data := range payloads(t, hostDir) {
		in := decodesAsLoose[hookjson.Payload](t, fmt.Sprintf("sample %d", i), data).ToolInput
		if len(in) == 0 || in[0] != '{' {
			continue
		}
		if err := strictjson.UniqueKeys(in); err != nil {
			t.Errorf("sample %d: %v", i, err)
		}
		decodesAsLoose[T](t, fmt.Sprintf("sample %d tool input", i), in)
	}
}

// decodesAsLoose checks that strict decoding of data into a T gives what
// encoding/json gives: real payloads have exact, unique keys, so strict
// decoding must change nothing for them. It returns the strict value.
func decodesAsLoose[T any](t *testing.T, name string, data []byte) T {
	t.Helper()
	var strict, loose T
	if err := strictjson.Unmarshal(data, &strict); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	if err := json.Unmarshal(data, &loose); err != nil {
		t.Errorf("%s: %v", name, err)
	}
	if !reflect.DeepEqual(strict, loose) {
		t.Errorf("%s decodes differently:\n strict %+v\n loose  %+v", name, strict, loose)
	}
	return strict
}
