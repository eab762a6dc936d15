package tasks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
)

// The writer processes of TestConcurrentWriters are this test binary run
// again with these variables set.
const (
	writerEnv = "ATREIDES_TASKS_TEST_WRITER" // the writer's index
	rootEnv   = "ATREIDES_TASKS_TEST_ROOT"
	startEnv  = "ATREIDES_TASKS_TEST_START" // unix nanoseconds all writers start at
)

const (
	writers   = 20
	perWriter = 5
)

// writerResult is what one writer did, as it prints it.
type writerResult struct {
	Writer   int            `json:"writer"`
	Statuses map[int]string `json:"statuses"` // task number → the status it left
	Shared   bool           `json:"shared"`   // it won the claim of task 1
}

// TestConcurrentWriters runs 20 processes at once, each adding tasks,
// moving them through the lifecycle one change per transaction and
// racing for one claim: numbers are unique and dense, no change is lost,
// and exactly one process holds the contested claim.
func TestConcurrentWriters(t *testing.T) {
	if os.Getenv(writerEnv) != "" {
		runWriter(t)
		return
	}
	root := t.TempDir()
	r := Open(root, Options{})
	ctx := context.Background()
	if err := r.Update(ctx, func(b *state.Tasks, now time.Time) error {
		_, err := Add(b, NewTask{Title: "contested"}, now)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	start := time.Now().Add(300 * time.Millisecond).UnixNano()
	cmds := make([]*exec.Cmd, writers)
	outs := make([]*bytes.Buffer, writers)
	for i := range cmds {
		c := exec.Command(os.Args[0], "-test.run=^TestConcurrentWriters$", "-test.count=1")
		c.Env = append(os.Environ(), writerEnv+"="+strconv.Itoa(i+1), rootEnv+"="+root, startEnv+"="+strconv.FormatInt(start, 10))
		outs[i] = &bytes.Buffer{}
		c.Stdout, c.Stderr = outs[i], outs[i]
		if err := c.Start(); err != nil {
			t.Fatal(err)
		}
		cmds[i] = c
	}
	var results []writerResult
	for i, c := range cmds {
		if err := c.Wait(); err != nil {
			t.Fatalf("writer %d: %v\n%s", i+1, err, outs[i])
		}
		for line := range strings.Lines(outs[i].String()) {
			if js, ok := strings.CutPrefix(line, "result "); ok {
				var res writerResult
				if err := json.Unmarshal([]byte(js), &res); err != nil {
					t.Fatal(err)
				}
				results = append(results, res)
			}
		}
	}
	if len(results) != writers {
		t.Fatalf("%d writers reported, want %d", len(results), writers)
	}

	var b state.Tasks
	if err := r.View(ctx, func(got *state.Tasks) error { b = *got; return nil }); err != nil {
		t.Fatal(err)
	}
	const total = 1 + writers*perWriter
	if len(b.List) != total || b.Next != total+1 {
		t.Fatalf("%d tasks, next %d; want %d, %d", len(b.List), b.Next, total, total+1)
	}
	for i, task := range b.List {
		if task.Number != i+1 {
			t.Fatalf("task %d at position %d: numbers not unique and dense", task.Number, i)
		}
	}
	// Every change is a transaction of its own, so the generation counts
	// them all: one lost update would show here too.
	if want := 1 + writers*(perWriter+statusChanges+1); b.Gen != want {
		t.Errorf("board generation %d, want %d (one per change)", b.Gen, want)
	}
	winners := 0
	for _, res := range results {
		for n, status := range res.Statuses {
			task := b.Task(n)
			if task == nil || task.Title != fmt.Sprintf("writer %d task %d", res.Writer, taskIndex(task.Title)) || task.Status != status {
				t.Errorf("writer %d left task %d %s; the board has %+v", res.Writer, n, status, task)
			}
		}
		if len(res.Statuses) != perWriter {
			t.Errorf("writer %d reports %d tasks", res.Writer, len(res.Statuses))
		}
		if res.Shared {
			winners++
			if got := b.Task(1).Claim.Session; got != fmt.Sprintf("writer-%d", res.Writer) {
				t.Errorf("writer %d won the claim of task 1, held by %q", res.Writer, got)
			}
		}
	}
	if winners != 1 {
		t.Errorf("%d writers won the claim of task 1, want 1", winners)
	}
}

// taskIndex is k of a title "writer W task k".
func taskIndex(title string) int {
	f := strings.Fields(title)
	k, _ := strconv.Atoi(f[len(f)-1])
	return k
}

// walks are the lifecycles the writers' tasks go through, one change
// per transaction; the k-th task of every writer walks walks[k].
var walks = [perWriter][]string{
	{Researched, Planned, InProgress, Completed},
	{InProgress, Blocked, Planned, Abandoned},
	{Researched, Blocked, InProgress, Blocked},
	{Planned, InProgress, Completed, Completed},
	{Researched, Researched, Planned, InProgress},
}

const statusChanges = perWriter * 4

// runWriter is one writer process of TestConcurrentWriters.
func runWriter(t *testing.T) {
	w, _ := strconv.Atoi(os.Getenv(writerEnv))
	startNs, _ := strconv.ParseInt(os.Getenv(startEnv), 10, 64)
	time.Sleep(time.Until(time.Unix(0, startNs)))
	r := Open(os.Getenv(rootEnv), Options{})
	ctx := context.Background()
	res := writerResult{Writer: w, Statuses: map[int]string{}}
	numbers := make([]int, perWriter)
	for k := range perWriter {
		if err := r.Update(ctx, func(b *state.Tasks, now time.Time) error {
			task, err := Add(b, NewTask{Title: fmt.Sprintf("writer %d task %d", w, k)}, now)
			if err == nil {
				numbers[k] = task.Number
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	err := r.Update(ctx, func(b *state.Tasks, now time.Time) error {
		_, err := Claim(b, 1, state.TaskClaim{Session: fmt.Sprintf("writer-%d", w)}, false, now)
		res.Shared = err == nil
		return nil // a refused claim is an outcome, not a failure
	})
	if err != nil {
		t.Fatal(err)
	}
	// Interleave the tasks' walks, so that the writers' changes to their
	// own tasks mix with the others' in the store.
	for step := range 4 {
		for k, n := range numbers {
			status := walks[k][step]
			if err := r.Update(ctx, func(b *state.Tasks, now time.Time) error {
				_, err := SetStatus(b, n, status, "reason", now)
				return err
			}); err != nil {
				t.Fatal(err)
			}
			res.Statuses[n] = status
		}
	}
	js, _ := json.Marshal(res)
	fmt.Printf("result %s\n", js)
}
