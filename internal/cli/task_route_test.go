package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/trace"
)

// task route N infers the language from the files the claiming session
// wrote since the task started, leaving out the task's own plan files.
func TestTaskRouteByWrittenFiles(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	r := tasks.Open(root, tasks.Options{})
	start := time.Now().UTC()
	err := r.Update(context.Background(), func(b *taskboard.Tasks, now time.Time) error {
		if _, err := tasks.Add(b, tasks.NewTask{Title: "Speed up the importer"}, now); err != nil {
			return err
		}
		if _, err := tasks.Claim(b, 1, taskboard.TaskClaim{Session: "s1"}, false, now); err != nil {
			return err
		}
		_, err := tasks.SetStatus(b, 1, tasks.InProgress, "", now)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	w := &trace.Writer{Path: filepath.Join(project.StateDir(root), trace.FileName)}
	for _, f := range []struct{ session, path string }{
		{"s1", ".atreides/specs/1_importer/plans/implementation-001.md"},
		{"s1", ".atreides/specs/1_importer/plans/implementation-002.md"},
		{"s2", "other.go"}, {"s1", "importer/a.py"}, {"s1", "importer/b.py"},
	} {
		if _, err := w.Append(&trace.Record{Timestamp: start.Add(time.Second).Format(time.RFC3339Nano),
			Files:    []trace.File{{Path: f.path, Conversations: []trace.Conversation{{Ranges: []trace.Range{}}}}},
			Metadata: trace.Metadata{Atreides: &trace.Meta{Session: f.session, Change: trace.Create}}}); err != nil {
			t.Fatal(err)
		}
	}
	out, err := runIn(t, root, "task", "route", "1", "--json")
	// The document as a script reads it ('task route --json').
	var doc struct {
		Task int `json:"task"`
		tasks.Routing
		Files []string `json:"files"`
	}
	if err != nil || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.Task != 1 || doc.Language != "python" || doc.Research != "explore" || doc.Implement != "build" ||
		!slices.Equal(doc.Files, []string{"importer/a.py", "importer/b.py"}) {
		t.Fatalf("%+v", doc)
	}
}
