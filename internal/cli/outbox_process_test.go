package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/filelock"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/outbox"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/store/pgstore"
	"github.com/atreides-dev/atreides/internal/store/pgtest"
	"github.com/atreides-dev/atreides/internal/taskgit/gittest"
)

// outageRun is one Claude Code session's hook events, in order, with the
// index of the first event the database misses and of the first it sees
// again.
var outageRun = struct {
	events          []map[string]any
	down, backAt    int
	deniedWhileDown int // an event the guard must deny with the store down
}{
	events: []map[string]any{
		{"hook_event_name": "SessionStart", "source": "startup"},
		{"hook_event_name": "UserPromptSubmit", "prompt": "make the failing test pass"},
		bashCall("PreToolUse", "t1", "go test ./..."),
		bashCall("PostToolUseFailure", "t1", "go test ./..."),
		// The database is killed here.
		bashCall("PreToolUse", "t2", "go test ./..."),
		bashCall("PostToolUseFailure", "t2", "go test ./..."),
		bashCall("PreToolUse", "t3", "rm -rf /"),
		{"hook_event_name": "PostToolUse", "tool_name": "TodoWrite", "tool_use_id": "t4",
			"tool_input": map[string]any{"todos": []map[string]string{
				{"content": "fix the parser", "status": "in_progress", "activeForm": "fixing the parser"},
				{"content": "run the tests", "status": "pending", "activeForm": "running the tests"}}},
			"tool_response": map[string]any{}},
		{"hook_event_name": "UserPromptSubmit", "prompt": "and add a test for it"},
		bashCall("PreToolUse", "t5", "go test ./..."),
		bashCall("PostToolUseFailure", "t5", "go test ./..."),
		// The database is back here.
		bashCall("PreToolUse", "t6", "go test ./..."),
		bashCall("PostToolUse", "t6", "go test ./..."),
		{"hook_event_name": "Stop", "stop_hook_active": false},
	},
	down: 4, backAt: 11, deniedWhileDown: 6,
}

func bashCall(hookEvent, id, command string) map[string]any {
	ev := map[string]any{"hook_event_name": hookEvent, "tool_name": "Bash", "tool_use_id": id,
		"tool_input": map[string]string{"command": command, "description": "test"}}
	switch hookEvent {
	case "PostToolUse":
		ev["tool_response"] = map[string]any{"stdout": "ok", "stderr": "", "interrupted": false}
	case "PostToolUseFailure":
		ev["error"] = "Exit code 1\nFAIL parser_test.go:12"
	}
	return ev
}

// TestOutboxReplayEqualsNoOutage runs one session's events twice in one
// checkout of a team project, each time into a fresh database: once with
// the database up throughout, once with it killed in the middle of the
// run. While it is down the hooks keep answering (the guard still denies)
// and their events wait in .atreides/outbox; the first hook after it is
// back replays them before its own event. The state both runs leave in the
// database is the same, but for the times.
func TestOutboxReplayEqualsNoOutage(t *testing.T) {
	cluster := pgtest.New(t)
	dir := filepath.Join(t.TempDir(), "checkout")
	gittest.Write(t, dir, ".atreides/config.yaml", teamConfig)
	gittest.Init(t, dir)
	trustProject(t, dir)
	project := strings.TrimSpace(gittest.Git(t, dir, "rev-list", "--max-parents=0", "HEAD"))

	var dumps []string
	for _, outage := range []bool{false, true} {
		dsn := cluster.NewDatabase(t)
		env := []string{"ATREIDES_STORE_DSN=" + dsn}
		if _, stderr, code, _ := runMain(t, time.Minute, dir, nil, env, "store", "migrate"); code != 0 {
			t.Fatalf("store migrate: exit %d: %s", code, stderr)
		}
		for i, ev := range outageRun.events {
			if outage && i == outageRun.down {
				if err := cluster.Kill(); err != nil {
					t.Fatal(err)
				}
			}
			if outage && i == outageRun.backAt {
				if n, _ := outbox.Waiting(filepath.Join(dir, ".atreides")); n != outageRun.backAt-outageRun.down {
					t.Errorf("%d events wait in the outbox, want %d", n, outageRun.backAt-outageRun.down)
				}
				if err := cluster.Start(); err != nil {
					t.Fatal(err)
				}
			}
			out := hookEvent(t, dir, env, ev)
			if i == outageRun.deniedWhileDown && !strings.Contains(out, `"permissionDecision":"deny"`) {
				t.Errorf("rm -rf / answered %s, want the guard's deny", out)
			}
		}
		if n, err := outbox.Waiting(filepath.Join(dir, ".atreides")); n != 0 || err != nil {
			t.Errorf("outage %v: %d events still wait in the outbox (%v)", outage, n, err)
		}
		dumps = append(dumps, dumpState(t, dsn, project))
	}
	if dumps[0] != dumps[1] {
		t.Errorf("the state after the outage differs from the state without one:\nwithout: %s\n   with: %s", dumps[0], dumps[1])
	}
	if log := readLog(t, dir); !strings.Contains(log, "events replayed into the store") {
		t.Errorf("the project log does not say the outbox was replayed:\n%s", log)
	}
}

