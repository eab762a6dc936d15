package state_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
	_ "github.com/atreides-dev/atreides/internal/statekeys" // every feature's groups
)

// The records in testdata were written by the encoder as it stood before
// the codec listed each field once (commit b2b5d86): the *-full records
// have every field of every group set (see fill), the busy ones are what a
// long session writes, session-core has no group at all and tasks-plain no
// approvals section. Records on disk are never migrated for a change of
// codec, so today's decoder must read them and today's encoder write them
// back to the same bytes, with the keys of the features that own groups
// registered (this test links them in). Each record's .json is what it decoded to then:
// a round trip alone would not catch two fields read in a new order (the
// same bytes parse either way), the values do. Never regenerate them.

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
func oneGroups() []state.Groups {
	gs := []state.Groups{state.NoGroups, state.AllGroups}
	for g := state.Groups(1); g < state.AllGroups; g <<= 1 {
		gs = append(gs, g)
	}
	return gs
}

// TestGoldenRecordsRoundTrip: every committed record decodes and encodes
// to its own bytes, whole and one group at a time.
func TestGoldenRecordsRoundTrip(t *testing.T) {
	now := time.Date(2026, 11, 29, 0, 0, 0, 0, time.UTC)
	for name, b := range golden(t, "session-*.rec") {
		s, err := state.DecodeSession(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameValue(t, name, s)
		if got := state.EncodeSession(s); !bytes.Equal(got, b) {
			t.Errorf("%s: re-encoded to other bytes\n got %x\nwant %x", name, got, b)
		}
		for _, g := range oneGroups() {
			l, err := state.LoadBytes(b, nil, "x", "claude", now, g)
			if err != nil {
				t.Fatalf("%s, groups %v: %v", name, g, err)
			}
			if got, _, err := l.Encode(); err != nil || got != nil {
				t.Errorf("%s, groups %v: loading and saving changed the record: %v\n got %x\nwant %x", name, g, err, got, b)
			}
		}
	}
	for name, b := range golden(t, "project-*.rec") {
		p, err := state.DecodeProject(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameValue(t, name, p)
		if got := state.EncodeProject(p); !bytes.Equal(got, b) {
			t.Errorf("%s: re-encoded to other bytes\n got %x\nwant %x", name, got, b)
		}
		for _, g := range oneGroups() {
			l, err := state.LoadBytes(nil, b, "", "claude", now, g)
			if err != nil {
				t.Fatalf("%s, groups %v: %v", name, g, err)
			}
			if _, got, err := l.Encode(); err != nil || got != nil {
				t.Errorf("%s, groups %v: loading and saving changed the record: %v\n got %x\nwant %x", name, g, err, got, b)
			}
		}
	}
	for name, b := range golden(t, "tasks-*.rec") {
		tk, err := state.DecodeRecord("tasks", b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameValue(t, name, tk)
		if got := state.EncodeRecord("tasks", tk); !bytes.Equal(got, b) {
			t.Errorf("%s: re-encoded to other bytes\n got %x\nwant %x", name, got, b)
		}
	}
}

// sameValue fails unless v is, in JSON, what the record of name decoded
// to when it was written (testdata/NAME.json), key order aside.
func sameValue(t *testing.T, name string, v any) {
	t.Helper()
	want, err := os.ReadFile(filepath.Join("testdata", strings.TrimSuffix(name, ".rec")+".json"))
	if err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	var g, w any
	if err := errors.Join(json.Unmarshal(got, &g), json.Unmarshal(want, &w)); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("%s: decoded to another value\n got %s\nwant %s", name, got, want)
	}
}
