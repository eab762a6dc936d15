package state

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

	var sec section[Session]
	for _, s := range sessionSections[:] {
		if s.group == GroupSessionGovernance {
			sec = s
		}
	}
	var s Session
	if err := decodeSection(sec, string(w.B), &s); err != nil {
		t.Fatal(err)
	}
	if len(s.Governance.Snaps) != 1 || s.Governance.Snaps[0].ToolUseID != "toolu_2" || !s.Governance.Snaps[0].Time.Equal(t0) {
		t.Fatalf("snapshots: %+v", s.Governance.Snaps)
	}
	// Written back, the old lists are empty and it reads the same.
	w2 := &binrec.Writer{}
	sec.encode(binrec.Encoder(w2), &s)
	var again Session
	if err := decodeSection(sec, string(w2.B), &again); err != nil || len(again.Governance.Snaps) != 1 {
		t.Fatalf("round trip: %v %+v", err, again.Governance)
	}
}