// hookEvent runs one Claude Code hook in dir and returns its answer.
func hookEvent(t *testing.T, dir string, env []string, ev map[string]any) string {
	t.Helper()
	payload := map[string]any{"session_id": "s1", "cwd": dir, "transcript_path": filepath.Join(dir, "t.jsonl")}
	for k, v := range ev {
		payload[k] = v
	}
	b, _ := json.Marshal(payload)
	cmd := hookCmd(bounded(t), dir, b)
	cmd.Env = append(cmd.Env, env...)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != 2 {
		t.Fatalf("hook %s: %v: %s", ev["hook_event_name"], err, stderr.String())
	}
	return strings.ReplaceAll(out.String(), " ", "")
}

// times matches the times a state records: they are the runs' own.
var times = regexp.MustCompile(`"\d{4}-\d\d-\d\dT[0-9:.]+(Z|[+-]\d\d:\d\d)"`)

// durations are a call's measured time from its pre event to its post,
// which differs from run to run as the times do.
var durations = regexp.MustCompile(`"ms":\d+`)

// dumpState is the session's and the project's state in the database as
// JSON, times blanked, and without the event ids the session remembers
// (each run's own, random), with the shared audit trail's decisions.
func dumpState(t *testing.T, dsn, project string) string {
	t.Helper()
	var s *state.Session
	var p *state.Project
	var trail []string
	st := store.OpenRemote(t.TempDir(), pgstore.Open(dsn, project))
	err := st.View(context.Background(), func(tx *store.Tx) (err error) {
		if s, err = state.FindSession(tx, "s1"); err != nil {
			return err
		}
		if p, err = state.LoadProject(tx); err != nil {
			return err
		}
		// The shared audit trail: the decisions as answered, which the
		// outage changes only in what they carried (marks, context).
		return tx.ForEach(audit.Bucket, func(_ string, v []byte) error {
			var r audit.Record
			if err := json.Unmarshal(v, &r); err != nil {
				return err
			}
			trail = append(trail, strings.Join([]string{r.HostEvent, r.Tool, r.Verdict, r.Rule}, " "))
			return nil
		})
	})
	if err != nil || s == nil {
		t.Fatalf("state in the database: %v, %v", s, err)
	}
	if len(*engine.AppliedKey.Of(s)) == 0 {
		t.Error("the session remembers no event ids")
	}
	*engine.AppliedKey.Of(s) = nil
	if len(trail) == 0 {
		t.Error("the shared audit trail is empty")
	}
	b, err := json.Marshal(struct {
		Session *state.Session
		Project *state.Project
		Trail   []string
	}{s, p, trail})
	if err != nil {
		t.Fatal(err)
	}
	return durations.ReplaceAllString(times.ReplaceAllString(string(b), `"T"`), `"ms":0`)
}

// TestOutboxSlowEmbeddedStore: with the embedded store's lock held by
// another process for longer than a hook's budget, the hook answers, its
// event waits in the outbox, and the next hook after the lock is free
// applies it before its own: both tool calls are counted once.
func TestOutboxSlowEmbeddedStore(t *testing.T) {
	dir := t.TempDir()
	mustMkdir(t, filepath.Join(dir, ".atreides"))
	f, err := os.OpenFile(filepath.Join(dir, ".atreides", "state.db.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := filelock.Lock(f, true); err != nil {
		t.Fatal(err)
	}
	hook := func(n int) string {
		cmd := hookCmd(bounded(t), dir, preToolPayload(dir, "s1", n, "git status"))
		cmd.Args = append(cmd.Args, "--timeout", "2")
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("hook %d: %v", n, err)
		}
		return string(out)
	}
	if out := hook(1); strings.Contains(out, "deny") {
		t.Errorf("a harmless call was denied while the store was busy: %s", out)
	}
	if n, _ := outbox.Waiting(filepath.Join(dir, ".atreides")); n != 1 {
		t.Fatalf("%d events wait in the outbox, want 1", n)
	}
	f.Close() // releases the lock
	hook(2)
	if n, _ := outbox.Waiting(filepath.Join(dir, ".atreides")); n != 0 {
		t.Errorf("%d events still wait in the outbox", n)
	}
	s := loadSession(t, dir, "s1")
	if h := *history.Key.Of(s); s.Counters.ToolCalls != 2 || len(h) != 2 || h[0].ID != "toolu_1" {
		t.Errorf("tool_calls = %d, history %+v: want both calls, in order", s.Counters.ToolCalls, h)
	}
}
