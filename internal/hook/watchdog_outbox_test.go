package hook

import (
	"bytes"
	"context"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/outbox"
	"github.com/atreides-dev/atreides/internal/project"
)

// An event the watchdog answers before its state was saved or queued (a
// team store too slow on a loaded machine) waits in the outbox under its
// id, with the answer the host got, for the next hook to replay; an event
// whose state was settled is not queued again.
func TestWatchdogQueuesUnsavedState(t *testing.T) {
	for _, tc := range []struct {
		name    string
		settled bool
		want    int // entries in the outbox
	}{
		{"unsaved", false, 1},
		{"settled", true, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := servedProject(t)
			old := exitProcess
			exitProcess = func(int) {}
			defer func() { exitProcess = old }()

			r := &hookRun{proc: &Process{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}}, adapter: claude.Adapter{}, overran: make(chan struct{})}
			ev := &event.Event{Kind: event.PreTool, Host: "claude", HostEvent: "PreToolUse", SessionID: "s1", ProjectDir: dir, Time: time.Now(),
				Tool: event.Tool{Raw: "Bash", Command: "git status"}}
			r.decoded(ev, project.NewLog(project.StateDir(dir)))
			r.stateDue(dir, "e1")
			if tc.settled {
				r.stateSettled()
			}
			r.overrun(time.Second)

			var got []*outbox.Entry
			if _, err := outbox.Replay(context.Background(), project.StateDir(dir), func(e *outbox.Entry) error {
				got = append(got, e)
				return nil
			}, t.Logf); err != nil {
				t.Fatal(err)
			}
			if len(got) != tc.want {
				t.Fatalf("%d entries in the outbox, want %d", len(got), tc.want)
			}
			if tc.want == 0 {
				return
			}
			e := got[0]
			if e.ID != "e1" || e.Event.SessionID != "s1" || e.Answered.Verdict != event.Deny || e.Answered.Rule != "atreides.deadline" {
				t.Errorf("entry %s of %s answered %v %s; want e1 of s1, the watchdog's deny", e.ID, e.Event.SessionID, e.Answered.Verdict, e.Answered.Rule)
			}
		})
	}
}
