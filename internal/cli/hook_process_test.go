package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/store/pgtest"
)

// TestMain lets the test binary act as the atreides binary, so process
// tests start real hook processes without a separate build.
func TestMain(m *testing.M) {
	if os.Getenv("ATREIDES_TEST_AS_MAIN") == "1" {
		os.Exit(Main(append([]string{"atreides"}, os.Args[1:]...), os.Stdin, os.Stdout, os.Stderr))
	}
	pgtest.Main(m) // the team store's tests share one throwaway cluster

}

// processBound is how long an atreides process of these tests may run
// when the test sets no tighter bound: ample for a loaded -race run.
const processBound = 2 * time.Minute

// bounded is a context that ends processBound from now: a process
// started under it that hangs is killed, saying so, and whatever waits on
// it ends, so the test fails instead of hanging the suite.
func bounded(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), processBound)
	t.Cleanup(cancel)
	return ctx
}

// hookCmd is one `atreides hook claude` process in project dir.
func hookCmd(ctx context.Context, dir string, payload []byte) *exec.Cmd {
	return mainCmd(ctx, dir, payload, "hook", "claude")
}

// mainCmd is one atreides process (the test binary, see TestMain) in dir
// with args and stdin, with dir as its project and a home beside it (the
// home directory itself is never a project).
func mainCmd(ctx context.Context, dir string, stdin []byte, args ...string) *exec.Cmd {
	cmd := exec.CommandContext(ctx, os.Args[0], args...)
	cmd.Cancel = func() error {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			fmt.Fprintf(os.Stderr, "atreides %s: still running at its deadline, killed\n", strings.Join(args, " "))
		}
		return cmd.Process.Kill()
	}
	cmd.Dir = dir
	home := filepath.Join(filepath.Dir(dir), "home-"+filepath.Base(dir))
	_ = os.MkdirAll(home, 0o755) // a failure shows as the test's own
	cmd.Env = append(os.Environ(), "ATREIDES_TEST_AS_MAIN=1", "CLAUDE_PROJECT_DIR="+dir, "HOME="+home)
	cmd.Stdin = bytes.NewReader(stdin)
	return cmd
}

// trustProject has the user of dir's machine trust its project config
// (a team's store setting is ignored until then).
func trustProject(t *testing.T, dir string) {
	t.Helper()
	if _, stderr, code, _ := runMain(t, time.Minute, dir, nil, nil, "trust", "--yes"); code != 0 {
		t.Fatalf("trust: exit %d: %s", code, stderr)
	}
}

// runMain runs one atreides process in dir with args, stdin and extra
// environment, and returns what it wrote, its exit code and how long it
// took. It fails the test if the process has not ended within timeout.
func runMain(t *testing.T, timeout time.Duration, dir string, stdin []byte, env []string, args ...string) (stdout, stderr []byte, code int, took time.Duration) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	cmd := mainCmd(ctx, dir, stdin, args...)
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	start := time.Now()
	err := cmd.Run()
	took = time.Since(start)
	if ctx.Err() != nil {
		t.Fatalf("atreides %s did not end in %v", strings.Join(args, " "), timeout)
	}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return out.Bytes(), errOut.Bytes(), cmd.ProcessState.ExitCode(), took
}

func preToolPayload(dir, session string, n int, command string) []byte {
	b, _ := json.Marshal(map[string]any{
		"session_id": session, "transcript_path": filepath.Join(dir, "t.jsonl"), "cwd": dir,
		"hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input":  map[string]string{"command": command, "description": "test"},
		"tool_use_id": fmt.Sprintf("toolu_%d", n),
	})
	return b
}

func loadSession(t *testing.T, dir, id string) *state.Session {
	t.Helper()
	var s *state.Session
	err := store.Open(filepath.Join(dir, ".atreides")).View(context.Background(), func(tx *store.Tx) error {
		var err error
		if s, err = state.FindSession(tx, id); err == nil && s == nil {
			err = fmt.Errorf("no session %s", id)
		}
		return err
	})
	if err != nil {
		t.Fatalf("load session: %v", err)
	}
	return s
}

// TestConcurrentHooksLoseNothing starts 20 hook processes on one session at
// once, as Claude Code does with parallel tool calls: every one of them must
// be counted, and each must still answer (half are denials).
func TestConcurrentHooksLoseNothing(t *testing.T) {
	dir := t.TempDir()
	const n = 20
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		cmdline := "git status --short"
		if i%2 == 1 {
			cmdline = "git reset --hard HEAD~3"
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var out bytes.Buffer
			cmd := hookCmd(bounded(t), dir, preToolPayload(dir, "parallel", i, cmdline))
			cmd.Stdout = &out
			if err := cmd.Run(); err != nil {
				errs <- fmt.Errorf("hook %d: %v", i, err)
				return
			}
			if denied := strings.Contains(out.String(), `"deny"`); denied != (i%2 == 1) {
				errs <- fmt.Errorf("hook %d (%s): answer %q", i, cmdline, out.String())
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	s := loadSession(t, dir, "parallel")
	if h := *history.Key.Of(s); s.Counters.ToolCalls != n || len(h) != n {
		t.Fatalf("tool_calls = %d, history = %d; want %d (updates lost)", s.Counters.ToolCalls, len(h), n)
	}
	if s.Counters.Denied != n/2 {
		t.Errorf("denied = %d, want %d", s.Counters.Denied, n/2)
	}
}

// TestKilledHooksLeaveLoadableState SIGKILLs hook processes at random
// instants, many of them in the middle of writing the state: after every
// kill the state must still load, and the counters must match the history
// (each event's update is all or nothing).
func TestKilledHooksLeaveLoadableState(t *testing.T) {
	dir := t.TempDir()
	deadline := time.Now().Add(8 * time.Second)
	rng := rand.New(rand.NewPCG(1, 2))
	kills, completed := 0, 0
	for i := 0; i < 150 && time.Now().Before(deadline); i++ {
		cmd := hookCmd(bounded(t), dir, preToolPayload(dir, "killed", i, "ls -la"))
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rng.IntN(6000)) * time.Microsecond)
		_ = cmd.Process.Signal(syscall.SIGKILL)
		if err := cmd.Wait(); err == nil {
			completed++
		} else if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			kills++
		}
		var recovered string
		st := store.Open(filepath.Join(dir, ".atreides"))
		st.OnRecover = func(msg string) { recovered = msg }
		err := st.View(context.Background(), func(tx *store.Tx) error {
			s, err := state.FindSession(tx, "killed")
			if s == nil || err != nil {
				return err
			}
			if h := *history.Key.Of(s); s.Counters.ToolCalls != len(h) && len(h) < history.Max {
				return fmt.Errorf("counter %d but %d history entries: a torn update", s.Counters.ToolCalls, len(h))
			}
			return nil
		})
		if err != nil || recovered != "" {
			t.Fatalf("after kill %d: err %v, recovery %q", i, err, recovered)
		}
	}
	t.Logf("%d hooks killed, %d completed before the kill came", kills, completed)
	if kills < 20 {
		t.Fatalf("only %d kills in the time budget; the test proved little", kills)
	}
}

// servedProject is a project directory: a repository's root.
func servedProject(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
