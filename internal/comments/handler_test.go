package comments

import (
	conf "github.com/atreides-dev/atreides/internal/config"
	"os"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

func run(t *testing.T, o Options, ev *event.Event) []event.Entry {
	t.Helper()
	h := Handler(func() Options { return o })
	c := &engine.Call{Event: ev, Memo: &engine.Memo{}}
	h.Prepare(c)
	r, err := h.Handle(c)
	if err != nil {
		t.Fatal(err)
	}
	if r.Verdict != event.None || r.Block {
		t.Fatalf("the comment check decided something: %+v", r)
	}
	return r.Context
}

func TestHandler(t *testing.T) {
	noisy, err := os.ReadFile("testdata/noisy/client.go")
	if err != nil {
		t.Fatal(err)
	}
	clean, err := os.ReadFile("testdata/real/go_instantiate.go")
	if err != nil {
		t.Fatal(err)
	}
	post := func(content string, failed bool) *event.Event {
		return &event.Event{Kind: event.PostTool, ProjectDir: "/p", Failed: failed, Tool: event.Tool{
			Name: event.Write, Added: []event.FileLines{host.Written("/p/pkg/client.go", content, "")},
		}}
	}
	es := run(t, FromConfig(conf.Builtin()), post(string(noisy), false))
	if len(es) != 1 {
		t.Fatalf("noisy write: %d entries", len(es))
	}
	e := es[0]
	for _, want := range []string{"pkg/client.go", "now uses", "// Now uses a decoder instead of ReadAll", "// Check for errors", "over 35%"} {
		if !strings.Contains(e.Text, want) {
			t.Errorf("note lacks %q:\n%s", want, e.Text)
		}
	}
	if strings.Contains(e.Text, "/p/pkg") || e.Priority != event.Normal || e.Source != "comments" || e.Once {
		t.Errorf("entry: %+v", e)
	}
	if n := strings.Count(e.Text, "\n  "); n > maxQuoted+1 {
		t.Errorf("%d lines quoted, cap %d", n, maxQuoted)
	}
	for name, ev := range map[string]*event.Event{
		"clean write":  post(string(clean), false),
		"failed write": post(string(noisy), true),
		"no lines":     {Kind: event.PostTool, Tool: event.Tool{Name: event.Write}},
	} {
		if es := run(t, FromConfig(conf.Builtin()), ev); len(es) != 0 {
			t.Errorf("%s: %+v", name, es)
		}
	}
	if es := run(t, Options{}, post(string(noisy), false)); len(es) != 0 {
		t.Errorf("disabled: %+v", es)
	}
	// A one-line edit is not judged by its ratio, but a memo counts.
	edit := func(new string) *event.Event {
		return &event.Event{Kind: event.PostTool, Tool: event.Tool{Name: event.Edit,
			Added: []event.FileLines{host.Replaced("a.go", "f()", new)}}}
	}
	if es := run(t, FromConfig(conf.Builtin()), edit("// call f\nf()")); len(es) != 0 {
		t.Errorf("one-line comment judged: %+v", es)
	}
	if es := run(t, FromConfig(conf.Builtin()), edit("// changed from g to f\nf()")); len(es) != 1 || !strings.Contains(es[0].Text, "changed from") {
		t.Errorf("memo in a one-line edit: %+v", es)
	}
}
