package tasks

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/taskboard"
)

var t0 = time.Date(2026, 11, 23, 10, 0, 0, 0, time.UTC)

// board adds tasks titled by their priority ("" for the default).
func board(t *testing.T, prios ...string) *taskboard.Tasks {
	t.Helper()
	b := &taskboard.Tasks{}
	for _, p := range prios {
		if _, err := Add(b, NewTask{Title: "task " + p, Priority: p}, t0); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

func TestAdd(t *testing.T) {
	b := board(t, "high")
	for _, c := range []struct {
		name string
		in   NewTask
		want string // "" ok, else a part of the error
	}{
		{"minimal", NewTask{Title: "  x  "}, ""},
		{"every field", NewTask{Title: "x", Description: " d ", Priority: "low", Effort: "2h", Lang: "Go", Parent: 1, BlockedBy: []int{1, 1}}, ""},
		{"no title", NewTask{Title: "  "}, "needs a title"},
		{"bad priority", NewTask{Title: "x", Priority: "urgent"}, "not one of"},
		{"missing parent", NewTask{Title: "x", Parent: 9}, "parent task 9 does not exist"},
		{"missing dependency", NewTask{Title: "x", BlockedBy: []int{1, 9}}, "dependency task 9 does not exist"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := len(b.List)
			next := b.Next
			got, err := Add(b, c.in, t0)
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("err = %v, want %q", err, c.want)
				}
				if len(b.List) != before || b.Next != next {
					t.Fatalf("a refused add changed the board: %d tasks, next %d", len(b.List), b.Next)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Number != next || b.Next != next+1 || got.Status != NotStarted || got.Title != "x" {
				t.Fatalf("added %+v, next %d", got, b.Next)
			}
		})
	}
	last := b.List[len(b.List)-1]
	if last.Description != "d" || last.Language != "go" || !slices.Equal(last.BlockedBy, []int{1}) || last.Priority != "low" {
		t.Errorf("fields not kept or normalised: %+v", last)
	}
	if b.List[1].Priority != DefaultPriority {
		t.Errorf("default priority %q", b.List[1].Priority)
	}
}

// TestSetStatus walks every pair of statuses: what the lifecycle allows
// and refuses.
func TestSetStatus(t *testing.T) {
	for _, from := range Statuses {
		for _, to := range Statuses {
			t.Run(from+"→"+to, func(t *testing.T) {
				b := board(t, "")
				task := &b.List[0]
				task.Status = from
				if from == Blocked {
					task.Reason = "waiting"
				}
				_, err := SetStatus(b, 1, to, "because", t0.Add(time.Hour))
				refused := Closed(from) && from != to
				if refused != (err != nil) {
					t.Fatalf("err = %v, want refused %v", err, refused)
				}
				if refused {
					if task.Status != from {
						t.Fatalf("a refused change moved the task to %s", task.Status)
					}
					return
				}
				want := t0.Add(time.Hour)
				if Closed(from) {
					want = t0 // closed again: unchanged
				}
				if task.Status != to || !task.Updated.Equal(want) {
					t.Fatalf("task %+v", task)
				}
			})
		}
	}
}

func TestSetStatusRules(t *testing.T) {
	claim := taskboard.TaskClaim{Session: "s1", Time: t0}
	for _, c := range []struct {
		name, status, reason string
		prep                 func(b *taskboard.Tasks)
		want                 string // part of the error; "" ok
		check                func(t *testing.T, task *taskboard.Task)
	}{
		{name: "unknown status", status: "done", want: `status "done" is not one of`},
		{name: "unknown task", status: InProgress, prep: func(b *taskboard.Tasks) { b.List = b.List[:0] }, want: "task 1 does not exist"},
		{name: "blocked needs a reason", status: Blocked, reason: "  ", want: "needs a reason"},
		{name: "blocked with a reason", status: Blocked, reason: " the API key ", check: func(t *testing.T, task *taskboard.Task) {
			if task.Reason != "the API key" {
				t.Errorf("reason %q", task.Reason)
			}
		}},
		{name: "start waits for an open dependency", status: InProgress, prep: func(b *taskboard.Tasks) { b.List[0].BlockedBy = []int{2, 3} },
			want: "task 1 waits for tasks 2 and 3"},
		{name: "start once the dependencies are closed", status: InProgress, prep: func(b *taskboard.Tasks) {
			b.List[0].BlockedBy = []int{2, 3}
			b.List[1].Status, b.List[2].Status = Completed, Abandoned
		}, check: func(t *testing.T, task *taskboard.Task) {
			if !task.Started.Equal(t0.Add(time.Hour)) {
				t.Errorf("started %v", task.Started)
			}
		}},
		{name: "a restart keeps the first start", status: InProgress, prep: func(b *taskboard.Tasks) { b.List[0].Started = t0 },
			check: func(t *testing.T, task *taskboard.Task) {
				if !task.Started.Equal(t0) {
					t.Errorf("started %v", task.Started)
				}
			}},
		{name: "done frees the claim", status: Completed, prep: func(b *taskboard.Tasks) { b.List[0].Claim = claim },
			check: func(t *testing.T, task *taskboard.Task) {
				if task.Claim != (taskboard.TaskClaim{}) || !task.Completed.Equal(t0.Add(time.Hour)) {
					t.Errorf("claim %+v completed %v", task.Claim, task.Completed)
				}
			}},
		{name: "abandon frees the claim and keeps the reason", status: Abandoned, reason: "obsolete", prep: func(b *taskboard.Tasks) { b.List[0].Claim = claim },
			check: func(t *testing.T, task *taskboard.Task) {
				if task.Claim != (taskboard.TaskClaim{}) || task.Reason != "obsolete" || !task.Completed.IsZero() {
					t.Errorf("%+v", task)
				}
			}},
		{name: "done again keeps when and why", status: Completed, reason: "later", prep: func(b *taskboard.Tasks) {
			b.List[0].Status, b.List[0].Completed = Completed, t0
		}, check: func(t *testing.T, task *taskboard.Task) {
			if !task.Completed.Equal(t0) || task.Reason != "" || !task.Updated.Equal(t0) {
				t.Errorf("%+v", task)
			}
		}},
		{name: "unblocking clears the reason", status: Planned, prep: func(b *taskboard.Tasks) { b.List[0].Status, b.List[0].Reason = Blocked, "x" },
			check: func(t *testing.T, task *taskboard.Task) {
				if task.Reason != "" {
					t.Errorf("reason %q kept", task.Reason)
				}
			}},
		{name: "a blocked task keeps its claim", status: Blocked, reason: "x", prep: func(b *taskboard.Tasks) { b.List[0].Claim = claim },
			check: func(t *testing.T, task *taskboard.Task) {
				if task.Claim != claim {
					t.Errorf("claim %+v", task.Claim)
				}
			}},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := board(t, "", "", "")
			if c.prep != nil {
				c.prep(b)
			}
			task, err := SetStatus(b, 1, c.status, c.reason, t0.Add(time.Hour))
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("err = %v, want %q", err, c.want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if c.check != nil {
				c.check(t, task)
			}
		})
	}
}

