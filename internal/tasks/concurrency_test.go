package tasks

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/taskboard"
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
// and exactly one process holds the contested claim. A reader checks the
// three files while they run (see readFiles), and at the end they are
// what the stored board generates.
func TestConcurrentWriters(t *testing.T) {
	if os.Getenv(writerEnv) != "" {
		runWriter(t)
		return
	}
	root := t.TempDir()
	r := Open(root, Options{})
	ctx := context.Background()
	if err := r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
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
	reader := startReader(root, time.Unix(0, start))
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
	for _, p := range reader.stop() {
		t.Error(p)
	}

	var b taskboard.Tasks
	if err := r.View(ctx, func(got *taskboard.Tasks) error { b = *got; return nil }); err != nil {
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
	// At the end the files are exactly what the stored board generates.
	if b.Files.Gen != b.Gen || b.Files.Err != "" {
		t.Errorf("files recorded at generation %d (%q), the board is at %d", b.Files.Gen, b.Files.Err, b.Gen)
	}
	files := Render(&b, r.specsRel())
	for _, name := range fileNames {
		got, err := os.ReadFile(filepath.Join(r.SpecsDir(), name))
		if err != nil || !bytes.Equal(got, files.file(name)) {
			t.Errorf("%s is not what the stored board generates (%v)", name, err)
		}
	}
	if got := specFiles(t, r); !slices.Equal(got, slices.Sorted(slices.Values(fileNames))) {
		t.Errorf("the specs directory holds %v, want only %v", got, fileNames)
	}
}

// reader checks the task files at random moments while the writers run,
// as a person's editor, a script or another atreides command would read
// them: Recover first (what read-only commands do), then the files. Some
// of its goroutines read the files without the store's lock, one under
// it (see readFiles).
type reader struct {
	done     chan struct{}
	finished chan []string // the problems each goroutine saw
}

// readers is how many goroutines read without the lock.
const readers = 2

// startReader starts reading at start, when the writers start.
func startReader(root string, start time.Time) *reader {
	rd := &reader{done: make(chan struct{}), finished: make(chan []string, readers+1)}
	for i := range readers + 1 {
		locked := i == readers
		go func() {
			r := Open(root, Options{})
			rng := rand.New(rand.NewPCG(1, uint64(i)))
			time.Sleep(time.Until(start))
			var problems []string
			// At least one check, however fast the writers are.
			for {
				problems = append(problems, readFiles(r, locked)...)
				select {
				case <-rd.done:
					rd.finished <- problems
					return
				case <-time.After(time.Duration(rng.IntN(1000)) * time.Microsecond):
				}
			}
		}()
	}
	return rd
}

// stop ends the reader after its current checks, and returns what it saw.
func (rd *reader) stop() []string {
	close(rd.done)
	var all []string
	for range readers + 1 {
		all = append(all, <-rd.finished...)
	}
	return all
}

// readFiles is one check of the files while writers may be changing the
// board. Read without the store's lock, each file is whole (renamed into
// place) and, when all three carry one generation, they agree with each
// other: the renames of one write are three, so a reader between them
// sees two generations, never a torn file. Read under the store's shared
// lock (as a command reads the board), they are exactly what the board of
// that generation generates: its task numbers and statuses, byte for byte.
func readFiles(r *Repo, locked bool) []string {
	ctx := context.Background()
	var problems []string
	bad := func(format string, args ...any) { problems = append(problems, fmt.Sprintf(format, args...)) }
	if err := r.Recover(ctx); err != nil {
		bad("recover: %v", err)
	}
	if !locked {
		snap, err := readSnapshot(r)
		if err != nil {
			bad("without the lock: %v", err)
		} else if snap.todoGen == snap.state.Generation && snap.state.Generation == snap.errorsGen && !maps.Equal(snap.todo, snap.state.statuses()) {
			bad("generation %d without the lock: TODO.md says %v, state.json %v", snap.todoGen, snap.todo, snap.state.statuses())
		}
		return problems
	}
	err := r.View(ctx, func(b *taskboard.Tasks) error {
		snap, err := readSnapshot(r)
		if err != nil {
			return err
		}
		if b.Files.Gen != b.Gen || snap.todoGen != b.Gen || snap.state.Generation != b.Gen || snap.errorsGen != b.Gen {
			bad("under the lock the board is at %d (files recorded at %d), TODO.md at %d, state.json at %d, errors.json at %d",
				b.Gen, b.Files.Gen, snap.todoGen, snap.state.Generation, snap.errorsGen)
		}
		want := map[int]string{}
		for _, t := range b.List {
			want[t.Number] = t.Status
		}
		if got := snap.state.statuses(); !maps.Equal(got, want) || snap.state.NextTask != b.Next {
			bad("generation %d: state.json has %v (next %d), the board %v (next %d)", b.Gen, got, snap.state.NextTask, want, b.Next)
		}
		files := Render(b, r.specsRel())
		for name, data := range snap.raw {
			if !bytes.Equal(data, files.file(name)) {
				bad("generation %d: %s is not what the board generates", b.Gen, name)
			}
		}
		return nil
	})
	if err != nil {
		bad("under the lock: %v", err)
	}
	return problems
}

// snapshot is the three files as read once, parsed.
type snapshot struct {
	raw       map[string][]byte
	todoGen   int
	todo      map[int]string // task number → status, from TODO.md's markers
	state     stateFile
	errorsGen int
}

type stateFile struct {
	Generation int `json:"generation"`
	NextTask   int `json:"next_task"`
	Tasks      []struct {
		Number int    `json:"number"`
		Status string `json:"status"`
	} `json:"tasks"`
}

func (s stateFile) statuses() map[int]string {
	out := map[int]string{}
	for _, t := range s.Tasks {
		out[t.Number] = t.Status
	}
	return out
}

// readSnapshot reads and parses the three files: each must be whole.
func readSnapshot(r *Repo) (snapshot, error) {
	s := snapshot{raw: map[string][]byte{}, todo: map[int]string{}}
	for _, name := range fileNames {
		data, err := os.ReadFile(filepath.Join(r.SpecsDir(), name))
		if err != nil {
			return s, err
		}
		s.raw[name] = data
	}
	todo := s.raw[TodoFile]
	gen, ok := readGen(TodoFile, todo)
	if !ok || !sealed(todo) {
		return s, fmt.Errorf("TODO.md is not whole:\n%s", todo)
	}
	s.todoGen = gen
	n := 0
	for line := range strings.Lines(string(todo)) {
		if _, err := fmt.Sscanf(line, "### %d.", &n); err == nil {
			continue
		}
		if m, ok := strings.CutPrefix(strings.TrimSpace(line), "- **Status**: "); ok && n > 0 {
			st, known := statusOfMarker(m)
			if !known {
				return s, fmt.Errorf("TODO.md: task %d has the marker %q", n, m)
			}
			s.todo[n] = st
		}
	}
	if err := json.Unmarshal(s.raw[StateFile], &s.state); err != nil {
		return s, fmt.Errorf("state.json: %w", err)
	}
	var errs struct {
		Generation int `json:"generation"`
	}
	if err := json.Unmarshal(s.raw[ErrorsFile], &errs); err != nil {
		return s, fmt.Errorf("errors.json: %w", err)
	}
	s.errorsGen = errs.Generation
	return s, nil
}

// statusOfMarker reads a marker such as "[IN PROGRESS]" back; a marker
// may be followed by a reason.
func statusOfMarker(m string) (string, bool) {
	for _, st := range []string{NotStarted, Researched, Planned, InProgress, Completed, Abandoned, Blocked} {
		if strings.HasPrefix(m, Marker(st)) {
			return st, true
		}
	}
	return "", false
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
		if err := r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
			task, err := Add(b, NewTask{Title: fmt.Sprintf("writer %d task %d", w, k)}, now)
			if err == nil {
				numbers[k] = task.Number
			}
			return err
		}); err != nil {
			t.Fatal(err)
		}
	}
	err := r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		_, err := Claim(b, 1, taskboard.TaskClaim{Session: fmt.Sprintf("writer-%d", w)}, false, now)
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
			if err := r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
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
