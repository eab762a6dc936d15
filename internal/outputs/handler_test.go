package outputs

import (
	"fmt"
	"github.com/atreides-dev/atreides/internal/config"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
)

type logEnv struct{ logs []string }

func (e *logEnv) Logf(f string, a ...any) { e.logs = append(e.logs, fmt.Sprintf(f, a...)) }
func (e *logEnv) Now() time.Time          { return time.Unix(0, 0) }

// run runs the handler on ev as the engine does: Prepare, then Handle.
func run(t *testing.T, o Options, ev *event.Event) (event.Result, *logEnv) {
	t.Helper()
	h := Handler(func() Options { return o })
	env := &logEnv{}
	c := &engine.Call{Event: ev, Env: env, Memo: &engine.Memo{}}
	h.Prepare(c)
	r, err := h.Handle(c)
	if err != nil {
		t.Fatal(err)
	}
	return r, env
}

func lines(n int) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, "src/file%03d.go:%d: match\n", i%100, i)
	}
	return b.String()
}

func postTool(root string, tool event.ToolName, out string) *event.Event {
	return &event.Event{
		Kind: event.PostTool, Host: "claude", SessionID: "s1", ProjectDir: root,
		Tool: event.Tool{Name: tool, Raw: string(tool)}, FullOutput: out, ReplacesOutput: true,
		Time: time.Date(2026, 11, 24, 2, 30, 0, 0, time.UTC),
	}
}

func TestCap(t *testing.T) {
	o := Options{Shell: 16000, Search: 12000, Fetch: 8000, MCP: 10000}
	room := func(left int, ok bool) func(*event.Event) (int, bool) {
		return func(*event.Event) (int, bool) { return left, ok }
	}
	tests := []struct {
		name string
		tool event.ToolName
		room func(*event.Event) (int, bool)
		mcp  int // the MCP limit, when not o's
		want int
	}{
		{"shell limit", event.Shell, nil, 0, 16000},
		{"search limit", event.Search, nil, 0, 12000},
		{"fetch is lower", event.Fetch, nil, 0, 8000},
		{"mcp tools", "mcp:github__search", nil, 0, 10000},
		{"other tools are not cut", event.Read, nil, 0, 0},
		{"room unknown: the limit", event.Shell, room(0, false), 0, 16000},
		{"plenty of room: the limit", event.Shell, room(1<<20, true), 0, 16000},
		{"half the room left when smaller", event.Shell, room(10000, true), 0, 5000},
		{"no room: still a minimum", event.Shell, room(0, true), 0, minCap},
		{"room never raises a limit", event.Fetch, room(100000, true), 0, 8000},
		{"nor does the minimum", "mcp:tiny__t", room(0, true), 500, 500},
		{"room does not turn on a tool set to 0", event.Read, room(100, true), 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			o := o
			if tt.mcp != 0 {
				o.MCP = tt.mcp
			}
			o.Room = tt.room
			if got := o.Cap(&event.Event{Tool: event.Tool{Name: tt.tool}}); got != tt.want {
				t.Errorf("Cap = %d, want %d", got, tt.want)
			}
		})
	}
}

func TestCutsAndSaves(t *testing.T) {
	root := t.TempDir()
	out := lines(5000)
	r, env := run(t, FromConfig(config.Builtin()), postTool(root, event.Search, out))
	if r.ReplaceOutput == nil {
		t.Fatalf("not cut; logs %v", env.logs)
	}
	got := *r.ReplaceOutput
	if len(got) > FromConfig(config.Builtin()).Search {
		t.Errorf("replacement is %d bytes, over the limit", len(got))
	}
	i := strings.Index(got, "\n\n[atreides:")
	if i < 0 || !strings.HasPrefix(out, got[:i+1]) || !strings.HasPrefix(got, "src/file000.go:0: match\n") {
		t.Fatalf("kept part is not the output's first whole lines:\n%s", got)
	}
	kept := strings.Count(got[:i+1], "\n")
	if !strings.Contains(got, fmt.Sprintf("the first %d lines are shown; %d of 5000 lines (%d of %d bytes) removed", kept, 5000-kept, len(out)-(i+1), len(out))) {
		t.Errorf("counts missing: %s", got[i:])
	}
	files, _ := filepath.Glob(filepath.Join(root, ".atreides", "outputs", "*.txt"))
	if len(files) != 1 || !strings.Contains(got, files[0]) {
		t.Fatalf("saved %v; message: %s", files, got[i:])
	}
	b, err := os.ReadFile(files[0])
	if err != nil || string(b) != out {
		t.Errorf("saved file does not hold the whole output (%d of %d bytes): %v", len(b), len(out), err)
	}
	if fi, _ := os.Stat(files[0]); fi.Mode().Perm() != 0o600 || !strings.HasPrefix(filepath.Base(files[0]), "20261124T023000Z-search-") {
		t.Errorf("saved file %s mode %v", files[0], fi.Mode())
	}
	if ig, _ := os.ReadFile(filepath.Join(root, ".atreides", "outputs", ".gitignore")); !strings.Contains(string(ig), "\n*\n") {
		t.Errorf("outputs/.gitignore: %q", ig)
	}
}

