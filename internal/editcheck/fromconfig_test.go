package editcheck

import (
	"reflect"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
)

func TestFromConfig(t *testing.T) {
	c := config.Builtin()
	c.Context.Checks = config.Checks{BudgetMS: 2500, Run: []config.Check{
		{Globs: []config.Glob{"**/*.go"}, Command: "gofmt -l {file}", TimeoutMS: 700, FailOnOutput: true},
	}}
	got := FromConfig(c)
	want := Options{Budget: 2500 * time.Millisecond, Checks: []Check{
		{Globs: []string{"**/*.go"}, Command: "gofmt -l {file}", Timeout: 700 * time.Millisecond, FailOnOutput: true},
	}}
	if got.Judge != nil || got.Budget != want.Budget || !reflect.DeepEqual(got.Checks, want.Checks) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
