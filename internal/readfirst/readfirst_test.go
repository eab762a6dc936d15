package readfirst

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
)

type testEnv struct{ t testing.TB }

func (e testEnv) Logf(f string, a ...any) { e.t.Logf(f, a...) }
func (testEnv) Now() time.Time            { return time.Now() }

// stream replays events through the handler as the engine does (Prepare,
// then Handle on the one session state) and returns each result.
type stream struct {
	t    *testing.T
	h    engine.Handler
	st   *engine.State
	root string
}

func newStream(t *testing.T, mode Mode) *stream {
	root := t.TempDir()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	h := Handler(func() Options {
		return Options{Mode: mode}
	})
	return &stream{t: t, h: h, root: root, st: engine.NewState(&event.Event{SessionID: "s", Host: "gemini"})}
}

func (s *stream) file(name, body string) string {
	p := filepath.Join(s.root, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		s.t.Fatal(err)
	}
	return p
}

func (s *stream) send(ev event.Event) event.Result {
	if ev.Host == "" {
		ev.Host = "gemini"
	}
	ev.Facts = testHosts[ev.Host]
	ev.ProjectDir, ev.Cwd = s.root, s.root
	c := &engine.Call{Event: &ev, Env: testEnv{s.t}, Memo: &engine.Memo{}}
	if !slices.Contains(s.h.Kinds, ev.Kind) {
		return event.Result{}
	}
	s.h.Prepare(c)
	c.State = s.st
	r, err := s.h.Handle(c)
	if err != nil {
		s.t.Fatal(err)
	}
	return r
}

func pre(tool event.ToolName, paths ...string) event.Event {
	return event.Event{Kind: event.PreTool, Tool: event.Tool{Name: tool, Paths: paths}}
}

func post(tool event.ToolName, paths ...string) event.Event {
	return event.Event{Kind: event.PostTool, Tool: event.Tool{Name: tool, Paths: paths}}
}

func shell(cmd string) event.Event {
	return event.Event{Kind: event.PostTool, Tool: event.Tool{Name: event.Shell, Command: cmd}}
}

// said is what the result tells the agent: a deny's reason or the note.
func said(r event.Result) string {
	if r.Verdict == event.Deny {
		return "deny: " + r.Reason
	}
	return event.JoinEntries(r.Context)
}

