package rulefiles

import (
	"reflect"
	"testing"

	"github.com/atreides-dev/atreides/internal/config"
)

// The rules file is the session's: the root's rules come from it.
func TestFromConfig(t *testing.T) {
	c := config.Builtin()
	c.Context.Rules = config.ContextRules{Readme: true, Budget: 900, Dirs: []string{"rules"}}
	c.Session.Rules.File = "RULES.md"
	want := Options{File: "RULES.md", Readme: true, Budget: 900, Dirs: []string{"rules"}}
	if got := FromConfig(c); !reflect.DeepEqual(got, want) {
		t.Errorf("got %+v, want %+v", got, want)
	}
}
