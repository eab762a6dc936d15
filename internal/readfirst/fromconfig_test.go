package readfirst

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/config"
)

func TestFromConfig(t *testing.T) {
	for mode, want := range map[config.ReadBeforeWrite]Mode{"off": Off, "note": Note, "block": Block} {
		c := config.Builtin()
		c.Context.ReadBeforeWrite = mode
		if got := FromConfig(c); got.Mode != want {
			t.Errorf("%s: got %+v, want mode %v", mode, got, want)
		}
	}
}
