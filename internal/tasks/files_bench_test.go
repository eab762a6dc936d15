package tasks

import (
	"fmt"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/taskboard"
)

// (BenchmarkSetStatus1000 in bench_test.go is a whole change: the store
// transaction plus the files.)

// BenchmarkWriteFiles1000 is the file writing alone (render, two-phase
// write, fsyncs) for 1,000 tasks.
func BenchmarkWriteFiles1000(b *testing.B) {
	r := Open(b.TempDir(), Options{})
	bd := &taskboard.Tasks{}
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
	bd := &taskboard.Tasks{Gen: 1}
	for i := range 1000 {
		if _, err := Add(bd, NewTask{Title: fmt.Sprint("task ", i), Description: "a line of description", Lang: "go"}, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		Render(bd, ".atreides/specs")
	}
}
