package all

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/atreides-dev/atreides/internal/host"
)

// TestEscalationAgentExists: on every host the escalation names an agent
// the host has: before install the oracle only where the host's agents
// come from no file (a plugin adds them), else the host's own default
// agent, which must be one of its agents; once the oracle's file
// is in a scope's agent directory, the oracle. A host that starts no
// named agents is sent to none.
func TestEscalationAgentExists(t *testing.T) {
	const oracle = "atreides-stilgar"
	for _, h := range All() {
		t.Run(h.Name, func(t *testing.T) {
			root, home := t.TempDir(), t.TempDir()
			env := host.Env{ProjectDir: root, Home: home, Getenv: func(string) string { return "" }}
			got, fallback := h.EscalationAgent(env, oracle)
			t.Logf("before install: %q (fallback %v)", got, fallback)
			switch {
			case h.Facts == nil || h.Facts.AgentCall == "":
				if got != "" {
					t.Fatalf("a host that starts no named agents is sent to %q", got)
				}
				return
			case got != "" && !h.HasAgent(env, got):
				t.Fatalf("escalates to %q, which the host does not have", got)
			case h.Agents.Dir != nil && got == oracle:
				t.Fatalf("names the oracle before its file is installed")
			case h.Agents.Dir != nil && (got == "" || !fallback):
				// Every host that starts named agents from files has a
				// general-purpose agent of its own; its default agent
				// fact must name it (Gemini CLI's is generalist).
				t.Fatalf("no fallback to one of the host's own agents (default agent %q, builtins %v)", h.Facts.DefaultAgent, h.Agents.Builtin)
			}
			if h.Agents.Dir == nil {
				return
			}
			dir := h.Agents.Dir(env, h.DefaultScope())
			if err := os.MkdirAll(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, oracle+h.Agents.Form.Ext), []byte("x"), 0o644); err != nil {
				t.Fatal(err)
			}
			if got, fallback := h.EscalationAgent(env, oracle); got != oracle || fallback {
				t.Fatalf("installed: %q (fallback %v), want the oracle", got, fallback)
			}
		})
	}
}
