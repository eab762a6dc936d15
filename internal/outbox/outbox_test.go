package outbox

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
)

func entryAt(t0 time.Time, i int) *Entry {
	return &Entry{ID: NewID(), Why: "down",
		Event:    &event.Event{Kind: event.PreTool, SessionID: "s", Time: t0.Add(time.Duration(i) * time.Millisecond), Tool: event.Tool{Name: event.Shell, Raw: "Bash", Command: "go test"}},
		Answered: Answer{Verdict: event.Deny, Rule: "r", Reason: "why"}}
}

// TestReplayInOrder: entries come back oldest first, whatever order they
// were written in, whole; a replay stops at the first the caller cannot
// save and leaves it and the rest for the next.
func TestReplayInOrder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".atreides")
	if n, err := Waiting(dir); n != 0 || err != nil {
		t.Fatalf("no outbox: %d, %v", n, err)
	}
	t0 := time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)
	var put []*Entry
	for _, i := range []int{3, 0, 2, 1, 4} {
		e := entryAt(t0, i)
		if err := Put(dir, e); err != nil {
			t.Fatal(err)
		}
		put = append(put, e)
	}
	slices.SortFunc(put, func(a, b *Entry) int { return a.Event.Time.Compare(b.Event.Time) })
	var got []*Entry
	down := errors.New("still down")
	left, err := Replay(context.Background(), dir, func(e *Entry) error {
		if len(got) == 3 {
			return down
		}
		got = append(got, e)
		return nil
	}, t.Logf)
	if left != 2 || !errors.Is(err, down) {
		t.Fatalf("left %d, err %v: want 2 left and the caller's error", left, err)
	}
	left, err = Replay(context.Background(), dir, func(e *Entry) error { got = append(got, e); return nil }, t.Logf)
	if left != 0 || err != nil {
		t.Fatalf("second replay: left %d, %v", left, err)
	}
	if len(got) != len(put) {
		t.Fatalf("replayed %d entries, want %d", len(got), len(put))
	}
	for i := range put {
		if got[i].ID != put[i].ID || !got[i].Event.Time.Equal(put[i].Event.Time) || got[i].Answered != put[i].Answered ||
			!reflect.DeepEqual(got[i].Event.Tool, put[i].Event.Tool) || got[i].Event.Response != nil {
			t.Errorf("entry %d: got %+v, want %+v", i, got[i], put[i])
		}
	}
	if n, _ := Waiting(dir); n != 0 {
		t.Errorf("%d entries left after a full replay", n)
	}
}

// TestUnreadableSetAside: an entry that does not decode is moved aside and
// logged; the entries behind it are replayed.
func TestUnreadableSetAside(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".atreides")
	t0 := time.Now()
	good := entryAt(t0, 1)
	if err := Put(dir, good); err != nil {
		t.Fatal(err)
	}
	bad := filepath.Join(dir, DirName, "0000000000000000001-x.json")
	if err := os.WriteFile(bad, []byte(`{"id":`), 0o600); err != nil {
		t.Fatal(err)
	}
	var logged []string
	var got []string
	left, err := Replay(context.Background(), dir, func(e *Entry) error { got = append(got, e.ID); return nil },
		func(f string, a ...any) { logged = append(logged, f) })
	if left != 0 || err != nil || len(got) != 1 || got[0] != good.ID || len(logged) != 1 {
		t.Fatalf("left %d, err %v, replayed %v, logged %v", left, err, got, logged)
	}
	if _, err := os.Stat(bad + ".unreadable"); err != nil {
		t.Errorf("the unreadable entry was not kept aside: %v", err)
	}
}

// TestReplayBusy: a hook that finds another replaying waits for it until
// its own time runs out, then says so and leaves the entries.
func TestReplayBusy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".atreides")
	if err := Put(dir, entryAt(time.Now(), 0)); err != nil {
		t.Fatal(err)
	}
	inside := make(chan struct{})
	release := make(chan struct{})
	done := make(chan error)
	go func() {
		_, err := Replay(context.Background(), dir, func(*Entry) error { close(inside); <-release; return nil }, t.Logf)
		done <- err
	}()
	<-inside
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	left, err := Replay(ctx, dir, func(*Entry) error { t.Error("an entry replayed twice at once"); return nil }, t.Logf)
	if left != 1 || !errors.Is(err, ErrBusy) {
		t.Errorf("while another replays: left %d, %v; want 1 and ErrBusy", left, err)
	}
	close(release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// TestLinkedOutboxRefused: an outbox committed as a link to elsewhere is
// neither written through nor read.
func TestLinkedOutboxRefused(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".atreides")
	elsewhere := t.TempDir()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(elsewhere, filepath.Join(dir, DirName)); err != nil {
		t.Fatal(err)
	}
	if err := Put(dir, entryAt(time.Now(), 0)); err == nil {
		t.Error("an entry was written through a linked outbox")
	}
	if names, _ := os.ReadDir(elsewhere); len(names) != 0 {
		t.Errorf("files appeared behind the link: %v", names)
	}
	if _, err := Waiting(dir); err == nil {
		t.Error("a linked outbox was listed")
	}
}

// TestEventsComeBackWhole: an event as an adapter decodes it comes back
// from the outbox equal in every field, so a replay sees what the hook saw.
func TestEventsComeBackWhole(t *testing.T) {
	dir := filepath.Join(t.TempDir(), ".atreides")
	payloads := []string{
		`{"session_id":"s","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"Write","tool_use_id":"t1",
		  "tool_input":{"file_path":"/p/a.go","content":"package a\n// x\n"},"tool_response":{"filePath":"/p/a.go","success":true}}`,
		`{"session_id":"s","cwd":"/p","hook_event_name":"PostToolUseFailure","tool_name":"Bash","tool_use_id":"t2",
		  "tool_input":{"command":"go test ./..."},"error":"exit 1","is_interrupt":true}`,
		`{"session_id":"s","cwd":"/p","hook_event_name":"UserPromptSubmit","prompt":"ultrawork: fix it"}`,
		`{"session_id":"s","cwd":"/p","hook_event_name":"Stop","stop_hook_active":true,"last_assistant_message":"done"}`,
	}
	var want []*event.Event
	for i, p := range payloads {
		ev, err := claude.Decode([]byte(p), "/p", time.Date(2026, 1, 2, 3, 4, 5, i, time.UTC))
		if err != nil {
			t.Fatalf("payload %d: %v", i, err)
		}
		if err := Put(dir, &Entry{ID: NewID(), Event: ev}); err != nil {
			t.Fatal(err)
		}
		want = append(want, ev)
	}
	i := 0
	_, err := Replay(context.Background(), dir, func(e *Entry) error {
		got := *e.Event
		if !got.Time.Equal(want[i].Time) {
			t.Errorf("event %d: time %v, want %v", i, got.Time, want[i].Time)
		}
		got.Time = want[i].Time
		if !reflect.DeepEqual(&got, want[i]) {
			t.Errorf("event %d:\n got %+v\nwant %+v", i, &got, want[i])
		}
		i++
		return nil
	}, t.Logf)
	if err != nil || i != len(payloads) {
		t.Fatalf("replayed %d of %d: %v", i, len(payloads), err)
	}
}
