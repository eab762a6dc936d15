package session

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/todos"
)

// memLoader keeps the state between events in memory, encoded and decoded
// like the store does, with the groups the handlers declare: a field that
// does not survive the encoding, or a handler that changes a group it did
// not declare, fails here.
type memLoader struct {
	sessions map[string][]byte
	project  []byte
}

func (l *memLoader) Update(_ context.Context, ev *event.Event, groups state.Groups, fn func(*engine.State) error) error {
	ld, err := state.LoadBytes(l.sessions[ev.SessionID], l.project, ev.SessionID, ev.Host, ev.Time, groups)
	if err != nil {
		return err
	}
	if err := fn(&engine.State{Session: ld.Session, Project: ld.Project}); err != nil {
		return err
	}
	sess, proj, err := ld.Encode()
	if err != nil {
		return err
	}
	if l.sessions == nil {
		l.sessions = map[string][]byte{}
	}
	if sess != nil {
		l.sessions[ev.SessionID] = sess
	}
	if proj != nil {
		l.project = proj
	}
	return nil
}

// project decodes the stored project.
func (l *memLoader) state(t testing.TB, session string) (*state.Session, *state.Project) {
	t.Helper()
	p, err := state.DecodeProject(l.project)
	if err != nil {
		t.Fatal(err)
	}
	s, err := state.DecodeSession(l.sessions[session])
	if err != nil {
		t.Fatal(err)
	}
	return s, p
}

type testEnv struct{ t testing.TB }

func (e testEnv) Logf(format string, args ...any) { e.t.Logf("engine: "+format, args...) }
func (e testEnv) Now() time.Time                  { return time.Time{} }

// want is what a stream line expects of the decision, written inside the
// Claude Code payload under "_want" (the decoder ignores unknown keys).
type want struct {
	Block     *bool    `json:"block"`
	Reason    []string `json:"reason"` // substrings of the block reason
	NotReason []string `json:"not_in_reason"`
	Context   []string `json:"context"`    // substrings of the joined context
	NoContext bool     `json:"no_context"` // no context at all
	NotInCtx  []string `json:"not_in_context"`
	Warning   string   `json:"warning"`
	Encoded   []string `json:"encoded"` // substrings of Claude Code's JSON answer
}

// line is one line of a stream: a Claude Code payload with expectations,
// or a directive that changes the project between events.
type line struct {
	HookEvent string                          `json:"hook_event_name"`
	After     string                          `json:"_after"` // time since the previous line, default 1s
	Want      *want                           `json:"_want"`
	TodoAdd   string                          `json:"_todo_add"`
	Session   string                          `json:"_session"` // the session a _todo_add is on; "": a person's
	TodoDone  int                             `json:"_todo_done"`
	TodoStart int                             `json:"_todo_start"`
	Anchor    *anchors.Anchor                 `json:"_anchor"` // Created is relative: use _age
	Age       string                          `json:"_age"`
	Write     *struct{ Path, Content string } `json:"_write"`
}

// streamRun replays a recorded stream through the engine with the session
// handlers, checking every line's expectations.
type streamRun struct {
	t      *testing.T
	loader *memLoader
	eng    *engine.Engine
	now    time.Time
	dir    string
	last   *event.Decision
}

var t0 = time.Date(2026, 5, 1, 10, 0, 0, 0, time.UTC)

func newRun(t *testing.T, opts Options) *streamRun {
	r := &streamRun{t: t, loader: &memLoader{}, now: t0, dir: t.TempDir()}
	hs := Handlers(func() Options { return opts }, engine.AnyKind)
	for i := range hs {
		if hs[i].Name == "stop-gate" {
			hs[i] = StopGateWith(func() Options { return opts }, func(string) bool { return false })
		}
	}
	r.eng = engine.New(r.loader, testEnv{t}, hs...)
	return r
}

func (r *streamRun) file(name string) {
	f, err := os.Open(filepath.Join("testdata", name))
	if err != nil {
		r.t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		n++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 || b[0] == '#' {
			continue
		}
		r.line(name, n, b)
	}
	if err := sc.Err(); err != nil {
		r.t.Fatal(err)
	}
}

