package agents

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/config"
)

func load(t *testing.T, project string) map[string]config.Agent {
	t.Helper()
	dir := t.TempDir()
	var p config.Paths
	if project != "" {
		p.Project = filepath.Join(dir, "config.yaml")
		if err := os.WriteFile(p.Project, []byte(project), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := config.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	return c.Agents
}

// TestRosterFromConfig: the defaults give the six agents, the lead first;
// a project file changes one field, adds an agent, turns one off, and an
// incomplete agent is an error naming it while the rest still load.
func TestRosterFromConfig(t *testing.T) {
	tests := []struct {
		name, yaml string
		ids        string
		err        string
		check      func(t *testing.T, r Roster)
	}{
		{name: "defaults", ids: "muaddib build explore librarian plan stilgar", check: func(t *testing.T, r Roster) {
			o, ok := r.Oracle()
			if !ok || o.ID != "stilgar" || o.Tools != ReadOnly || o.Mode != Subagent {
				t.Errorf("oracle = %+v", o)
			}
			if a, _ := r.Get("librarian"); a.Tools != ReadWeb {
				t.Errorf("librarian tools = %s", a.Tools)
			}
			if a, _ := r.Get("plan"); a.Tools != PlansOnly {
				t.Errorf("plan tools = %s", a.Tools)
			}
			if len(r.Subagents()) != 5 {
				t.Errorf("subagents = %d", len(r.Subagents()))
			}
		}},
		{name: "override one field", yaml: "agents:\n  stilgar:\n    model: {claude: opus}\n", ids: "muaddib build explore librarian plan stilgar", check: func(t *testing.T, r Roster) {
			a, _ := r.Get("stilgar")
			if a.ModelFor("claude") != "opus" || a.ModelFor("gemini") != "" || !strings.HasPrefix(a.Prompt, "You are Stilgar") {
				t.Errorf("stilgar = %+v", a)
			}
		}},
		{name: "disable and add", yaml: "agents:\n  plan:\n    enabled: false\n  scout:\n    enabled: true\n    description: d\n    prompt: p\n", ids: "muaddib build explore librarian scout stilgar", check: func(t *testing.T, r Roster) {
			a, _ := r.Get("scout")
			if a.Name != "scout" || a.Mode != Subagent || a.Tools != ReadOnly || a.Role != "other" {
				t.Errorf("scout defaults = %+v", a)
			}
		}},
		{name: "no oracle", yaml: "agents:\n  stilgar:\n    enabled: false\n", ids: "muaddib build explore librarian plan", check: func(t *testing.T, r Roster) {
			if _, ok := r.Oracle(); ok {
				t.Error("an oracle without stilgar")
			}
		}},
		{name: "incomplete", yaml: "agents:\n  half:\n    enabled: true\n    description: d\n  Bad:\n    enabled: true\n    prompt: p\n    description: d\n",
			ids: "muaddib build explore librarian plan stilgar", err: "agents.Bad needs an id of lowercase letters, digits, - and _ starting with a letter, at most 55 bytes (or enabled: false)\nagents.half needs a prompt (or enabled: false)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := FromConfig(load(t, tt.yaml))
			if got := errString(err); got != tt.err {
				t.Errorf("error:\n%s\nwant:\n%s", got, tt.err)
			}
			var ids []string
			for _, a := range r {
				ids = append(ids, a.ID)
			}
			if got := strings.Join(ids, " "); got != tt.ids {
				t.Errorf("ids = %s, want %s", got, tt.ids)
			}
			if tt.check != nil {
				tt.check(t, r)
			}
		})
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// TestLoadSkills: .atreides/skills wins over a host's folder, a host's
// folder is the fallback, names are read once, and an unknown or
// malformed name says where it looked.
func TestLoadSkills(t *testing.T) {
	root := t.TempDir()
	write := func(rel, s string) {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".atreides/skills/go/SKILL.md", "---\nname: go\ndescription: Go style\n---\nours\n")
	write(".claude/skills/go/SKILL.md", "---\nname: go\n---\ntheirs\n")
	write(".claude/skills/sql/SKILL.md", "no front matter\n")
	got, err := LoadSkills(root, []string{"go", "sql", "go"}, ".claude/skills")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].Body != "ours" || got[0].Path != ".atreides/skills/go/SKILL.md" || got[1].Name != "sql" || got[1].Path != ".claude/skills/sql/SKILL.md" {
		t.Errorf("skills = %+v", got)
	}
	_, err = LoadSkills(root, []string{"nope", "../etc"}, ".claude/skills")
	for _, want := range []string{`skill "nope" not found (looked for .atreides/skills/nope/SKILL.md, .claude/skills/nope/SKILL.md below ` + root + ")", `skill "../etc": not a skill name`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error %v lacks %q", err, want)
		}
	}
}

// TestSkillEntries: one entry per skill and agent run, marked once, within
// the budget; what does not fit is named instead.
func TestSkillEntries(t *testing.T) {
	skills := []Skill{{Name: "a", Body: strings.Repeat("x", 50), Path: "p/a"}, {Name: "b", Body: strings.Repeat("y", 100), Path: "p/b"}}
	es := skillEntries("agent1", skills, 80)
	if len(es) != 2 || es[0].ID != "agent1:a" || !es[0].Once || !strings.Contains(es[1].Text, "b (p/b)") {
		t.Errorf("entries = %+v", es)
	}
}

// FuzzParseSkill: any input either fails or yields a valid name and a
// trimmed body, and a parsed skill written out again parses the same.
func FuzzParseSkill(f *testing.F) {
	for _, s := range []string{"---\nname: a\ndescription: b\n---\nbody", "plain", "---\n---\n", "---\nname: [x]\n---\n", "\ufeff---\r\nname: z\r\n---\r\nx"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := ParseSkill(data, "dir")
		if err != nil {
			return
		}
		if !ValidName(s.Name) || s.Body != strings.TrimSpace(s.Body) {
			t.Fatalf("invalid skill %+v", s)
		}
		again, err := ParseSkill([]byte("---\nname: "+s.Name+"\ndescription: "+jsonQuote(s.Description)+"\n---\n"+s.Body), "other")
		if err != nil || again.Name != s.Name || again.Description != s.Description || again.Body != s.Body {
			t.Fatalf("round trip: %+v %v, want %+v", again, err, s)
		}
	})
}

// BenchmarkSubagentSkills is the handler's work on a SubagentStart with
// two skills attached: reading and parsing them, and fitting the entries.
func BenchmarkSubagentSkills(b *testing.B) {
	root := b.TempDir()
	for _, n := range []string{"go", "sql"} {
		p := filepath.Join(root, SkillsDir, n, "SKILL.md")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("---\nname: "+n+"\ndescription: d\n---\n"+strings.Repeat("A line of guidance.\n", 100)), 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		skills, err := LoadSkills(root, []string{"go", "sql"}, ".claude/skills")
		if err != nil {
			b.Fatal(err)
		}
		_ = skillEntries("a1", skills, DefaultSkillBudget)
	}
}
