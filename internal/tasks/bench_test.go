package tasks

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
)

// BenchmarkChange1000 is one status change on a board of 1,000 tasks:
// the store transaction plus rendering and writing the three files.
func BenchmarkChange1000(b *testing.B) {
	r := Open(b.TempDir(), Options{})
	ctx := context.Background()
	err := r.Update(ctx, func(bd *state.Tasks, now time.Time) error {
		for i := range 1000 {
			if _, err := Add(bd, NewTask{Title: fmt.Sprint("task ", i), Description: "a line of description", Lang: "go"}, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		i++
		err := r.Update(ctx, func(bd *state.Tasks, now time.Time) error {
			_, err := SetStatus(bd, 1+i%1000, Researched, "", now)
			return err
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteFiles1000 is the file writing alone (render, two-phase
// write, fsyncs) for 1,000 tasks.
func BenchmarkWriteFiles1000(b *testing.B) {
	r := Open(b.TempDir(), Options{})
	bd := &state.Tasks{}
	now := time.Now()
	for i := range 1000 {
		if _, err := Add(bd, NewTask{Title: fmt.Sprint("task ", i), Description: "a line of description", Lang: "go"}, now); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		r.WriteFiles(bd, now)
		if bd.Files.Err != "" {
			b.Fatal(bd.Files.Err)
		}
	}
}

// BenchmarkRender1000 is the rendering alone.
func BenchmarkRender1000(b *testing.B) {
	bd := &state.Tasks{Gen: 1}
	for i := range 1000 {
		if _, err := Add(bd, NewTask{Title: fmt.Sprint("task ", i), Description: "a line of description", Lang: "go"}, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		Render(bd, ".atreides/specs")
	}
}
