package install

import (
	"github.com/atreides-dev/atreides/internal/install/installtest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/agents"
)

// goldenRoster covers every tool permission, a model for one host, and
// text that needs quoting.
var goldenRoster = agents.Roster{
	{ID: "lead", Name: "Lead", Role: "orchestrator", Mode: agents.Primary, Description: "leads", Prompt: "You lead.", Tools: agents.Full},
	{ID: "stilgar", Name: "Stilgar", Role: "oracle", Mode: agents.Subagent, Description: "Oracle: read-only \"adviser\"", Prompt: "You are Stilgar.\nBe brief.", Tools: agents.ReadOnly, Model: map[string]string{"claude": "opus", "codex": "gpt-5"}},
	{ID: "librarian", Name: "Librarian", Role: "librarian", Mode: agents.Subagent, Description: "Docs", Prompt: "You read docs.", Tools: agents.ReadWeb},
	{ID: "plan", Name: "Plan", Role: "plan", Mode: agents.Subagent, Description: "Plans", Prompt: "You plan.", Tools: agents.PlansOnly},
	{ID: "build", Name: "Build", Role: "build", Mode: agents.Subagent, Description: "Builds", Prompt: "You build.", Tools: agents.Full},
}

// TestAgentForms: each host's file of each agent, against golden files;
// the lead agent gets no file on any of these hosts.
func TestAgentForms(t *testing.T) {
	for _, form := range []AgentForm{ClaudeAgentForm, GeminiAgentForm, CodexAgentForm} {
		for _, a := range goldenRoster {
			name := filepath.Join("testdata", "agents", form.Host+"-"+a.ID+form.Ext+".golden")
			if !form.Installs(a) {
				if _, err := os.Stat(name); err == nil {
					t.Errorf("%s: %s installs no file, but a golden file exists", form.Host, a.ID)
				}
				continue
			}
			got := withMarker(agentMarker, form.Render(a, a.Prompt))
			installtest.Golden(t, name, []byte(got))
			if classifyMarked(agentMarker, []byte(got)) != oursAsWritten {
				t.Errorf("%s: not recognised as ours as written", name)
			}
		}
	}
}

// TestAgentFileMarker: a file is ours only with the marker near its
// start, and an edit anywhere, the marker line included, shows.
func TestAgentFileMarker(t *testing.T) {
	ours := withMarker(agentMarker, "---\nname: x\n---\nbody\n")
	tests := []struct {
		name string
		data string
		want markedFileState
	}{
		{"as written", ours, oursAsWritten},
		{"body edited", ours + "more\n", oursEdited},
		{"digest edited", strings.Replace(ours, "digest ", "digest 0", 1), oursEdited},
		{"no marker", "---\nname: x\n---\nbody\n", userFile},
		{"marker quoted in the body", "---\nname: x\n---\n" + ours, userFile},
	}
	for _, tt := range tests {
		if got := classifyMarked(agentMarker, []byte(tt.data)); got != tt.want {
			t.Errorf("%s: %d, want %d", tt.name, got, tt.want)
		}
	}
}

// TestInstallAgentsRoundTrip: install creates the directory and files,
// again changes nothing, uninstall removes both.
func TestInstallAgentsRoundTrip(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ".claude", "agents")
	o := AgentsOptions{Dir: dir, Form: ClaudeAgentForm, Roster: goldenRoster, BackupDir: filepath.Join(root, ".atreides", "backups")}
	rep, err := InstallAgents(o)
	if err != nil || rep.Action != ActionInstalled || strings.Join(rep.Added, " ") != "stilgar librarian plan build" {
		t.Fatalf("install: %+v %v", rep, err)
	}
	if rep, err = InstallAgents(o); err != nil || rep.Action != ActionUnchanged {
		t.Fatalf("reinstall: %+v %v", rep, err)
	}
	if rep, err = UninstallAgents(dir, "claude", ".md", o.BackupDir); err != nil || rep.Action != ActionRemoved || len(rep.Removed) != 4 {
		t.Fatalf("uninstall: %+v %v", rep, err)
	}
	if _, err := os.Stat(filepath.Join(root, ".claude")); !os.IsNotExist(err) {
		t.Errorf(".claude left behind: %v", err)
	}
}
