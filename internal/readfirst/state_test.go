package readfirst

import (
	"strconv"
	"testing"
	"time"
)

// TestReadsBounded: a file added again moves to the newest end, and
// beyond MaxKnown the oldest are forgotten; agents are kept apart.
func TestReadsBounded(t *testing.T) {
	t0 := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	var r Reads
	r.Add("", "/p/a", t0)
	r.Add("sub", "/p/a", t0)
	for i := range MaxKnown - 2 {
		r.Add("", "/p/f"+strconv.Itoa(i), t0)
	}
	r.Add("", "/p/a", t0.Add(1)) // again: now the newest
	r.Add("", "/p/new", t0)      // one over: the oldest, sub's /p/a, goes
	if len(r.Known) != MaxKnown {
		t.Fatalf("%d known, want %d", len(r.Known), MaxKnown)
	}
	if r.Find("sub", "/p/a") != nil {
		t.Error("the oldest entry was kept")
	}
	if k := r.Find("", "/p/a"); k == nil || !k.ModTime.Equal(t0.Add(1)) {
		t.Errorf("re-added entry: %+v", k)
	}
}
