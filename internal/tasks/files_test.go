package tasks

import (
	"bytes"
	"context"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/taskboard"
)

var update = flag.Bool("update", false, "rewrite the golden files of testdata")

var filesT0 = time.Date(2026, 3, 1, 9, 30, 0, 0, time.UTC)

// sampleBoard has a task in every status, dependencies open and closed,
// a parent, a claim, plans and reports, and errors.
func sampleBoard(t *testing.T) *taskboard.Tasks {
	t.Helper()
	b := &taskboard.Tasks{}
	at := func(h int) time.Time { return filesT0.Add(time.Duration(h) * time.Hour) }
	must := func(_ *taskboard.Task, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(Add(b, NewTask{Title: "Design the API", Priority: "high", Effort: "2 hours", Lang: "Go", Description: "Sketch the endpoints.\n\nKeep it small."}, at(0)))
	must(Add(b, NewTask{Title: "Add a health\nendpoint", Parent: 1, BlockedBy: []int{1}, Lang: "go"}, at(1)))
	must(Add(b, NewTask{Title: "Write docs", BlockedBy: []int{1, 2}, Priority: "low"}, at(2)))
	must(Add(b, NewTask{Title: "Old idea (drop it)"}, at(3)))
	must(Add(b, NewTask{Title: "Needs a key", Priority: "critical"}, at(4)))
	must(Add(b, NewTask{Title: "Research <caching> & more", Lang: "python"}, at(5)))
	must(SetStatus(b, 1, InProgress, "", at(6)))
	must(SetStatus(b, 1, Completed, "", at(7)))
	must(SetStatus(b, 4, Abandoned, "superseded by task 2", at(8)))
	must(SetStatus(b, 5, Blocked, "waiting for the API key", at(9)))
	must(Claim(b, 2, taskboard.TaskClaim{Session: "s-1", Agent: "oracle"}, false, at(10)))
	must(SetStatus(b, 2, InProgress, "", at(11)))
	must(SetStatus(b, 6, Researched, "", at(12)))
	must(SetStatus(b, 3, Planned, "", at(12)))
	b.Task(2).Plans = []string{".atreides/specs/2_health/plans/implementation-001.md", ".atreides/specs/2_health/plans/implementation-002.md"}
	b.Task(2).Approved, b.Task(2).Phase = 2, 1
	b.Task(2).Research = []string{".atreides/specs/2_health/reports/research-001.md"}
	b.Task(6).Research = []string{"docs/my notes (draft).md"}
	b.Task(3).Errors = []int{1}
	b.Errors = []taskboard.TaskError{
		{Number: 2, Type: "tool_failure", Severity: "medium", Cause: "tool_failure:go test", Message: "go test failed 3 times",
			Context: taskboard.TaskErrorContext{Command: "go test ./...", Task: 2, Agent: "oracle", Session: "s-1"},
			First:   at(3), Last: at(9), Count: 4},
		{Number: 1, Type: "delegation_hang", Severity: "high", Cause: "delegation_hang:librarian", Message: "librarian <hung>",
			First: at(1), Last: at(2), Count: 2, Fix: "fixed", FixRefs: []string{"task 3", "abc123"}, Fixed: at(4)},
	}
	b.NextError, b.Gen = 3, 17
	return b
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name+".golden")
	if *update {
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from %s (go test -run %s -update):\n%s", name, path, t.Name(), UnifiedDiff("want", "got", string(want), string(got), 60))
	}
}

func TestRenderGolden(t *testing.T) {
	b := sampleBoard(t)
	f := Render(b, ".atreides/specs")
	golden(t, "TODO.md", f.Todo)
	golden(t, "state.json", f.State)
	golden(t, "errors.json", f.Errors)
	// Byte-stable: the same board renders the same bytes, whatever the
	// order of its lists and the zone of its times.
	b2 := sampleBoard(t)
	b2.List[0], b2.List[5] = b2.List[5], b2.List[0]
	for i := range b2.List {
		b2.List[i].Created = b2.List[i].Created.In(time.FixedZone("X", 3600))
	}
	if f2 := Render(b2, ".atreides/specs"); !bytes.Equal(f.Todo, f2.Todo) || !bytes.Equal(f.State, f2.State) || !bytes.Equal(f.Errors, f2.Errors) {
		t.Error("the rendering depends on the list order or time zone")
	}
	for _, name := range fileNames {
		if g, ok := readGen(name, f.file(name)); !ok || g != 17 {
			t.Errorf("%s carries generation %d, %v; want 17", name, g, ok)
		}
	}
}

func TestRenderEmptyBoard(t *testing.T) {
	f := Render(&taskboard.Tasks{}, ".atreides/specs")
	if !strings.Contains(string(f.State), `"tasks": []`) || !strings.Contains(string(f.Errors), `"errors": []`) {
		t.Errorf("empty lists are not []:\n%s\n%s", f.State, f.Errors)
	}
}

// newRepo is a repo in a fresh project with a fixed clock.
func newRepo(t *testing.T) *Repo {
	t.Helper()
	r := Open(t.TempDir(), Options{})
	now := filesT0
	r.Now = func() time.Time { now = now.Add(time.Second); return now }
	return r
}

