package hook

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/project"
)

// A tool call the watchdog blocks is in the audit trail with its rule, as
// every other block is: 'atreides log --verdict deny' misses none.
func TestWatchdogBlockIsAudited(t *testing.T) {
	dir := servedProject(t)
	exited := -1
	old := exitProcess
	exitProcess = func(code int) { exited = code }
	defer func() { exitProcess = old }()

	var out bytes.Buffer
	r := &hookRun{proc: &Process{Out: &out, Err: &bytes.Buffer{}}, adapter: claude.Adapter{}, overran: make(chan struct{})}
	ev := &event.Event{Kind: event.PreTool, Host: "claude", HostEvent: "PreToolUse", SessionID: "s1", ProjectDir: dir, Time: time.Now(),
		Tool: event.Tool{Raw: "Bash", Command: "sleep 1000"}}
	r.decoded(ev, project.NewLog(project.StateDir(dir)))
	r.overrun(time.Second)

	if !strings.Contains(out.String(), `"permissionDecision":"deny"`) || exited != 0 {
		t.Fatalf("answer %q, exit %d; want a JSON deny", out.String(), exited)
	}
	var lines []string
	if _, err := audit.New(project.StateDir(dir), nil).Read(audit.Filter{}, func(l []byte) error {
		lines = append(lines, string(l))
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if len(lines) != 1 || !strings.Contains(lines[0], `"rule":"atreides.deadline"`) || !strings.Contains(lines[0], `"session":"s1"`) {
		t.Errorf("audit trail %q, want the watchdog's deny of s1", lines)
	}
}
