package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/doctor"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/view"
)

// damagedProject is a project with a good session "good" and a session
// record "bad" that does not decode, planted where package state keeps
// sessions.
func damagedProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
	good, err := state.Encode(state.NewSession("good", "claude", time.Now()))
	if err != nil {
		t.Fatal(err)
	}
	err = store.Open(project.StateDir(dir)).Update(context.Background(), func(tx *store.Tx) error {
		if err := tx.Put("sessions", "good", good); err != nil {
			return err
		}
		return tx.Put("sessions", "bad", []byte(`{"v":2,"id":"bad","counters":[`))
	})
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func runIn(t *testing.T, dir string, args ...string) (string, error) {
	t.Helper()
	var out, errb bytes.Buffer
	io := &command.IO{Process: hook.Process{Out: &out, Err: &errb, Getenv: os.Getenv, Getwd: func() (string, error) { return dir, nil }}}
	err := runArgs(io, args)
	return out.String() + errb.String(), err
}

// TestStatusListsAroundUnreadable: one bad record never hides the others.
func TestStatusListsAroundUnreadable(t *testing.T) {
	dir := damagedProject(t)
	out, err := runIn(t, dir, "status", "-v")
	if err != nil || !strings.Contains(out, "session good") || !strings.Contains(out, "unreadable session record bad") {
		t.Errorf("status: %v\n%s", err, out)
	}
	out, err = runIn(t, dir, "status", "--json")
	var doc view.Status
	if err != nil || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("status --json: %v\n%s", err, out)
	}
	if len(doc.Sessions) != 1 || doc.Sessions[0].ID != "good" || len(doc.Unreadable) != 1 || doc.Unreadable[0].ID != "bad" || doc.Unreadable[0].Kind != "session" {
		t.Errorf("status --json: %+v", doc)
	}
	if out, err := runIn(t, dir, "status", "--session", "bad"); err != nil || !strings.Contains(out, "unreadable session record bad") {
		t.Errorf("status --session bad: %v\n%s", err, out)
	}
}

// TestDoctorReportsQuarantine: the bad session's next event moves its
// record to the quarantine, says so once in the log, and doctor shows it.
func TestDoctorReportsQuarantine(t *testing.T) {
	dir := damagedProject(t)
	log := project.NewLog(project.StateDir(dir))
	claude, _ := all.ByName("claude")
	prompt, _ := json.Marshal(map[string]string{"session_id": "bad", "hook_event_name": "UserPromptSubmit", "prompt": "go on", "cwd": dir})
	for range 2 {
		var out, errb bytes.Buffer
		p := &hook.Process{In: bytes.NewReader(prompt), Out: &out, Err: &errb, Getenv: os.Getenv, Getwd: func() (string, error) { return dir, nil }}
		if exit := hook.Answer(p, claude.Adapter, "", time.Minute); exit != 0 || strings.Contains(out.String(), "block") {
			t.Fatalf("exit %d, answer %s%s", exit, out.Bytes(), errb.Bytes())
		}
	}
	b, err := os.ReadFile(log.Path())
	if err != nil || strings.Count(string(b), "session bad: its state record could not be decoded") != 1 {
		t.Errorf("log: %v\n%s", err, b)
	}
	// Doctor exits 3 for the hosts it finds no installation of; the
	// state store's lines are the ones asserted.
	report, _ := runIn(t, dir, "doctor", "--json")
	var rep doctor.Report
	if err := json.Unmarshal([]byte(report), &rep); err != nil {
		t.Fatalf("doctor --json: %v\n%s", err, report)
	}
	var checks []doctor.Check
	for _, c := range rep.Checks {
		if strings.HasPrefix(c.Name, "state ") {
			checks = append(checks, c)
		}
	}
	if len(checks) != 2 || checks[0].Status != "ok" || !strings.Contains(checks[0].Detail, "2 session(s)") ||
		checks[1].Name != "state quarantine" || !strings.Contains(checks[1].Detail, "session bad at") {
		t.Errorf("doctor state checks: %+v", checks)
	}
	if out, _ := runIn(t, dir, "doctor"); !strings.Contains(out, "state quarantine") {
		t.Errorf("doctor:\n%s", out)
	}
	out, err := runIn(t, dir, "status", "-v")
	if err != nil || strings.Contains(out, "unreadable") || !strings.Contains(out, "session bad") {
		t.Errorf("status after the repair: %v\n%s", err, out)
	}
}

// TestStatusNewerProject: a project record a newer atreides wrote is not
// damage: status shows the sessions and says it is left alone.
func TestStatusNewerProject(t *testing.T) {
	dir := damagedProject(t)
	err := store.Open(project.StateDir(dir)).Update(context.Background(), func(tx *store.Tx) error {
		return tx.Put("project", "project", []byte(`{"v":99,"todos":{}}`))
	})
	if err != nil {
		t.Fatal(err)
	}
	out, err := runIn(t, dir, "status", "--json")
	var doc view.Status
	if err != nil || json.Unmarshal([]byte(out), &doc) != nil {
		t.Fatalf("status --json: %v\n%s", err, out)
	}
	if len(doc.Sessions) != 1 || len(doc.Unreadable) != 2 || doc.Unreadable[1].Kind != "project" || !doc.Unreadable[1].Newer || doc.Unreadable[0].Newer {
		t.Errorf("status --json: %+v", doc)
	}
	if out, _ := runIn(t, dir, "status"); !strings.Contains(out, "unreadable project record project:") || !strings.Contains(out, "left as it is") {
		t.Errorf("status:\n%s", out)
	}
}
