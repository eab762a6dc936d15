package ctxbudget

import (
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

func entry(src string, p event.Priority, n int) event.Entry {
	return event.Entry{Source: src, Priority: p, Text: strings.Repeat("x", n)}
}

// TestSpend: within the budget everything goes and is counted by kind;
// once it is spent, high-priority entries still go and the rest are
// dropped and counted as dropped; no budget bounds nothing.
func TestSpend(t *testing.T) {
	var s State
	kept := s.Spend([]event.Entry{entry("session", event.High, 60), entry("phase", event.Normal, 30)}, 100)
	if len(kept) != 2 || s.Total != 90 || s.Budget != 100 {
		t.Fatalf("within budget: kept %d, total %d", len(kept), s.Total)
	}
	kept = s.Spend([]event.Entry{entry("phase", event.Normal, 20), entry("strikes", event.High, 50), entry("keyword", event.Low, 5)}, 100)
	if len(kept) != 1 || kept[0].Source != "strikes" {
		t.Fatalf("over budget kept %+v", kept)
	}
	if s.Total != 140 || s.Dropped != 25 {
		t.Fatalf("total %d dropped %d", s.Total, s.Dropped)
	}
	want := map[string]Count{
		"session": {Kind: "session", Bytes: 60, Times: 1},
		"phase":   {Kind: "phase", Bytes: 30, Times: 1, Dropped: 20},
		"strikes": {Kind: "strikes", Bytes: 50, Times: 1},
	}
	for _, c := range s.Kinds {
		if w, ok := want[c.Kind]; ok && c != w {
			t.Errorf("kind %s: %+v, want %+v", c.Kind, c, w)
		}
	}
	var free State
	if kept := free.Spend([]event.Entry{entry("phase", event.Low, 5000)}, 0); len(kept) != 1 || free.Total != 5000 {
		t.Fatalf("no budget dropped: %+v", free)
	}
}

// TestOf: a decision's bytes by kind, its refusal and block reasons
// included; an allow's reason is the user's, not the model's.
func TestOf(t *testing.T) {
	d := &event.Decision{Verdict: event.Deny, Reason: "no", Block: true, BlockReason: "todo open",
		Context: []event.Entry{entry("phase", event.Normal, 3), entry("phase", event.Normal, 4), entry("memory", event.Critical, 10)}}
	got := Of(d)
	if got["phase"] != 7 || got["memory"] != 10 || got[KindRefusal] != 2 || got[KindBlock] != 9 || len(got) != 4 {
		t.Fatalf("Of = %v", got)
	}
	if m := Of(&event.Decision{Verdict: event.Allow, Reason: "fine"}); m != nil {
		t.Fatalf("allow counted: %v", m)
	}
}

// TestKindsBounded: the kinds kept never grow past maxKinds.
func TestKindsBounded(t *testing.T) {
	var s State
	for i := range maxKinds + 10 {
		s.Add(strings.Repeat("k", i+1), 1)
	}
	if len(s.Kinds) != maxKinds || s.Total != maxKinds+10 {
		t.Fatalf("%d kinds, total %d", len(s.Kinds), s.Total)
	}
}

func TestFit(t *testing.T) {
	for _, tc := range []struct {
		sizes      []int
		budget     int
		kept, left []int
	}{
		{[]int{100, 500, 200}, 400, []int{0, 2}, []int{1}},
		{[]int{100, 300}, 400, []int{0, 1}, nil},
		{[]int{10}, 0, nil, []int{0}},
		{nil, 100, nil, nil},
	} {
		kept, left := Fit(tc.sizes, tc.budget)
		if !slices.Equal(kept, tc.kept) || !slices.Equal(left, tc.left) {
			t.Errorf("Fit(%v, %d) = %v, %v; want %v, %v", tc.sizes, tc.budget, kept, left, tc.kept, tc.left)
		}
	}
}
