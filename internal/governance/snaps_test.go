package governance

import (
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
)

// A session governance section written before the delegation group had
// its own (spawns, subagents and reports ahead of the snapshots) still
// decodes: the old lists are skipped, the snapshots kept.
func TestOldGovernanceSectionDecodes(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	w := &binrec.Writer{}
	w.Uint(1) // spawns
	w.Str("")
	w.Str("Explore")
	w.Str("toolu_1")
	w.Time(t0)
	w.Uint(1) // subagents
	w.Str("a1")
	w.Str("Explore")
	w.Str("")
	w.Int(1)
	w.Time(t0)
	w.Time(t0)
	w.Str("ok")
	w.Str("")
	w.Uint(1) // reports
	w.Str("")
	w.Str("subagent a1 finished with problems")
	w.Uint(1) // snapshots
	w.Str("toolu_2")
	w.Str("I-1")
	w.Uint(0)
	w.Time(t0)

	var g Snapshots
	r := binrec.Decoder(string(w.B))
	g.fields(r)
	if r.R.Err() != nil || r.R.Len() != 0 {
		t.Fatalf("err %v, %d bytes left", r.R.Err(), r.R.Len())
	}
	if len(g.Snaps) != 1 || g.Snaps[0].ToolUseID != "toolu_2" || !g.Snaps[0].Time.Equal(t0) {
		t.Fatalf("snapshots: %+v", g.Snaps)
	}
	// Written back, the old lists are empty and it reads the same.
	w2 := &binrec.Writer{}
	g.fields(binrec.Encoder(w2))
	if want := []byte{0, 0, 0}; string(w2.B[:3]) != string(want) {
		t.Errorf("the old lists written back: %x", w2.B)
	}
	var again Snapshots
	if again.fields(binrec.Decoder(string(w2.B))); len(again.Snaps) != 1 {
		t.Fatalf("round trip: %+v", again)
	}
}
