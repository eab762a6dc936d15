package outputs

import (
	"testing"

	"github.com/atreides-dev/atreides/internal/config"
)

func TestFromConfig(t *testing.T) {
	c := config.Builtin()
	c.Context.Output = config.ContextOutput{Shell: 1, Search: 2, Fetch: 3, MCP: 4, KeepFiles: 5, KeepMiB: 6}
	got := FromConfig(c)
	want := Options{Shell: 1, Search: 2, Fetch: 3, MCP: 4, Keep: Limits{Files: 5, Bytes: 6 << 20}}
	if got.Shell != want.Shell || got.Search != want.Search || got.Fetch != want.Fetch || got.MCP != want.MCP || got.Keep != want.Keep || got.Room != nil {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