func TestDepend(t *testing.T) {
	for _, c := range []struct {
		name  string
		deps  map[int][]int // existing dependencies
		n, on int
		want  string // part of the error; "" ok
	}{
		{name: "simple", n: 2, on: 1},
		{name: "itself", n: 1, on: 1, want: "cannot wait for itself"},
		{name: "direct cycle", deps: map[int][]int{1: {2}}, n: 2, on: 1, want: "a cycle"},
		{name: "long cycle", deps: map[int][]int{1: {2}, 2: {3}, 3: {4}}, n: 4, on: 1, want: "a cycle"},
		{name: "diamond is no cycle", deps: map[int][]int{1: {2, 3}, 2: {4}, 3: {4}}, n: 1, on: 4},
		{name: "again is a no-op", deps: map[int][]int{2: {1}}, n: 2, on: 1},
		{name: "missing task", n: 9, on: 1, want: "task 9 does not exist"},
		{name: "missing dependency", n: 1, on: 9, want: "task 9 does not exist"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := board(t, "", "", "", "")
			for n, d := range c.deps {
				b.Task(n).BlockedBy = d
			}
			err := Depend(b, c.n, c.on)
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("err = %v, want %q", err, c.want)
				}
				if c.deps == nil && b.Task(1) != nil && len(b.Task(1).BlockedBy) > 0 {
					t.Fatalf("a refused dependency was kept")
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := b.Task(c.n).BlockedBy
			if !slices.IsSorted(got) || len(slices.Compact(slices.Clone(got))) != len(got) || !slices.Contains(got, c.on) {
				t.Fatalf("blocked by %v", got)
			}
		})
	}
}

