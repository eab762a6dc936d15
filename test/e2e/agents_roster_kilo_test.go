package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestRosterKilo: the plugin gives the roster to Kilo Code as it does to
// OpenCode: the task tool offers atreides-stilgar with its description,
// and a task call with subagent_type "atreides-stilgar" runs a child
// session whose system prompt is Stilgar's.
func TestRosterKilo(t *testing.T) {
	t.Parallel()
	task, _ := json.Marshal(map[string]string{"description": "consult the oracle", "prompt": "DIAGNOSE: why does it fail?", "subagent_type": "atreides-stilgar"})
	p := newKiloProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		if strings.Contains(r.System(), "You are Stilgar, the oracle") {
			return fakeopenaichat.Reply{Text: "Diagnosis: the directory is missing."}
		}
		if countToolResults(r) == 0 {
			return fakeopenaichat.Reply{Calls: []fakeopenaichat.Call{{ID: "call_task", Name: "task", Arguments: string(task)}}}
		}
		return fakeopenaichat.Reply{Text: "Done."}
	})
	p.Atreides("install", "kilo", "--project", "--offline")
	p.runKilo("Find out why it fails.")

	mains := p.Fake.MainRequests()
	if len(mains) == 0 {
		t.Fatal("no model request reached the fake")
	}
	for _, s := range []string{"atreides-stilgar", "Oracle: read-only adviser", "atreides-explore"} {
		if !strings.Contains(mains[0].Body(), s) {
			t.Errorf("the first request does not offer %q", s)
		}
	}
	child := false
	for _, r := range mains {
		child = child || strings.Contains(r.System(), "You are Stilgar, the oracle")
	}
	if !child {
		t.Errorf("no request of a stilgar child session:\n%s", p.Fake.Summary())
	}
}
