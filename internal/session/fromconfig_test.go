package session

import (
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
)

// FromConfig maps the session section, the monitor's and context.work's;
// WithRoster names the roster's subagents and its oracle.
func TestFromConfig(t *testing.T) {
	c := config.Builtin()
	c.Guard.Enabled = false
	c.Session.Identity = config.Identity{Name: "Paul", Prefix: true}
	c.Session.Strikes = config.Strikes{Warn: 4, Escalate: 6}
	c.Session.Memory.StaleHours = 2
	c.Context.Monitor.WindowTokens = 1000
	c.Context.Work.VerifyBeforeStop = false
	c.Context.Work.Classes.Chore = "tidy"
	o := FromConfig(c)
	if !o.GuardOff || o.Persona != "Paul" || !o.Prefix || o.Announce || o.WarnAt != 4 || o.EscalateAt != 6 ||
		o.StaleAfter != 2*time.Hour || o.ContextWindow != 1000 || o.VerifyBeforeStop || o.Classes["chore"] != "tidy" ||
		o.Guidance["intent"] != c.Session.Phases.Intent || o.Agents != nil || o.Oracle != "" {
		t.Errorf("FromConfig: %+v", o)
	}
	r, err := agents.FromConfig(config.Builtin().Agents)
	if err != nil {
		t.Fatal(err)
	}
	o = o.WithRoster(r)
	if o.Oracle != "atreides-stilgar" || len(o.Agents) != 5 {
		t.Fatalf("WithRoster: oracle %q, agents %+v", o.Oracle, o.Agents)
	}
	if a, _ := o.agent("atreides-stilgar"); a.Role != "oracle: diagnosis and hard decisions" {
		t.Errorf("the oracle's role words: %q", a.Role)
	}
}
