package background

import (
	"context"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// Dir is a task's output directory: its prompt, the CLI's stdout and
// stderr, and result.md.
func Dir(root, id string) string { return filepath.Join(project.StateDir(root), "background", id) }

// startGrace is how long a running task may wait for its supervisor to
// record itself before the runner counts as lost.
const startGrace = 30 * time.Second

// Alive reports whether the process pid still runs and is the one that
// started at start (clock ticks since boot, /proc/<pid>/stat field 22):
// a pid reused by another process is not alive.
type Alive func(pid int, start uint64) bool

// ProcAlive is [Alive] from /proc.
func ProcAlive(pid int, start uint64) bool {
	got, ok := ProcStart(pid)
	return ok && (start == 0 || got == start)
}

// ProcStart reads a process's start time from /proc.
func ProcStart(pid int) (uint64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	return parseStartTime(string(b))
}

// parseStartTime reads field 22 of a /proc/<pid>/stat line. The command
// name (field 2) is in parentheses and may hold spaces and ')', so the
// fields are counted from the last ')'.
func parseStartTime(stat string) (uint64, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(stat[i+1:])
	const field = 22 - 3 // fields after the name start at 3
	if len(f) <= field {
		return 0, false
	}
	n, err := strconv.ParseUint(f[field], 10, 64)
	return n, err == nil
}

// Recover fails the running process tasks whose supervisor is gone (its
// pid dead or reused, or never recorded within a grace period) as "runner
// lost", which releases their slots; it returns their ids.
func Recover(b *bgtasks.Background, alive Alive, now time.Time) []string {
	var lost []string
	for i := range b.Tasks {
		t := &b.Tasks[i]
		if t.Status != Running || t.Runner != "process" {
			continue
		}
		gone := t.PID == 0 && now.Sub(t.Started) > startGrace || t.PID != 0 && !alive(t.PID, t.PIDStart)
		if !gone {
			continue
		}
		why := "runner lost: its supervisor (pid " + strconv.Itoa(t.PID) + ") is gone; see " + filepath.Join(".atreides", "background", t.ID)
		if t.PID == 0 {
			why = "runner lost: its supervisor never started"
		}
		if ok, _ := Finish(b, t.ID, Failed, "", why, now); ok {
			lost = append(lost, t.ID)
		}
	}
	return lost
}

// Registry is the project's background registry in its store, with what
// launching a supervisor needs.
type Registry struct {
	Root  string
	Store *store.Store
	Opts  Options
	Alive Alive
	Now   func() time.Time
	// Logf writes to the project log.
	Logf func(format string, args ...any)
}

// Open returns the registry of the project at root.
func Open(root string, o Options) *Registry {
	st := fleet.Open(root)
	log := project.NewLog(project.StateDir(root))
	st.OnRecover = func(msg string) { log.Logf("state store: %s", msg) }
	return &Registry{Root: root, Store: st, Opts: o, Alive: ProcAlive, Now: time.Now, Logf: log.Logf}
}

// Update runs fn on the registry in one store transaction, after failing
// the tasks whose runner is lost, then schedules what may start and,
// after the commit, launches its supervisors.
func (r *Registry) Update(ctx context.Context, fn func(p *state.Project, now time.Time) error) error {
	var started []string
	err := r.Store.Update(ctx, func(tx *store.Tx) error {
		started = nil
		return state.UpdateProject(tx, func(p *state.Project) error {
			now := r.Now().UTC()
			before := pending(bgtasks.Key.Of(p))
			Recover(bgtasks.Key.Of(p), r.Alive, now)
			if err := fn(p, now); err != nil {
				return err
			}
			started = Schedule(bgtasks.Key.Of(p), r.Opts.Limits, now)
			if recordFailures(p, before, now) {
				tasks.Open(r.Root, tasks.LoadOptions(r.Root)).WriteFiles(taskboard.Key.Of(p), now)
			}
			return nil
		})
	})
	if err != nil {
		return err
	}
	r.Launch(ctx, started)
	return nil
}

// View reads the registry (and the project) without changing it; lost
// runners show as still running until the next Update.
func (r *Registry) View(ctx context.Context, fn func(p *state.Project) error) error {
	return r.Store.View(ctx, func(tx *store.Tx) error {
		p, err := state.LoadProject(tx)
		if err != nil {
			return err
		}
		return fn(p)
	})
}

// launch starts the supervisors of the tasks that were scheduled; one
// that does not start fails its task.
// Launch starts the supervisors of the started tasks that a process runs
// (an OpenCode task's runner is the plugin); a supervisor that cannot
// start fails its task.
func (r *Registry) Launch(ctx context.Context, ids []string) {
	var runners map[string]string
	_ = r.Store.View(ctx, func(tx *store.Tx) error {
		p, err := state.LoadProject(tx)
		if err == nil {
			runners = map[string]string{}
			for _, t := range bgtasks.Key.Read(p).Tasks {
				runners[t.ID] = t.Runner
			}
		}
		return err
	})
	for _, id := range ids {
		if runners[id] == RunnerOpenCode {
			continue
		}
		if err := Launch(r.Opts.Exe, r.Root, id); err != nil {
			r.Logf("background task %s: supervisor not started: %v", id, err)
			_ = r.Update(ctx, func(p *state.Project, now time.Time) error {
				_, err := Finish(bgtasks.Key.Of(p), id, Failed, "", "the supervisor did not start: "+err.Error(), now)
				return err
			})
		}
	}
}