func TestLeftAlone(t *testing.T) {
	root := t.TempDir()
	big := lines(5000)
	tests := []struct {
		name string
		ev   func() *event.Event
	}{
		{"small output", func() *event.Event { return postTool(root, event.Shell, "ok\n") }},
		{"tool not cut", func() *event.Event { return postTool(root, event.Read, big) }},
		{"host cannot replace", func() *event.Event {
			ev := postTool(root, event.Shell, big)
			ev.ReplacesOutput = false
			return ev
		}},
		{"failed tool", func() *event.Event {
			ev := postTool(root, event.Shell, big)
			ev.Failed = true
			return ev
		}},
		{"not a tool event", func() *event.Event {
			ev := postTool(root, event.Shell, big)
			ev.Kind = event.PreTool
			return ev
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev := tt.ev()
			if ev.Kind != event.PostTool {
				if h := Handler(func() Options { return FromConfig(config.Builtin()) }); h.Kinds[0] != event.PostTool || len(h.Kinds) != 1 {
					t.Errorf("handler kinds %v", h.Kinds)
				}
				return
			}
			if r, _ := run(t, FromConfig(config.Builtin()), ev); !r.Empty() {
				t.Errorf("result %+v, want none", r)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(root, ".atreides")); err == nil {
		t.Error("something was saved")
	}
}

// Errors leave the output as it was and are logged, never returned.
func TestErrorsLeaveOutputWhole(t *testing.T) {
	root := t.TempDir()
	// .atreides/outputs is a file: nothing can be saved there.
	if err := os.MkdirAll(filepath.Join(root, ".atreides"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".atreides", "outputs"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r, env := run(t, FromConfig(config.Builtin()), postTool(root, event.Shell, lines(5000)))
	if !r.Empty() || len(env.logs) != 1 || !strings.Contains(env.logs[0], "left whole") {
		t.Errorf("result %+v, logs %v", r, env.logs)
	}
	ev := postTool(t.TempDir(), event.Shell, "start")
	ev.OutputFile = filepath.Join(root, "missing.txt")
	r, env = run(t, FromConfig(config.Builtin()), ev)
	if !r.Empty() || len(env.logs) != 1 {
		t.Errorf("missing host file: result %+v, logs %v", r, env.logs)
	}
}

// A host that saved the whole output itself sends only its start: the cut
// and the saved copy come from the host's file.
func TestHostSavedOutput(t *testing.T) {
	root := t.TempDir()
	out := lines(20000)
	hostFile := filepath.Join(t.TempDir(), "tool-result.txt")
	if err := os.WriteFile(hostFile, []byte(out), 0o600); err != nil {
		t.Fatal(err)
	}
	ev := postTool(root, event.Shell, out[:30000-7]) // cut mid-line, as Claude Code does
	ev.OutputFile = hostFile
	r, env := run(t, FromConfig(config.Builtin()), ev)
	if r.ReplaceOutput == nil {
		t.Fatalf("not cut: %v", env.logs)
	}
	if !strings.Contains(*r.ReplaceOutput, "of 20000 lines") {
		t.Errorf("counts are not the whole output's: %s", *r.ReplaceOutput)
	}
	files, _ := filepath.Glob(filepath.Join(root, ".atreides", "outputs", "*.txt"))
	if b, _ := os.ReadFile(files[0]); string(b) != out {
		t.Errorf("saved %d bytes, want the host file's %d", len(b), len(out))
	}
}

func TestRetention(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".atreides", "outputs")
	o := FromConfig(config.Builtin())
	o.Keep = Limits{Files: 3, Bytes: 1 << 20}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range 5 {
		ev := postTool(root, event.Shell, lines(2000))
		ev.Time = base.Add(time.Duration(i) * time.Minute)
		if r, env := run(t, o, ev); r.ReplaceOutput == nil {
			t.Fatalf("run %d: %v", i, env.logs)
		}
	}
	names := savedNames(t, dir)
	if len(names) != 3 || !strings.HasPrefix(names[0], "20260101T000200Z") || !strings.HasPrefix(names[2], "20260101T000400Z") {
		t.Errorf("kept %v, want the newest 3", names)
	}
	// By size: each output is ~56 KB; a 100 KB bound keeps the newest one
	// only, and never removes the file just written even when it alone is
	// over the bound.
	o.Keep = Limits{Files: 100, Bytes: 100 << 10}
	ev := postTool(root, event.Shell, lines(2000))
	ev.Time = base.Add(time.Hour)
	run(t, o, ev)
	if names := savedNames(t, dir); len(names) != 1 || !strings.HasPrefix(names[0], "20260101T010000Z") {
		t.Errorf("by size kept %v", names)
	}
	o.Keep = Limits{Files: 100, Bytes: 1}
	ev.Time = base.Add(2 * time.Hour)
	run(t, o, ev)
	if names := savedNames(t, dir); len(names) != 1 || !strings.HasPrefix(names[0], "20260101T020000Z") {
		t.Errorf("over the bound alone, kept %v", names)
	}
}

func savedNames(t *testing.T, dir string) []string {
	t.Helper()
	es, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		if strings.HasSuffix(e.Name(), ".txt") {
			names = append(names, e.Name())
		}
	}
	return names
}

// FuzzReplacement: whatever the output, a cut one starts with a prefix of
// the output's whole lines, and the saved file holds the whole output.
func FuzzReplacement(f *testing.F) {
	f.Add("a\nbb\nccc\n", 1100)
	f.Add(strings.Repeat("x", 3000), 1024)
	f.Add(lines(300), 2000)
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, out string, limit int) {
		o := Options{Shell: minCap + int(uint(limit)%(1<<14)), Keep: Limits{Files: 5, Bytes: 1 << 30}}
		text, err := replacement(postTool(root, event.Shell, out), o)
		if err != nil {
			t.Fatal(err)
		}
		if text == "" {
			if len(out) > o.Shell {
				t.Fatalf("%d bytes over the cap %d left whole", len(out), o.Shell)
			}
			return
		}
		i := strings.LastIndex(text, "[atreides: output cut")
		kept := strings.TrimSuffix(strings.TrimSuffix(text[:i], "\n"), "\n")
		if !strings.HasPrefix(out, kept) {
			t.Fatalf("kept part is not a prefix of the output")
		}
		path := text[strings.Index(text, "The output before this cut is in ")+len("The output before this cut is in "):]
		path = path[:strings.Index(path, ": read on")]
		b, err := os.ReadFile(path)
		if err != nil || string(b) != out {
			t.Fatalf("saved file %s does not hold the output: %v", path, err)
		}
	})
}

// TestSettled: a host file is read again while its size moves, and the
// wait is bounded when it never holds still.
func TestSettled(t *testing.T) {
	cases := []struct {
		name  string
		reads []string // successive contents
		sizes []int64  // successive sizes a step later
		want  string
		slept int
	}{
		{"still at once", []string{"abc"}, []int64{3}, "abc", 1},
		{"grew twice", []string{"a", "ab", "abc"}, []int64{2, 3, 3}, "abc", 3},
		{"never settles", []string{"x"}, nil, "x", int(settleLimit / settleStep)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r, s, slept := 0, 0, 0
			read := func() (string, error) {
				v := c.reads[min(r, len(c.reads)-1)]
				r++
				return v, nil
			}
			size := func() (int64, error) {
				s++
				if c.sizes == nil {
					return int64(1000 + s), nil // grows for ever
				}
				return c.sizes[min(s-1, len(c.sizes)-1)], nil
			}
			got, err := settled(read, size, func(time.Duration) { slept++ })
			if err != nil || got != c.want || slept != c.slept {
				t.Errorf("settled = %q, %v after %d steps; want %q after %d", got, err, slept, c.want, c.slept)
			}
		})
	}
}