func add(t *testing.T, r *Repo, title string) {
	t.Helper()
	err := r.Update(context.Background(), func(b *taskboard.Tasks, now time.Time) error {
		_, err := Add(b, NewTask{Title: title}, now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

func storedBoard(t *testing.T, r *Repo) *taskboard.Tasks {
	t.Helper()
	var out taskboard.Tasks
	if err := r.View(context.Background(), func(b *taskboard.Tasks) error { out = *b; return nil }); err != nil {
		t.Fatal(err)
	}
	return &out
}

// assertInSync checks the three files are exactly what the board renders.
func assertInSync(t *testing.T, r *Repo) *taskboard.Tasks {
	t.Helper()
	b := storedBoard(t, r)
	for _, d := range r.Diff(b) {
		if d.Status != "same" {
			t.Errorf("%s: %s\n%s", d.Name, d.Status, d.Diff)
		}
	}
	if b.Files.Gen != b.Gen || b.Files.Err != "" {
		t.Errorf("files recorded at %d (%q), board at %d", b.Files.Gen, b.Files.Err, b.Gen)
	}
	return b
}

func specFiles(t *testing.T, r *Repo) []string {
	t.Helper()
	es, err := os.ReadDir(r.SpecsDir())
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range es {
		names = append(names, e.Name())
	}
	return names
}

func TestUpdateWritesTheFiles(t *testing.T) {
	r := newRepo(t)
	add(t, r, "one")
	add(t, r, "two")
	b := assertInSync(t, r)
	if b.Gen != 2 {
		t.Errorf("gen = %d", b.Gen)
	}
	if got := strings.Join(specFiles(t, r), " "); got != "TODO.md errors.json state.json" {
		t.Errorf("specs dir holds %s: leftovers", got)
	}
	if p := r.Check(b); len(p) != 0 {
		t.Errorf("Check = %v", p)
	}
}

func TestHandEditIsBackedUp(t *testing.T) {
	r := newRepo(t)
	add(t, r, "one")
	todo := filepath.Join(r.SpecsDir(), TodoFile)
	edited := []byte("# my own notes\n")
	if err := os.WriteFile(todo, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	b := storedBoard(t, r)
	if !hasKind(r.Check(b), HandEdited) {
		t.Errorf("Check does not report the hand edit: %v", r.Check(b))
	}
	d := r.Diff(b)[0]
	if d.Status != "differs" || !strings.Contains(d.Diff, "-# my own notes") || !strings.Contains(d.Diff, "+# TODO") {
		t.Errorf("diff = %+v", d)
	}
	// Two changes in the same second: two backups, neither overwritten.
	r.Now = func() time.Time { return filesT0.Add(time.Hour) }
	add(t, r, "two")
	if err := os.WriteFile(todo, []byte("second edit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	add(t, r, "three")
	assertInSync(t, r)
	backups, _ := filepath.Glob(filepath.Join(r.SpecsDir(), "backup", "TODO.*.md"))
	if len(backups) != 2 {
		t.Fatalf("backups = %v", backups)
	}
	first, _ := os.ReadFile(filepath.Join(r.SpecsDir(), "backup", "TODO.20260301T103000Z.md"))
	second, _ := os.ReadFile(filepath.Join(r.SpecsDir(), "backup", "TODO.20260301T103000Z-2.md"))
	if !bytes.Equal(first, edited) || string(second) != "second edit\n" {
		t.Errorf("backups hold %q and %q", first, second)
	}
	if p := r.Check(storedBoard(t, r)); len(p) != 1 || p[0].Kind != Backups {
		t.Errorf("Check = %v, want the backups only", p)
	}
}

func TestUserTodoNeverOverwritten(t *testing.T) {
	r := newRepo(t)
	if err := os.MkdirAll(r.SpecsDir(), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(r.SpecsDir(), TodoFile), []byte("mine\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	add(t, r, "one")
	assertInSync(t, r)
	if b, _ := filepath.Glob(filepath.Join(r.SpecsDir(), "backup", "*")); len(b) != 1 {
		t.Errorf("a TODO.md atreides never wrote was not kept: %v", b)
	}
}

func hasKind(ps []Problem, kind string) bool {
	for _, p := range ps {
		if p.Kind == kind {
			return true
		}
	}
	return false
}

func TestSymlinkedSpecsDirNotFollowed(t *testing.T) {
	r := newRepo(t)
	outside := t.TempDir()
	if err := os.MkdirAll(filepath.Join(r.Root, ".atreides"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, r.SpecsDir()); err != nil {
		t.Fatal(err)
	}
	add(t, r, "one") // the change itself stands
	b := storedBoard(t, r)
	if b.Gen != 1 || b.Files.Gen != 0 || !strings.Contains(b.Files.Err, "symbolic link") {
		t.Errorf("files = %+v", b.Files)
	}
	if es, _ := os.ReadDir(outside); len(es) != 0 {
		t.Errorf("wrote through the link: %v", es)
	}
	if p := r.Check(b); !hasKind(p, Stale) || !hasKind(p, Refused) {
		t.Errorf("Check = %v", p)
	}
}
