package state

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestProjectInStore: an update in a transaction of its own is read back
// by the next read; an update whose fn fails saves nothing.
func TestProjectInStore(t *testing.T) {
	st, _ := testStore(t)
	ctx := context.Background()
	if err := UpdateProjectIn(ctx, st, func(p *Project) error { p.Pruned = t0; return nil }); err != nil {
		t.Fatal(err)
	}
	refused := errors.New("refused")
	if err := UpdateProjectIn(ctx, st, func(p *Project) error { p.Pruned = t0.Add(time.Hour); return refused }); !errors.Is(err, refused) {
		t.Fatalf("update with a failing fn = %v, want its error", err)
	}
	p, err := ReadProject(ctx, st)
	if err != nil {
		t.Fatal(err)
	}
	if !p.Pruned.Equal(t0) {
		t.Errorf("pruned %v, want %v (the failed update saved nothing)", p.Pruned, t0)
	}
}
