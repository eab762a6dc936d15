package tasks

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/taskboard"
)

// boardOf1000 is a project whose board holds 1,000 tasks, with the
// fields a real board fills.
func boardOf1000(b *testing.B) *Repo {
	b.Helper()
	r := Open(b.TempDir(), Options{})
	err := r.Update(context.Background(), func(bd *taskboard.Tasks, now time.Time) error {
		for i := range 1000 {
			in := NewTask{Title: fmt.Sprintf("task %d: make the thing work", i), Description: "a description of a few words, as people write them",
				Priority: Priorities[i%len(Priorities)], Effort: "2h", Lang: "go"}
			if i > 0 {
				in.BlockedBy = []int{i}
			}
			if _, err := Add(bd, in, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return r
}

// BenchmarkAdd1000 is 'task add' on a board of 1,000 tasks: one store
// transaction (lock, read, decode, change, encode, write, sync).
func BenchmarkAdd1000(b *testing.B) {
	r := boardOf1000(b)
	ctx := context.Background()
	for b.Loop() {
		if err := r.Update(ctx, func(bd *taskboard.Tasks, now time.Time) error {
			_, err := Add(bd, NewTask{Title: "one more"}, now)
			return err
		}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSetStatus1000 is a status change on a board of 1,000 tasks.
func BenchmarkSetStatus1000(b *testing.B) {
	r := boardOf1000(b)
	ctx := context.Background()
	statuses := []string{Researched, Planned, Blocked}
	i := 0
	for b.Loop() {
		i++
		if err := r.Update(ctx, func(bd *taskboard.Tasks, now time.Time) error {
			_, err := SetStatus(bd, 500, statuses[i%len(statuses)], "x", now)
			return err
		}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkView1000 is reading the board (task list, show, ready).
func BenchmarkView1000(b *testing.B) {
	r := boardOf1000(b)
	ctx := context.Background()
	for b.Loop() {
		if err := r.View(ctx, func(*taskboard.Tasks) error { return nil }); err != nil {
			b.Fatal(err)
		}
	}
}
