package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestOpenCodeNestedDelegation: in the real OpenCode, a chain of child
// sessions made by the task tool (agents allowed to delegate in
// opencode.json) is held to the delegation limits at every level, as on
// Claude Code: main → general → explore, where explore's delegation back
// to general is refused as a cycle, its delegation to atreides-librarian
// (depth 3) runs, and the librarian's to atreides-stilgar (depth 4, over
// delegation.max_depth 3) is refused. Each child session is told it is
// the subagent it runs as, never the lead agent, and OpenCode's own
// explore gets the skill attached to the roster's explore.
func TestOpenCodeNestedDelegation(t *testing.T) {
	t.Parallel()
	const skillMark = "TRIAGE-SKILL-7f3a: bisect the last change first."
	task := func(id, agent, prompt string) fakeopenaichat.Reply {
		args, _ := json.Marshal(map[string]string{"description": "level work", "prompt": prompt, "subagent_type": agent})
		return fakeopenaichat.Reply{Calls: []fakeopenaichat.Call{{ID: id, Name: "task", Arguments: string(args)}}}
	}
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		n := countToolResults(r)
		switch first := firstUser(r); {
		case strings.Contains(first, "LEVEL1"):
			if n == 0 {
				return task("call_l2", "explore", "LEVEL2: look deeper.")
			}
		case strings.Contains(first, "LEVEL2"):
			switch n {
			case 0:
				return task("call_cycle", "general", "LEVEL-CYCLE: back to general.")
			case 1:
				return task("call_l3", "atreides-librarian", "LEVEL3: read the docs.")
			}
		case strings.Contains(first, "LEVEL3"):
			if n == 0 {
				return task("call_deep", "atreides-stilgar", "LEVEL4: too deep.")
			}
		case strings.Contains(first, "LEVEL4"), strings.Contains(first, "LEVEL-CYCLE"):
			return fakeopenaichat.Reply{Text: "A refused delegation ran."}
		case r.Main() && n == 0:
			return task("call_l1", "general", "LEVEL1: delegate further.")
		}
		return fakeopenaichat.Reply{Text: "Done at this level."}
	})
	allowTask := map[string]any{"permission": map[string]any{"task": "allow"}}
	cfg := fakeModelConfig(p.Fake.URL)
	cfg["agent"] = map[string]any{"general": allowTask, "explore": allowTask, "atreides-librarian": allowTask}
	// OpenCode's own limit (1.18.33: subagent_depth, 1 by default, which
	// keeps subagents from delegating at all) set past atreides's.
	cfg["subagent_depth"] = 5
	p.WriteJSON("opencode.json", cfg)
	p.WriteFile(".atreides/skills/triage/SKILL.md", "---\nname: triage\ndescription: How to triage a failure.\n---\n"+skillMark+"\n")
	p.WriteFile(".atreides/config.yaml", "agents:\n  explore:\n    skills: [triage]\n")
	p.runOC("Delegate the work.")

	if got := p.toolResult("call_cycle"); !strings.Contains(got, "would be a cycle") {
		t.Errorf("explore's delegation back to general: %q, want a cycle refused", got)
	}
	if got := p.toolResult("call_deep"); !strings.Contains(got, "over the limit of 3") {
		t.Errorf("the depth-4 delegation: %q, want it refused", got)
	}
	if got := p.toolResult("call_l3"); strings.Contains(got, "Delegation refused") {
		t.Errorf("the depth-3 delegation was refused: %q", got)
	}
	children := map[string]*fakeopenaichat.Request{}
	for _, r := range p.Fake.MainRequests() {
		first := firstUser(r)
		if strings.Contains(first, "LEVEL-CYCLE") || strings.Contains(first, "LEVEL4") {
			t.Errorf("a refused delegation ran a child session (request #%d)", r.Seq)
		}
		for _, l := range []string{"LEVEL1", "LEVEL2", "LEVEL3"} {
			if strings.Contains(first, l) && children[l] == nil {
				children[l] = r
			}
		}
	}
	for _, l := range []string{"LEVEL1", "LEVEL2", "LEVEL3"} {
		r := children[l]
		if r == nil {
			t.Fatalf("no request of the %s child session:\n%s", l, p.Fake.Summary())
		}
		if sys := r.System(); !strings.Contains(sys, "a subagent working for") || strings.Contains(sys, "You are Muad'Dib, the lead agent") {
			t.Errorf("%s child's system prompt does not say it is a subagent:\n%s", l, sys)
		}
	}
	if !strings.Contains(children["LEVEL2"].Body(), skillMark) {
		t.Errorf("OpenCode's own explore did not get the roster explore's skill")
	}
	if strings.Contains(children["LEVEL1"].Body(), skillMark) {
		t.Errorf("the skill reached general, which has none attached")
	}
}

// TestOpenCodePrimaryAgentSkills: the real OpenCode's main session runs
// as its own build agent (no --agent given: only the user message OpenCode
// made names it), and the skill attached to the roster's build reaches the
// model once, in the conversation of that turn.
func TestOpenCodePrimaryAgentSkills(t *testing.T) {
	t.Parallel()
	const skillMark = "IMPL-SKILL-44e1: write the test first."
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		if countToolResults(r) == 0 {
			return fakeopenaichat.Bash("call_ls", "ls")
		}
		return fakeopenaichat.Reply{Text: "Done."}
	})
	p.WriteFile(".atreides/skills/impl/SKILL.md", "---\nname: impl\ndescription: How to implement.\n---\n"+skillMark+"\n")
	p.WriteFile(".atreides/config.yaml", "agents:\n  build:\n    skills: [impl]\n")
	p.runOC("List the files.")
	mains := p.Fake.MainRequests()
	if len(mains) < 2 {
		t.Fatalf("%d main requests, want 2:\n%s", len(mains), p.Fake.Summary())
	}
	for _, r := range mains {
		if n := strings.Count(r.Body(), skillMark); n != 1 || strings.Contains(r.System(), skillMark) {
			t.Errorf("request #%d carries the build skill %d times (in the system prompt: %v), want once in the conversation",
				r.Seq, n, strings.Contains(r.System(), skillMark))
		}
	}
}