func (r *streamRun) line(name string, n int, b []byte) {
	t := r.t
	b = bytes.ReplaceAll(b, []byte("$DIR"), []byte(r.dir))
	var l line
	if err := json.Unmarshal(b, &l); err != nil {
		t.Fatalf("%s:%d: %v", name, n, err)
	}
	step := time.Second
	if l.After != "" {
		d, err := time.ParseDuration(l.After)
		if err != nil {
			t.Fatalf("%s:%d: _after: %v", name, n, err)
		}
		step = d
	}
	r.now = r.now.Add(step)
	if l.HookEvent == "" {
		r.directive(name, n, &l)
		return
	}
	ev, err := claude.Decode(b, r.dir, r.now)
	if err != nil {
		t.Fatalf("%s:%d: decode: %v", name, n, err)
	}
	d := r.eng.Run(context.Background(), ev)
	r.last = d
	if l.Want == nil {
		return
	}
	check(t, name, n, ev, d, l.Want)
}

func check(t *testing.T, name string, n int, ev *event.Event, d *event.Decision, w *want) {
	t.Helper()
	ctx := d.ContextText()
	where := func() string { return name + ":" + itoa(n) + " (" + ev.HostEvent + ")" }
	if w.Block != nil && d.Block != *w.Block {
		t.Errorf("%s: block = %v, want %v (reason %q)", where(), d.Block, *w.Block, d.BlockReason)
	}
	for _, s := range w.Reason {
		if !strings.Contains(d.BlockReason, s) {
			t.Errorf("%s: block reason lacks %q:\n%s", where(), s, d.BlockReason)
		}
	}
	for _, s := range w.NotReason {
		if strings.Contains(d.BlockReason, s) {
			t.Errorf("%s: block reason has %q:\n%s", where(), s, d.BlockReason)
		}
	}
	if w.NoContext && ctx != "" {
		t.Errorf("%s: want no context, got:\n%s", where(), ctx)
	}
	for _, s := range w.Context {
		if !strings.Contains(ctx, s) {
			t.Errorf("%s: context lacks %q:\n%s", where(), s, ctx)
		}
	}
	for _, s := range w.NotInCtx {
		if strings.Contains(ctx, s) {
			t.Errorf("%s: context has %q:\n%s", where(), s, ctx)
		}
	}
	if w.Warning != "" && !strings.Contains(strings.Join(d.Warnings, "\n"), w.Warning) {
		t.Errorf("%s: warnings %q lack %q", where(), d.Warnings, w.Warning)
	}
	if len(w.Encoded) > 0 {
		out := string(claude.Encode(ev, d).Stdout)
		for _, s := range w.Encoded {
			if !strings.Contains(out, s) {
				t.Errorf("%s: Claude Code answer lacks %q:\n%s", where(), s, out)
			}
		}
	}
}

func (r *streamRun) directive(name string, n int, l *line) {
	p, err := state.DecodeProject(r.loader.project)
	if err != nil {
		r.t.Fatal(err)
	}
	switch {
	case l.TodoAdd != "":
		_, err = todos.Add(p, todos.New{Title: l.TodoAdd, Level: "task", Session: l.Session}, r.now)
	case l.TodoDone != 0:
		err = todos.Key.Of(p).SetStatus(l.TodoDone, todos.Done, r.now)
	case l.TodoStart != 0:
		err = todos.Key.Of(p).SetStatus(l.TodoStart, todos.InProgress, r.now)
	case l.Anchor != nil:
		created := r.now
		if l.Age != "" {
			d, perr := time.ParseDuration(l.Age)
			if perr != nil {
				r.t.Fatalf("%s:%d: _age: %v", name, n, perr)
			}
			created = r.now.Add(-d)
		}
		_, err = anchors.Add(p, l.Anchor.Kind, l.Anchor.Priority, l.Anchor.Text, "", created)
	case l.Write != nil:
		err = os.WriteFile(filepath.Join(r.dir, l.Write.Path), []byte(l.Write.Content), 0o644)
	default:
		r.t.Fatalf("%s:%d: a line with neither hook_event_name nor a known directive", name, n)
	}
	if err != nil {
		r.t.Fatalf("%s:%d: %v", name, n, err)
	}
	if r.loader.project, err = state.Encode(p); err != nil {
		r.t.Fatal(err)
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestStreams replays every recorded stream in testdata.
func TestStreams(t *testing.T) {
	files, err := filepath.Glob("testdata/*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no streams: %v", err)
	}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(strings.TrimSuffix(name, ".jsonl"), func(t *testing.T) {
			newRun(t, testOptions()).file(name)
		})
	}
}
