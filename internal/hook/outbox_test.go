package hook

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/outbox"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// An event replayed from the outbox has its host's facts from this
// binary's registry, whatever facts it was queued with: the outbox is a
// file, and facts decide what handlers do.
func TestReplayAttachesHostFacts(t *testing.T) {
	dir := servedProject(t)
	sd := project.StateDir(dir)
	if err := os.MkdirAll(sd, 0o755); err != nil {
		t.Fatal(err)
	}
	forged := &event.HostFacts{ToolPrefix: "forged_", ReadsBeforeWrite: false}
	ev := &event.Event{Kind: event.Stop, Host: claude.Host, HostEvent: "Stop", SessionID: "s1", ProjectDir: dir, Time: time.Now(), Facts: forged}
	if err := outbox.Put(sd, &outbox.Entry{ID: "e1", Event: ev, Why: "test"}); err != nil {
		t.Fatal(err)
	}
	var got *event.HostFacts
	probe := engine.Handler{Name: "probe", Kinds: []event.Kind{event.Stop}, Groups: state.NoGroups,
		Handle: func(c *engine.Call) (event.Result, error) {
			got = c.Event.HostFacts()
			return event.Result{}, nil
		}}
	left, err := replayOutbox(context.Background(), sd, engine.StoreLoader{Store: store.Open(sd)}, &hookEnv{log: project.NewLog(sd)}, func() []engine.Handler { return []engine.Handler{probe} }, nil, nil)
	if left != 0 || err != nil {
		t.Fatalf("replay: %d left, %v", left, err)
	}
	if got != &claude.Facts {
		t.Errorf("the replayed event's facts are %+v, want Claude Code's from the registry", got)
	}
}