func TestUndepend(t *testing.T) {
	b := board(t, "", "", "")
	b.Task(3).BlockedBy = []int{1, 2}
	if err := Undepend(b, 3, 1); err != nil || !slices.Equal(b.Task(3).BlockedBy, []int{2}) {
		t.Fatalf("err %v, blocked by %v", err, b.Task(3).BlockedBy)
	}
	if err := Undepend(b, 9, 1); err == nil {
		t.Fatal("a missing task was accepted")
	}
}

func TestReady(t *testing.T) {
	me := taskboard.TaskClaim{Session: "me"}
	other := taskboard.TaskClaim{Session: "other", Time: t0}
	// 1 low, 2 critical, 3 medium, 4 high, 5 critical, 6 high, 7 medium, 8 critical
	b := board(t, "low", "critical", "medium", "high", "critical", "high", "medium", "critical")
	b.Task(3).BlockedBy = []int{1} // 1 is open: not ready
	b.Task(4).Status = Completed   // closed
	b.Task(5).Status = InProgress  // under way
	b.Task(6).Status, b.Task(6).Reason = Blocked, "x"
	b.Task(7).Claim = other // someone else's
	b.Task(8).Claim = me    // mine: still offered to me
	b.List = append(b.List, taskboard.Task{Number: 9, Title: "dep closed", Status: Planned, Priority: "high", BlockedBy: []int{4}})
	b.List = append(b.List, taskboard.Task{Number: 10, Title: "no priority", Status: Researched})

	numbers := func(ts []*taskboard.Task) []int {
		var out []int
		for _, t := range ts {
			out = append(out, t.Number)
		}
		return out
	}
	for _, c := range []struct {
		name string
		by   taskboard.TaskClaim
		want []int
	}{
		{"me", me, []int{2, 8, 9, 1, 10}},
		{"nobody: unclaimed only", taskboard.TaskClaim{}, []int{2, 9, 1, 10}},
		{"the other session", taskboard.TaskClaim{Session: "other"}, []int{2, 9, 7, 1, 10}},
		{"another agent of my session", taskboard.TaskClaim{Session: "me", Agent: "oracle"}, []int{2, 9, 1, 10}},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := numbers(Ready(b, c.by)); !slices.Equal(got, c.want) {
				t.Errorf("ready %v, want %v", got, c.want)
			}
		})
	}
}

