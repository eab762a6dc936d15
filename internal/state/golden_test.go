package state

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// The records in testdata were written by the encoder as it stood before
// the codec listed each field once (commit b2b5d86): the *-full records
// have every field of every group set (see fill), the busy ones are what a
// long session writes, session-core has no group at all and tasks-plain no
// approvals section. Records on disk are never migrated for a change of
// codec, so today's decoder must read them and today's encoder write them
// back to the same bytes. Never regenerate them.

// golden reads the committed records whose names match pattern.
func golden(t *testing.T, pattern string) map[string][]byte {
	t.Helper()
	names, err := filepath.Glob(filepath.Join("testdata", pattern))
	if err != nil || len(names) == 0 {
		t.Fatalf("no golden records %s: %v", pattern, err)
	}
	out := make(map[string][]byte)
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(name)] = b
	}
	return out
}

// oneGroups is every group on its own, and none: an event that declares
// only some groups decodes those and carries the others over.
func oneGroups() []Groups {
	gs := []Groups{NoGroups, AllGroups}
	for g := Groups(1); g < AllGroups; g <<= 1 {
		gs = append(gs, g)
	}
	return gs
}

// TestGoldenRecordsRoundTrip: every committed record decodes and encodes
// to its own bytes, whole and one group at a time.
func TestGoldenRecordsRoundTrip(t *testing.T) {
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for name, b := range golden(t, "session-*.rec") {
		s, err := DecodeSession(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := EncodeSession(s); !bytes.Equal(got, b) {
			t.Errorf("%s: re-encoded to other bytes\n got %x\nwant %x", name, got, b)
		}
		for _, g := range oneGroups() {
			l, err := LoadBytes(b, nil, "x", "claude", now, g)
			if err != nil {
				t.Fatalf("%s, groups %v: %v", name, g, err)
			}
			if got, _, err := l.Encode(); err != nil || got != nil {
				t.Errorf("%s, groups %v: loading and saving changed the record: %v\n got %x\nwant %x", name, g, err, got, b)
			}
		}
	}
	for name, b := range golden(t, "project-*.rec") {
		p, err := DecodeProject(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := EncodeProject(p); !bytes.Equal(got, b) {
			t.Errorf("%s: re-encoded to other bytes\n got %x\nwant %x", name, got, b)
		}
		for _, g := range oneGroups() {
			l, err := LoadBytes(nil, b, "", "claude", now, g)
			if err != nil {
				t.Fatalf("%s, groups %v: %v", name, g, err)
			}
			if _, got, err := l.Encode(); err != nil || got != nil {
				t.Errorf("%s, groups %v: loading and saving changed the record: %v\n got %x\nwant %x", name, g, err, got, b)
			}
		}
	}
	for name, b := range golden(t, "tasks-*.rec") {
		tk, err := decodeTasks(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := encodeTasks(tk, 0); !bytes.Equal(got, b) {
			t.Errorf("%s: re-encoded to other bytes\n got %x\nwant %x", name, got, b)
		}
	}
}
