package comments

import (
	"testing"

	conf "github.com/atreides-dev/atreides/internal/config"
)

func TestFromConfig(t *testing.T) {
	c := conf.Builtin()
	if got, want := FromConfig(c), (Options{Enabled: true, RatioPercent: 35, MinLines: 10}); got != want {
		t.Errorf("built-in: got %+v, want %+v", got, want)
	}
	c.Context.Comments = conf.Comments{RatioPercent: 50, MinLines: 3}
	if got, want := FromConfig(c), (Options{RatioPercent: 50, MinLines: 3}); got != want {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
