//go:build unix

package tasks

import (
	"bufio"
	"context"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestKillDuringWrites SIGKILLs a process that changes the board back to
// back at random instants. After each kill, Recover (what any atreides
// command runs first) must leave the three files of one generation, the
// one the store holds, byte for byte what it generates, with no leftover.
func TestKillDuringWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("kills ~100 processes")
	}
	const maxKills, budget = 100, 12 * time.Second
	root := t.TempDir()
	r := Open(root, Options{})
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), 16))
	start := time.Now()
	kills, prev := 0, 0
	for kills < maxKills && time.Since(start) < budget {
		killLoop(t, root, time.Duration(rng.Int64N(int64(20*time.Millisecond))))
		kills++
		if err := r.Recover(context.Background()); err != nil {
			t.Fatalf("after kill %d: Recover: %v", kills, err)
		}
		b := assertInSync(t, r)
		if t.Failed() {
			t.Fatalf("after kill %d (board at %d): files not in sync", kills, b.Gen)
		}
		for _, n := range specFiles(t, r) {
			if isTemp(n) || n == journalFile {
				t.Fatalf("after kill %d: %s left", kills, n)
			}
		}
		if b.Gen <= prev {
			t.Fatalf("after kill %d: generation %d did not pass %d", kills, b.Gen, prev)
		}
		prev = b.Gen
	}
	if kills < 10 {
		t.Fatalf("only %d kills in %v", kills, budget)
	}
	if bk, _ := filepath.Glob(filepath.Join(r.SpecsDir(), backupDir, "*")); len(bk) != 0 {
		t.Errorf("atreides' own TODO.md was taken for a hand edit: %v", bk)
	}
	t.Logf("%d kills, %d changes committed", kills, prev)
}

func killLoop(t *testing.T, root string, after time.Duration) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run", "^$")
	cmd.Env = append(os.Environ(), helperEnv+"=loop", helperDirEnv+"="+root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "ready\n" {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf("helper did not start: %q, %v", line, err)
	}
	time.Sleep(after)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
		t.Fatalf("helper ended without being killed")
	}
}
