package main

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/taskboard"

	"github.com/atreides-dev/atreides/internal/tasks"
)

// BenchmarkTaskProcess times whole 'atreides task add' and 'atreides task
// done' processes in a project whose board holds 1,000 tasks, as an
// agent's shell runs them, and reports the median (median-ms) beside Go's
// mean. Run it with a fixed count, e.g. -bench TaskProcess -benchtime 50x.
func BenchmarkTaskProcess(b *testing.B) {
	bin := filepath.Join(b.TempDir(), "atreides")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	root := b.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		b.Fatal(err)
	}
	r := tasks.Open(root, tasks.Options{})
	err := r.Update(context.Background(), func(bd *taskboard.Tasks, now time.Time) error {
		for i := range 1000 {
			in := tasks.NewTask{Title: fmt.Sprintf("task %d: make the thing work", i), Description: "a description of a few words, as people write them",
				Priority: tasks.Priorities[i%len(tasks.Priorities)], Effort: "2h", Lang: "go"}
			if _, err := tasks.Add(bd, in, now); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	i := 0 // done closes task i: a new one every time, across runs
	run := func(b *testing.B, args func(i int) []string) {
		var times []time.Duration
		for b.Loop() {
			i++
			cmd := exec.Command(bin, args(i)...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "ATREIDES_SESSION_ID=bench")
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v: %v\n%s", cmd.Args, err, out)
			}
			times = append(times, time.Since(start))
		}
		slices.Sort(times)
		b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
	}
	b.Run("add", func(b *testing.B) {
		run(b, func(int) []string { return []string{"task", "add", "one more task"} })
	})
	b.Run("done", func(b *testing.B) {
		run(b, func(i int) []string { return []string{"task", "done", strconv.Itoa(i)} })
	})
}