func TestReadBeforeWrite(t *testing.T) {
	type step struct {
		ev   event.Event
		want string // a substring of what is said; "" for silence
	}
	cases := []struct {
		name  string
		mode  Mode
		setup func(s *stream)
		steps func(s *stream) []step
	}{
		{"an unread edit gets a note", Note, nil, func(s *stream) []step {
			return []step{{pre(event.Edit, "a.go"), "a.go was not read in this session"}}
		}},
		{"block mode denies it with the reason", Block, nil, func(s *stream) []step {
			return []step{{pre(event.Write, s.root+"/a.go"), "deny: atreides refused this change: a.go was not read"}}
		}},
		{"a read first, then silence", Block, nil, func(s *stream) []step {
			return []step{{post(event.Read, "a.go"), ""}, {pre(event.Edit, "a.go"), ""}}
		}},
		{"a new file needs no read", Block, nil, func(s *stream) []step {
			return []step{{pre(event.Write, "new.go"), ""}, {post(event.Write, "new.go"), ""}, {pre(event.Edit, "new.go"), ""}}
		}},
		{"the agent's own write counts as known", Block, nil, func(s *stream) []step {
			return []step{{post(event.Write, "a.go"), ""}, {pre(event.Edit, "a.go"), ""}}
		}},
		{"a failed read does not count", Block, nil, func(s *stream) []step {
			r := post(event.Read, "a.go")
			r.Failed = true
			return []step{{r, ""}, {pre(event.Edit, "a.go"), "deny"}}
		}},
		{"a shell read counts (cat, sed -n)", Block, nil, func(s *stream) []step {
			return []step{{shell("cat a.go && sed -n '1,20p' sub/b.go"), ""}, {pre(event.Edit, "a.go"), ""}, {pre(event.Edit, "sub/b.go"), ""}}
		}},
		{"a shell write does not count", Block, nil, func(s *stream) []step {
			return []step{{shell("gofmt -w a.go"), ""}, {pre(event.Edit, "a.go"), "deny"}}
		}},
		{"a change on disk since the read", Note, nil, func(s *stream) []step {
			return []step{{post(event.Read, "a.go"), ""}, {event.Event{Kind: event.Notification, Message: "touch"}, ""},
				{pre(event.Edit, "a.go"), "a.go changed on disk since it was last read"}}
		}},
		{"a subagent's read is not the lead's", Block, nil, func(s *stream) []step {
			r := post(event.Read, "a.go")
			r.AgentID = "sub1"
			e := pre(event.Edit, "a.go")
			e.AgentID = "sub1"
			return []step{{r, ""}, {e, ""}, {pre(event.Edit, "a.go"), "deny"}}
		}},
		{"a compaction forgets", Block, nil, func(s *stream) []step {
			return []step{{post(event.Read, "a.go"), ""}, {event.Event{Kind: event.SessionStart, Source: "compact"}, ""}, {pre(event.Edit, "a.go"), "deny"}}
		}},
		{"a resume does not forget", Block, nil, func(s *stream) []step {
			return []step{{post(event.Read, "a.go"), ""}, {event.Event{Kind: event.SessionStart, Source: "resume"}, ""}, {pre(event.Edit, "a.go"), ""}}
		}},
		{"a link names the same file", Block, func(s *stream) {
			if err := os.Symlink(filepath.Join(s.root, "sub"), filepath.Join(s.root, "alias")); err != nil {
				t.Fatal(err)
			}
		}, func(s *stream) []step {
			return []step{{post(event.Read, "alias/b.go"), ""}, {pre(event.Edit, s.root+"/sub/b.go"), ""}}
		}},
		{"a host that checks itself is skipped", Block, nil, func(s *stream) []step {
			e := pre(event.Edit, "a.go")
			e.Host = "claude"
			return []step{{e, ""}}
		}},
		{"off says nothing", Off, nil, func(s *stream) []step {
			return []step{{pre(event.Edit, "a.go"), ""}}
		}},
		{"two unread files in one patch", Note, nil, func(s *stream) []step {
			return []step{{pre(event.Edit, "a.go", "sub/b.go", "gone.go"), "a.go, sub/b.go were not read"}}
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := newStream(t, c.mode)
			a := s.file("a.go", "package a\n")
			s.file("sub/b.go", "package sub\n")
			if c.setup != nil {
				c.setup(s)
			}
			for i, st := range c.steps(s) {
				if st.ev.Kind == event.Notification {
					// Someone else changes the file.
					later := time.Now().Add(time.Hour)
					if err := os.Chtimes(a, later, later); err != nil {
						t.Fatal(err)
					}
					continue
				}
				got := said(s.send(st.ev))
				if st.want == "" && got != "" || st.want != "" && !strings.Contains(got, st.want) {
					t.Errorf("step %d (%s %s %v): said %q, want %q", i, st.ev.Kind, st.ev.Tool.Name, st.ev.Tool.Paths, got, st.want)
				}
			}
			if c.name == "a host that checks itself is skipped" && len(ReadsKey.Of(s.st.Session).Known) != 0 {
				t.Errorf("state kept for a host that checks itself: %+v", ReadsKey.Of(s.st.Session).Known)
			}
		})
	}
}

// BenchmarkPreToolEdit is the check's cost on an edit of a read file with
// a full set of known files.
func BenchmarkPreToolEdit(b *testing.B) {
	root := b.TempDir()
	p := filepath.Join(root, "a.go")
	if err := os.WriteFile(p, []byte("package a\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	h := Handler(func() Options { return Options{Mode: Block} })
	st := engine.NewState(&event.Event{SessionID: "s", Host: "gemini"})
	for i := range 511 {
		ReadsKey.Of(st.Session).Add("", filepath.Join(root, "f", strings.Repeat("x", i%40), "file.go"), time.Now())
	}
	ReadsKey.Of(st.Session).Add("", p, time.Time{})
	ev := event.Event{Kind: event.PreTool, Host: "gemini", Facts: testHosts["gemini"], ProjectDir: root, Cwd: root, Tool: event.Tool{Name: event.Edit, Paths: []string{"a.go"}}}
	b.ReportAllocs()
	for b.Loop() {
		c := &engine.Call{Event: &ev, Env: testEnv{b}, Memo: &engine.Memo{}}
		h.Prepare(c)
		c.State = st
		if r, _ := h.Handle(c); r.Verdict != event.None {
			b.Fatal(said(r))
		}
	}
}