func TestClaim(t *testing.T) {
	held := taskboard.TaskClaim{Session: "s1", Agent: "a", Time: t0}
	for _, c := range []struct {
		name   string
		holder taskboard.TaskClaim
		status string
		by     taskboard.TaskClaim
		force  bool
		want   string // part of the error; "" ok
		held   bool   // the error is a *ClaimedError naming holder
	}{
		{name: "free", by: taskboard.TaskClaim{Session: "s2"}},
		{name: "mine again", holder: held, by: taskboard.TaskClaim{Session: "s1", Agent: "a"}},
		{name: "held by another session", holder: held, by: taskboard.TaskClaim{Session: "s2"}, want: "claimed by agent a of session s1", held: true},
		{name: "held by another agent of the session", holder: held, by: taskboard.TaskClaim{Session: "s1"}, want: "claimed by", held: true},
		{name: "forced", holder: held, by: taskboard.TaskClaim{Session: "s2"}, force: true},
		{name: "no session", by: taskboard.TaskClaim{Agent: "a"}, want: "needs a session"},
		{name: "completed", status: Completed, by: taskboard.TaskClaim{Session: "s2"}, want: "task 1 is completed"},
		{name: "abandoned even forced", status: Abandoned, by: taskboard.TaskClaim{Session: "s2"}, force: true, want: "is abandoned"},
	} {
		t.Run(c.name, func(t *testing.T) {
			b := board(t, "")
			task := &b.List[0]
			task.Claim = c.holder
			if c.status != "" {
				task.Status = c.status
			}
			now := t0.Add(time.Hour)
			got, err := Claim(b, 1, c.by, c.force, now)
			if c.want != "" {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("err = %v, want %q", err, c.want)
				}
				var ce *ClaimedError
				if errors.As(err, &ce) != c.held || (c.held && (ce.Owner != c.holder || ce.Task != 1)) {
					t.Fatalf("error %#v, want a ClaimedError: %v", err, c.held)
				}
				if task.Claim != c.holder {
					t.Fatalf("a refused claim changed the holder to %+v", task.Claim)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got.Claim.Session != c.by.Session || got.Claim.Agent != c.by.Agent {
				t.Fatalf("claim %+v", got.Claim)
			}
			// Claiming again what one holds keeps the original time.
			want := now
			if c.holder == held && !c.force {
				want = t0
			}
			if !got.Claim.Time.Equal(want) {
				t.Errorf("claim time %v, want %v", got.Claim.Time, want)
			}
		})
	}
	if _, err := Claim(board(t, ""), 7, taskboard.TaskClaim{Session: "s"}, false, t0); err == nil {
		t.Error("a missing task was claimed")
	}
}

func TestRelease(t *testing.T) {
	b := board(t, "", "")
	b.Task(1).Claim = taskboard.TaskClaim{Session: "s1", Time: t0}
	now := t0.Add(time.Hour)
	if got, err := Release(b, 1, now); err != nil || got.Claim != (taskboard.TaskClaim{}) || !got.Updated.Equal(now) {
		t.Fatalf("release: %v %+v", err, got)
	}
	if got, err := Release(b, 2, now); err != nil || !got.Updated.Equal(t0) {
		t.Fatalf("release of a free task changed it: %v %+v", err, got)
	}
	if _, err := Release(b, 9, now); err == nil {
		t.Fatal("a missing task was released")
	}
}

func TestClaimed(t *testing.T) {
	b := board(t, "", "", "", "")
	for _, n := range []int{1, 2, 3, 4} {
		b.Task(n).Claim = taskboard.TaskClaim{Session: "s1"}
	}
	b.Task(2).Status = InProgress
	b.Task(3).Claim.Agent = "oracle"
	b.Task(4).Status = Completed
	for _, c := range []struct {
		session, agent string
		want           []int
	}{
		{"s1", "", []int{2, 1}},
		{"s1", "*", []int{2, 1, 3}},
		{"s1", "oracle", []int{3}},
		{"", "*", nil},
		{"s2", "*", nil},
	} {
		var got []int
		for _, t := range Claimed(b, c.session, c.agent) {
			got = append(got, t.Number)
		}
		if !slices.Equal(got, c.want) {
			t.Errorf("Claimed(%q, %q) = %v, want %v", c.session, c.agent, got, c.want)
		}
	}
}

func TestMarker(t *testing.T) {
	if got := Marker(InProgress); got != "[IN PROGRESS]" {
		t.Errorf("marker %q", got)
	}
}
