package session

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/all"
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

// TestIdentityNamesNoRoster: the identity is one line whatever the
// roster: each host lists its installed agents to the model itself, and
// the strikes' escalation names the oracle when it is needed.
func TestIdentityNamesNoRoster(t *testing.T) {
	o := testOptions()
	o.Prefix = true
	got := identity(o)
	if strings.Count(got, "\n") != 1 || strings.Contains(got, "Stilgar") || strings.Contains(got, "subagent_type") || !strings.Contains(got, "Begin every reply with") {
		t.Errorf("identity: %q", got)
	}
}

// TestRulesNotInjectedWhereHostLoadsThem: for every host, AGENTS.md goes
// into the session start only when the host does not load it itself: a
// host that reads AGENTS.md (Codex, OpenCode, ...) gets no copy, nor does
// one whose own instruction file imports it (CLAUDE.md with @AGENTS.md).
func TestRulesNotInjectedWhereHostLoadsThem(t *testing.T) {
	const rules = "# Rules\n- MARK-RULES-TEXT\n"
	for name, facts := range all.Facts() {
		loads := slices.Contains(facts.Instructions, "AGENTS.md")
		for _, importer := range append([]string{""}, facts.Instructions...) {
			if importer == "AGENTS.md" {
				continue
			}
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(rules), 0o644)
			if importer != "" {
				os.MkdirAll(filepath.Dir(filepath.Join(dir, importer)), 0o755)
				os.WriteFile(filepath.Join(dir, importer), []byte("# Ours\nSee @AGENTS.md for the rules.\n"), 0o644)
			}
			c := startCall(t, dir, &state.Project{})
			c.Event.Host, c.Event.Facts = name, facts
			r, _ := startContext(c, func() Options { return testOptions() })
			got := strings.Contains(event.JoinEntries(r.Context), "MARK-RULES-TEXT")
			if want := !loads && importer == ""; got != want {
				t.Errorf("%s, AGENTS.md imported by %q: rules injected %v, want %v", name, importer, got, want)
			}
		}
	}
}
