package e2e

import (
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// rulesProject is the nested-rules layout every host's scenario reads:
// the root's rules (session start's), two nested levels, a conditional
// rule for Go files in each host-neutral directory, and the files read.
var rulesProject = map[string]string{
	"AGENTS.md":              "# Rules\nROOT-RULE-MARK\n",
	"pkg/AGENTS.md":          "PKG-RULE-MARK\n",
	"pkg/a/AGENTS.md":        "PKGA-RULE-MARK\n",
	"pkg/a/x.go":             "package a\n",
	"pkg/a/y.go":             "package a\n",
	".cursor/rules/go.mdc":   "---\ndescription: Go\nglobs: *.go\nalwaysApply: false\n---\nCURSOR-GO-MARK\n",
	".atreides/rules/sql.md": "---\npaths: ['**/*.sql']\n---\nSQL-RULE-MARK\n",
}

// rulesMarks counts each mark in one request's text.
func rulesMarks(text string, marks ...string) map[string]int {
	n := map[string]int{}
	for _, m := range marks {
		n[m] = strings.Count(text, m)
	}
	return n
}

// assertOnceInOrder checks that each mark is in text exactly once, in
// the order given.
func assertOnceInOrder(t *testing.T, what, text string, marks ...string) {
	t.Helper()
	last := -1
	for _, m := range marks {
		if c := strings.Count(text, m); c != 1 {
			t.Errorf("%s: %s appears %d times, want once", what, m, c)
			continue
		}
		i := strings.Index(text, m)
		if i < last {
			t.Errorf("%s: %s comes before the rules of its parent directory", what, m)
		}
		last = i
	}
}

// TestClaudeNestedRules: in a project with a CLAUDE.md, Claude Code leaves
// AGENTS.md out (its default instructionFiles mode), so atreides brings
// them: reading pkg/a/x.go puts pkg/AGENTS.md and then pkg/a/AGENTS.md
// into the next request, once; a second read in pkg/a does not repeat
// them. .claude/rules is Claude Code's own (it loads paths: rules itself),
// so its rule is there once, not twice; the Cursor rule for *.go is
// atreides's, once; the SQL rule matches nothing read.
func TestClaudeNestedRules(t *testing.T) {
	requireAtreides(t)
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(readTool("pkg/a/x.go")),
		fa.Call(readTool("pkg/a/y.go")),
		fa.Text("done"),
	}})
	for rel, c := range rulesProject {
		p.WriteFile(rel, c, 0o644)
	}
	p.WriteFile("CLAUDE.md", "CLAUDE-ROOT-MARK\n", 0o644)
	p.WriteFile(".claude/rules/go.md", "---\npaths:\n  - \"**/*.go\"\n---\nCLAUDE-GO-MARK\n", 0o644)
	p.InstallAtreides()
	p.RunClaude("read the package", RunOpts{})

	main := p.Fake.Main()
	if len(main) != 3 {
		t.Fatalf("got %d main requests, want 3", len(main))
	}
	if n := rulesMarks(main[0].AllText(), "PKG-RULE-MARK", "PKGA-RULE-MARK", "CURSOR-GO-MARK"); n["PKG-RULE-MARK"]+n["PKGA-RULE-MARK"]+n["CURSOR-GO-MARK"] != 0 {
		t.Errorf("rules before any read: %v", n)
	}
	for i, r := range main[1:] {
		text := r.AllText()
		assertOnceInOrder(t, "request "+string(rune('1'+i)), text, "PKG-RULE-MARK", "PKGA-RULE-MARK")
		if c := strings.Count(text, "CLAUDE-GO-MARK"); c != 1 {
			t.Errorf("request %d: Claude Code's own .claude/rules rule appears %d times, want once (its own)", i+1, c)
		}
		if c := strings.Count(text, "CURSOR-GO-MARK"); c != 1 {
			t.Errorf("request %d: the Cursor rule for *.go appears %d times, want once", i+1, c)
		}
		if strings.Contains(text, "SQL-RULE-MARK") {
			t.Errorf("request %d: the SQL rule was injected for a Go file", i+1)
		}
	}
	if !main[1].Contains("Project rules for files under pkg/a/ (pkg/a/AGENTS.md, added by atreides)") {
		t.Error("pkg/a/AGENTS.md did not come from atreides")
	}
}

// TestClaudeNestedRulesHostLoads: without a CLAUDE.md, the pinned Claude
// Code attaches the nested AGENTS.md to a read itself; atreides adds them
// not a second time.
func TestClaudeNestedRulesHostLoads(t *testing.T) {
	requireAtreides(t)
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(readTool("pkg/a/x.go")),
		fa.Call(readTool("pkg/a/y.go")),
		fa.Text("done"),
	}})
	for rel, c := range rulesProject {
		p.WriteFile(rel, c, 0o644)
	}
	p.InstallAtreides()
	p.RunClaude("read the package", RunOpts{})

	main := p.Fake.Main()
	if len(main) != 3 {
		t.Fatalf("got %d main requests, want 3", len(main))
	}
	for i, r := range main[1:] {
		assertOnceInOrder(t, "request "+string(rune('1'+i)), r.AllText(), "PKG-RULE-MARK", "PKGA-RULE-MARK")
		if r.Contains("pkg/a/AGENTS.md, added by atreides") {
			t.Errorf("request %d: atreides injected what Claude Code loads itself", i+1)
		}
	}
}
