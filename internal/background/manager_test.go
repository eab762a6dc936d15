package background

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
)

var t0 = time.Date(2026, 11, 24, 10, 0, 0, 0, time.UTC)

func TestScheduleFIFOPerKey(t *testing.T) {
	var b bgtasks.Background
	for i, key := range []string{"a", "a", "b", "a", "b", "b"} {
		Add(&b, bgtasks.Task{Parent: "s", Key: key, Prompt: fmt.Sprint(i)}, t0.Add(time.Duration(i)*time.Second))
	}
	l := Limits{Default: 1, Keys: map[string]int{"b": 2}}
	if got, want := Schedule(&b, l, t0), []string{"bg-1", "bg-3", "bg-5"}; !slices.Equal(got, want) {
		t.Fatalf("first schedule = %v, want %v", got, want)
	}
	if got := Schedule(&b, l, t0); len(got) != 0 {
		t.Fatalf("nothing may start while the limits are full, got %v", got)
	}
	// A failure releases its slot like a success.
	if ok, err := Finish(&b, "bg-1", Failed, "", "boom", t0); !ok || err != nil {
		t.Fatal(ok, err)
	}
	if got, want := Schedule(&b, l, t0), []string{"bg-2"}; !slices.Equal(got, want) {
		t.Fatalf("after a failure = %v, want %v (the oldest queued of key a)", got, want)
	}
	// A cancelled queued task never starts; a cancelled running one frees its slot.
	if running, err := Cancel(&b, "bg-4", t0); running || err != nil {
		t.Fatal(running, err)
	}
	if running, err := Cancel(&b, "bg-3", t0); !running || err != nil {
		t.Fatal(running, err)
	}
	if got, want := Schedule(&b, l, t0), []string{"bg-6"}; !slices.Equal(got, want) {
		t.Fatalf("after cancels = %v, want %v", got, want)
	}
}

func TestFinishIsOnce(t *testing.T) {
	var b bgtasks.Background
	Add(&b, bgtasks.Task{Key: "k"}, t0)
	Schedule(&b, Limits{Default: 5}, t0)
	if _, err := Cancel(&b, "bg-1", t0); err != nil {
		t.Fatal(err)
	}
	if ok, err := Finish(&b, "bg-1", Completed, "late", "", t0); ok || err != nil {
		t.Fatalf("a finish after a cancel changed the task: %v %v", ok, err)
	}
	if b.Tasks[0].Status != Cancelled || b.Tasks[0].Result != "" {
		t.Fatalf("task = %+v", b.Tasks[0])
	}
	if _, err := Finish(&b, "bg-9", Completed, "", "", t0); err == nil {
		t.Fatal("finishing an unknown task did not fail")
	}
}

func TestNotificationIsOneBatch(t *testing.T) {
	var b bgtasks.Background
	Add(&b, bgtasks.Task{Parent: "p", Key: "k"}, t0)
	Add(&b, bgtasks.Task{Parent: "p", Key: "k"}, t0)
	Add(&b, bgtasks.Task{Parent: "other", Key: "k"}, t0)
	Schedule(&b, Limits{Default: 5}, t0)
	Finish(&b, "bg-1", Completed, "one", "", t0)
	if got := TakeNotification(&b, "p", ""); got != nil {
		t.Fatalf("notified while bg-2 runs: %v", got)
	}
	Finish(&b, "bg-2", Completed, "two", "", t0)
	got := TakeNotification(&b, "p", "")
	if len(got) != 2 || got[0].ID != "bg-1" || got[1].ID != "bg-2" {
		t.Fatalf("batch = %v", got)
	}
	if again := TakeNotification(&b, "p", ""); again != nil {
		t.Fatalf("notified twice: %v", again)
	}
	if b.Task("bg-3").Notified {
		t.Fatal("another session's task was marked told")
	}
}

func TestPruneKeepsPending(t *testing.T) {
	var b bgtasks.Background
	for range bgtasks.Max + 50 {
		Add(&b, bgtasks.Task{Key: "k"}, t0)
	}
	if len(b.Tasks) != bgtasks.Max+50 {
		t.Fatalf("queued tasks were forgotten: %d left", len(b.Tasks))
	}
	Schedule(&b, Limits{Default: 1000}, t0)
	for i := range b.Tasks {
		Finish(&b, b.Tasks[i].ID, Completed, "", "", t0)
	}
	TakeNotification(&b, "", "")
	Add(&b, bgtasks.Task{Key: "k"}, t0)
	if len(b.Tasks) != bgtasks.Max {
		t.Fatalf("%d tasks kept, want %d", len(b.Tasks), bgtasks.Max)
	}
}

func TestFinishBoundsResult(t *testing.T) {
	var b bgtasks.Background
	Add(&b, bgtasks.Task{Key: "k"}, t0)
	Schedule(&b, Limits{}, t0)
	long := make([]byte, MaxResult+100)
	for i := range long {
		long[i] = 'x'
	}
	long[len(long)-1] = 'E'
	Finish(&b, "bg-1", Completed, string(long), "", t0)
	r := b.Tasks[0].Result
	if len(r) > MaxResult+len("…") || r[len(r)-1] != 'E' {
		t.Fatalf("result kept %d bytes, ending %q", len(r), r[len(r)-1:])
	}
}
