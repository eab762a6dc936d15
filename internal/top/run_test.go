package top

import (
	"context"
	"errors"
	"os"
	"testing"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/view"
)

// noSource fails the test if top reads anything.
type noSource struct{ t *testing.T }

func (s noSource) Snapshot(context.Context, string) (*view.Snapshot, error) {
	s.t.Error("a snapshot was taken without a terminal")
	return nil, errors.New("no")
}

func (s noSource) Watch(context.Context, string) <-chan struct{} {
	s.t.Error("the project was watched without a terminal")
	return nil
}

// TestRunNeedsTerminal: atreides-ui top run with pipes refuses before it
// reads or watches anything.
func TestRunNeedsTerminal(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	err = Run(context.Background(), Options{Roots: []string{t.TempDir()}, In: r, Out: w}, noSource{t}, func(string) audit.Reader {
		t.Error("the trail was opened without a terminal")
		return nil
	})
	if !errors.Is(err, ErrNoTerminal) {
		t.Fatalf("Run with pipes: %v, want ErrNoTerminal", err)
	}
}
