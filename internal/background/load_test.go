package background

import (
	"context"
	"fmt"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/config/configtest"
	"github.com/atreides-dev/atreides/internal/event"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
)

// TestMain lets the test binary be the supervisor: Launch starts it again
// with the task id when superviseEnv is set.
func TestMain(m *testing.M) {
	if os.Getenv(superviseEnv) == "1" {
		root, _ := os.Getwd()
		id := os.Args[len(os.Args)-1]
		o := LoadOptions(root)
		o.Exe = testExe()
		if err := Open(root, o).Supervise(context.Background(), id); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const superviseEnv = "ATREIDES_TEST_SUPERVISE"

// testHeadless is a host whose CLI takes no flags for modes, as the
// host registry would give it.
var testHeadless = map[string]*event.Headless{"claude": {}}

func testExe() []string {
	exe, _ := os.Executable()
	return []string{"env", superviseEnv + "=1", exe, "-test.run=^$", "--"}
}

// The runner: records its start and end (ns) and answers like claude -p.
const script = `d=.atreides/background/$ATREIDES_BG_TASK; echo "start $(date +%s%N)" >> $d/times; sleep 0.3; echo "end $(date +%s%N)" >> $d/times; printf '{"type":"result","result":"answer of %s","session_id":"s-%s"}' $ATREIDES_BG_TASK $ATREIDES_BG_TASK`

func loadProject(t *testing.T, root string, limit int) {
	t.Helper()
	cfg := fmt.Sprintf("background:\n  concurrency:\n    default: %d\n  commands:\n    claude: [sh, -c, %q]\n", limit, script)
	if err := os.MkdirAll(filepath.Join(root, ".atreides"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".atreides", "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLoadTwentyTasksFourKeys(t *testing.T) {
	configtest.Home(t)
	root := t.TempDir()
	loadProject(t, root, 2)
	configtest.Trust(t, root) // the background command runs a program
	o := LoadOptions(root)
	o.Exe = testExe()
	o.Headless = testHeadless
	r := Open(root, o)
	agents := []string{"explore", "librarian", "build", "plan"}
	parents := []string{"p1", "p2", "p3", "p4", "p5"}
	ctx := context.Background()
	for i := range 20 {
		err := r.Update(ctx, func(p *state.Project, now time.Time) error {
			_, err := r.Add(p, Request{Parent: parents[i%5], Host: "claude", Agent: agents[i%4], Prompt: "task " + strconv.Itoa(i)}, now)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var b bgtasks.Background
	deadline := time.Now().Add(60 * time.Second)
	for {
		if err := r.View(ctx, func(p *state.Project) error { b = *bgtasks.Key.Of(p); return nil }); err != nil {
			t.Fatal(err)
		}
		pending := 0
		for i := range b.Tasks {
			if Pending(&b.Tasks[i]) {
				pending++
			}
		}
		if pending == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d tasks still pending: %+v", pending, b.Tasks)
		}
		time.Sleep(100 * time.Millisecond)
	}
	type span struct{ start, end int64 }
	byKey := map[string][]span{}
	for i := range b.Tasks {
		tk := &b.Tasks[i]
		if tk.Status != Completed || tk.Result != "answer of "+tk.ID || tk.Child != "s-"+tk.ID {
			t.Fatalf("task %s: %s %q %q %s", tk.ID, tk.Status, tk.Result, tk.Error, tk.Child)
		}
		data, err := os.ReadFile(filepath.Join(Dir(root, tk.ID), "times"))
		if err != nil {
			t.Fatal(err)
		}
		var s span
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			f := strings.Fields(line)
			n, _ := strconv.ParseInt(f[1], 10, 64)
			if f[0] == "start" {
				s.start = n
			} else {
				s.end = n
			}
		}
		byKey[tk.Key] = append(byKey[tk.Key], s)
	}
	if len(b.Tasks) != 20 {
		t.Fatalf("%d tasks, want 20", len(b.Tasks))
	}
	for key, spans := range byKey {
		// The most running at once: sweep over starts and ends.
		type ev struct {
			at int64
			d  int
		}
		var evs []ev
		for _, s := range spans {
			evs = append(evs, ev{s.start, 1}, ev{s.end, -1})
		}
		sort.Slice(evs, func(i, j int) bool { return evs[i].at < evs[j].at || evs[i].at == evs[j].at && evs[i].d < evs[j].d })
		most, n := 0, 0
		for _, e := range evs {
			n += e.d
			most = max(most, n)
		}
		if most > 2 {
			t.Errorf("key %s: %d ran at once, limit 2", key, most)
		}
		if len(spans) != 5 {
			t.Errorf("key %s: %d tasks ran, want 5", key, len(spans))
		}
	}
	for _, parent := range parents {
		if got := TakeNotification(&b, parent, ""); len(got) != 4 {
			t.Errorf("parent %s: notification of %d tasks, want 4", parent, len(got))
		}
		if again := TakeNotification(&b, parent, ""); again != nil {
			t.Errorf("parent %s notified twice", parent)
		}
	}
}
