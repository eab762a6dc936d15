package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// TestRulesHostInstructions: a project without AGENTS.md but with the
// host's own instruction file has rules already (the host reads it): no
// warning, no note, no default rules. Without either, the user is told
// once, not at every session start.
func TestRulesHostInstructions(t *testing.T) {
	opts := func() Options { return testOptions() }
	tests := []struct {
		name, host, file string
		warn, defaults   bool
	}{
		{"claude with CLAUDE.md", "claude", "CLAUDE.md", false, false},
		{"claude with .claude/CLAUDE.md", "claude", ".claude/CLAUDE.md", false, false},
		{"claude with GEMINI.md only", "claude", "GEMINI.md", true, true},
		{"gemini with GEMINI.md", "gemini", "GEMINI.md", false, false},
		{"opencode with CLAUDE.md", "opencode", "CLAUDE.md", false, false},
		{"codex with CLAUDE.md", "codex", "CLAUDE.md", true, true},
		{"claude with nothing", "claude", "", true, true},
	}
	for _, tt := range tests {
		dir := t.TempDir()
		if tt.file != "" {
			os.MkdirAll(filepath.Dir(filepath.Join(dir, tt.file)), 0o755)
			os.WriteFile(filepath.Join(dir, tt.file), []byte("# Project\n- be nice\n"), 0o644)
		}
		p := &state.Project{}
		c := startCall(t, dir, p)
		c.Event.Host, c.Event.Facts = tt.host, testHosts[tt.host]
		r, _ := startContext(c, opts)
		if got := r.Warning != ""; got != tt.warn {
			t.Errorf("%s: warning %q, want one: %v", tt.name, r.Warning, tt.warn)
		}
		if got := strings.Contains(event.JoinEntries(r.Context), "Rules (atreides defaults)"); got != tt.defaults {
			t.Errorf("%s: default rules injected %v, want %v:\n%s", tt.name, got, tt.defaults, event.JoinEntries(r.Context))
		}
		if strings.Contains(event.JoinEntries(r.Context), "not found") || strings.Contains(event.JoinEntries(r.Context), "Note:") {
			t.Errorf("%s: a missing rules file is no note for the agent:\n%s", tt.name, event.JoinEntries(r.Context))
		}
		c = startCall(t, dir, p)
		c.Event.Host, c.Event.Facts = tt.host, testHosts[tt.host]
		if again, _ := startContext(c, opts); again.Warning != "" {
			t.Errorf("%s: warned again at the next session start: %q", tt.name, again.Warning)
		}
	}
}

// TestRulesBrokenWarnsOnce: a rules file that fails its checks is noted
// for the agent every time but told to the user only when the finding is
// new.
func TestRulesBrokenWarnsOnce(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte("no heading\n"), 0o644)
	p := &state.Project{}
	opts := func() Options { return testOptions() }
	first, _ := startContext(startCall(t, dir, p), opts)
	second, _ := startContext(startCall(t, dir, p), opts)
	if first.Warning == "" || second.Warning != "" {
		t.Errorf("warnings %q then %q, want one then none", first.Warning, second.Warning)
	}
	if !strings.Contains(event.JoinEntries(second.Context), "Note: AGENTS.md: no markdown heading") {
		t.Errorf("the agent is not told why it gets the defaults:\n%s", event.JoinEntries(second.Context))
	}
}

// TestRulesLinks: AGENTS.md linked to another file of the project is read
// there; linked out of the project it is refused, so the target never
// reaches the model.
func TestRulesLinks(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.md")
	os.WriteFile(outside, []byte("# Secret\nSECRET-TEXT\n"), 0o644)
	for _, tt := range []struct {
		name, target, want string
		problem            bool
	}{
		{"inside", "CLAUDE.md", "- shared rules", false},
		{"inside, relative dir", "docs/RULES.md", "- shared rules", false},
		{"outside", outside, "", true},
	} {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, "docs"), 0o755)
		for _, f := range []string{"CLAUDE.md", "docs/RULES.md"} {
			os.WriteFile(filepath.Join(dir, f), []byte("# Rules\n- shared rules\n"), 0o644)
		}
		target := tt.target
		if !filepath.IsAbs(target) {
			target = filepath.Join(dir, target)
		}
		if err := os.Symlink(target, filepath.Join(dir, "AGENTS.md")); err != nil {
			t.Fatal(err)
		}
		c, _ := loadRules(dir, nil, testOptions())
		if got := len(c.Problems) > 0; got != tt.problem || !strings.Contains(c.Text, tt.want) || strings.Contains(c.Text, "SECRET") {
			t.Errorf("%s: problems %q, text %q", tt.name, c.Problems, c.Text)
		}
	}
}

// TestIdentityNamesHostAgents: the roster's subagents are named as each
// host starts them, under the names atreides installs them by (on
// OpenCode too, whose own build and plan are primary agents: atreides's
// are atreides-build and atreides-plan beside them).
func TestIdentityNamesHostAgents(t *testing.T) {
	renamed := testOptions()
	renamed.Agents = []Agent{{ID: "scout", Name: "Scout", Role: "codebase search"}}
	tests := []struct {
		host string
		o    Options
		want []string
		not  []string
	}{
		{"claude", testOptions(), []string{`Stilgar (oracle: diagnosis and hard decisions; the Agent tool with subagent_type "atreides-stilgar")`, `Explore (codebase search; the Agent tool with subagent_type "atreides-explore")`, "Librarian", "Build", "Plan ("}, []string{`"stilgar"`, `"explore"`}},
		{"opencode", testOptions(), []string{`Stilgar (oracle: diagnosis and hard decisions; the task tool with subagent_type "atreides-stilgar")`, "Explore (", `Build (implementation; the task tool with subagent_type "atreides-build")`, `subagent_type "atreides-plan"`}, []string{`"build"`, `"plan"`}},
		{"gemini", testOptions(), []string{`the invoke_agent tool with agent_name "atreides-stilgar"`}, nil},
		{"codex", testOptions(), []string{`the spawn_agent tool with agent_type "atreides-stilgar"`}, nil},
		{"unknown", testOptions(), nil, []string{"Agents you can delegate to"}},
		{"claude", renamed, []string{`Scout (codebase search; the Agent tool with subagent_type "scout")`}, []string{"Stilgar"}},
	}
	for _, tt := range tests {
		got := identity(tt.o, testHosts[tt.host])
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: identity lacks %q: %s", tt.host, w, got)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(got, n) {
				t.Errorf("%s: identity names %q: %s", tt.host, n, got)
			}
		}
	}
}
