package cli

import (
	"github.com/atreides-dev/atreides/internal/comments"
	"github.com/atreides-dev/atreides/internal/delegation"
	"reflect"
	"testing"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/rulefiles"
	"github.com/atreides-dev/atreides/internal/session"
)

// TestBuiltinSettings: without a config file a hook skips YAML entirely and
// uses Go-side defaults; they must be what the documented defaults say.
func TestBuiltinSettings(t *testing.T) {
	cfg, err := config.Load(config.Paths{})
	if err != nil {
		t.Fatal(err)
	}
	got, want := sessionOptions(&cfg.Session, &cfg.Context.Monitor), session.DefaultOptions()
	workOptions(&got, &cfg.Context.Work)
	r, err := agents.FromConfig(cfg.Agents)
	if err != nil {
		t.Fatal(err)
	}
	rosterOptions(&got, r)
	if len(got.RulesRequired) == 0 && len(want.RulesRequired) == 0 {
		got.RulesRequired, want.RulesRequired = nil, nil // none either way
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("session defaults differ:\nconfig: %+v\nGo:     %+v", got, want)
	}
	if got := cfg.Context; got.ReadBeforeWrite != builtinContext.ReadBeforeWrite || got.Checks.BudgetMS != builtinContext.Checks.BudgetMS || len(got.Checks.Run) != 0 {
		t.Errorf("context defaults differ:\nconfig: %+v\nGo:     %+v", got, builtinContext)
	}
	if got, want := commentsOptions(&cfg.Context.Comments), comments.DefaultOptions(); got != want {
		t.Errorf("comment checker defaults differ:\nconfig: %+v\nGo:     %+v", got, want)
	}
	if got, want := rulesOptions(cfg), rulefiles.DefaultOptions(); !reflect.DeepEqual(got, want) {
		t.Errorf("context.rules defaults differ:\nconfig: %+v\nGo:     %+v", got, want)
	}
	if got, want := delegation.FromConfig(&cfg.Delegation), delegation.DefaultOptions(); !reflect.DeepEqual(got, want) {
		t.Errorf("delegation defaults differ:\nconfig: %+v\nGo:     %+v", got, want)
	}
	if governanceOptions(&cfg.Governance).Enabled {
		t.Error("governance is on in the documented defaults, but the no-file path assumes it is off")
	}
	if p, err := policy.FromConfig(cfg); err != nil || p != guard.DefaultPolicy() {
		t.Errorf("the default configuration does not give the default guard policy: %v", err)
	}

	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir+"/xdg")
	s := newSettings(dir)
	if !s.builtin() {
		t.Fatal("no config file, but settings are not the built-in ones")
	}
}
