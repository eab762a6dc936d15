package e2e

import (
	"os"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/session"
	fo "github.com/atreides-dev/atreides/test/e2e/fakeopenai"
)

// TestCodexGaps runs the Codex scenarios of issue 36's Codex holes: the
// exit status read from the rollout, and the state block after a
// compaction.
func TestCodexGaps(t *testing.T) {
	codexCLI.require(t)
	for _, sc := range []struct {
		name string
		fn   func(*testing.T)
	}{
		{"ExitCodeStrikes", codexExitStrikes},
		{"CompactionMemory", codexCompaction},
		{"DelegationLimit", codexDelegationLimit},
	} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			sc.fn(t)
		})
	}
}

// Codex 0.171.0's PostToolUse carries a command's output and no exit
// status. `test -f missing.txt` fails silently (exit 1, no output, no
// error word), so only the exit code the rollout recorded tells atreides
// it failed: the second failure in a row brings the strike warning.
func codexExitStrikes(t *testing.T) {
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{
		fo.Exec("test -f missing.txt"),
		fo.Exec("test -f missing.txt"),
		fo.Text("It is not there."),
	}})
	p.writeCodexHooks()
	p.Run("check for missing.txt")

	main := p.Fake.Main()
	if len(main) != 3 {
		t.Fatalf("got %d model requests, want 3", len(main))
	}
	const warned = "failed 2 times in a row"
	if strings.Contains(string(main[1].Raw), warned) || !strings.Contains(string(main[2].Raw), warned) {
		t.Errorf("the strike warning did not follow the second failure (after the first: %v)", strings.Contains(string(main[1].Raw), warned))
	}
}

// With a tiny auto-compaction limit and a first answer that reports 5000
// tokens, Codex compacts in the middle of the turn, firing PreCompact,
// PostCompact and then SessionStart with source "compact" (seen on
// 0.171.0): atreides's snapshot comes back as the state block, with the
// anchor the prompt made, in the first request after the compaction.
func codexCompaction(t *testing.T) {
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{
		{Call: fo.Exec("echo working").Call, Tokens: 5000},
		fo.Text("Done."),
	}})
	config, err := os.ReadFile(p.Path("../home/.codex/config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	p.WriteFile("../home/.codex/config.toml", "model_auto_compact_token_limit = 1000\n"+string(config))
	p.writeCodexHooks()
	p.Run("remember: the release branch is frozen-7\n\nwork on it")

	var compaction int
	for i, r := range p.Fake.Requests() {
		if r.Kind == fo.KindSide {
			compaction = i
			break
		}
	}
	if compaction == 0 {
		t.Fatalf("codex did not compact:\n%s", p.Fake.Summary())
	}
	var after *fo.Request
	for _, r := range p.Fake.Main() {
		if r.Seq > compaction {
			after = r
			break
		}
	}
	if after == nil {
		t.Fatalf("no model request after the compaction:\n%s", p.Fake.Summary())
	}
	blocks := after.MessagesContaining("developer", session.StateOpen)
	if len(blocks) != 1 || !strings.Contains(blocks[0], "frozen-7") {
		t.Errorf("the first request after the compaction has state blocks %q, want one with the anchor", blocks)
	}
}

// Codex 0.171.0 hooks spawn_agent (PreToolUse, tool_name "spawn_agent"),
// so atreides's delegation rules apply to it: with require_todo on and no
// open todo the spawn is refused before Codex starts the agent, and no
// subagent starts.
func codexDelegationLimit(t *testing.T) {
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{
		{Call: &fo.Call{Name: "spawn_agent", Namespace: "multi_agent_v1",
			Arguments: map[string]any{"agent_type": "worker", "message": "look around"}}},
		fo.Text("I will add a todo first."),
	}})
	p.WriteFile(".atreides/config.yaml", "delegation:\n  require_todo: true\n")
	p.writeCodexHooks()
	p.Run("delegate the survey")

	out := p.callOutput(0)
	if !strings.Contains(out, "blocked by PreToolUse hook") || !strings.Contains(out, "Delegation refused") {
		t.Errorf("spawn_agent was not refused by atreides's delegation rule: %q", out)
	}
	if strings.Contains(out, `"agent_id"`) {
		t.Errorf("the refused spawn started an agent: %q", out)
	}
}
