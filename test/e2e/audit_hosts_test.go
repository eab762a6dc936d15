package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
	fo "github.com/atreides-dev/atreides/test/e2e/fakeopenai"
	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// auditRow is what these tests read of an audit record.
type auditRow struct {
	Host    string `json:"host"`
	Event   string `json:"event"`
	Command string `json:"command"`
	Verdict string `json:"verdict"`
	Rule    string `json:"rule"`
}

// checkAuditLog: after a session in which `rm -rf ~/victim` was denied and
// `echo hello > out.txt` ran, `atreides log --json` (run by logJSON) has
// the denial with its rule and the allowed call without one, both of host.
func checkAuditLog(t *testing.T, host string, logJSON func(args ...string) string) {
	t.Helper()
	read := func(args ...string) []auditRow {
		var out []auditRow
		for _, line := range strings.Split(strings.TrimSpace(logJSON(args...)), "\n") {
			var r auditRow
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("atreides log --json printed %q: %v", line, err)
			}
			out = append(out, r)
		}
		return out
	}
	denied := read("--verdict", "deny")
	if len(denied) != 1 || denied[0].Rule != "fs.rm-outside-project" || !strings.Contains(denied[0].Command, "rm -rf") || denied[0].Host != host {
		t.Errorf("atreides log --verdict deny: %+v; want the one rm -rf of %s under fs.rm-outside-project", denied, host)
	}
	allowed := false
	for _, r := range read() {
		allowed = allowed || r.Verdict == "allow" && strings.Contains(r.Command, "echo hello") && r.Rule == "" && r.Host == host
	}
	if !allowed {
		t.Errorf("the allowed echo of %s is not in the audit trail", host)
	}
}

// TestGeminiAuditLog: Gemini CLI's tool calls are in the audit trail.
func TestGeminiAuditLog(t *testing.T) {
	geminiCLI.require(t)
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Do(fg.Shell("rm -rf ~/victim")),
		fg.Do(fg.Shell("echo hello > out.txt")),
		fg.Text("One was refused."),
	}})
	p.Victim("../home/victim")
	p.writeGeminiHooks()
	p.Run("delete the victim directory, then write out.txt")
	checkAuditLog(t, "gemini", func(args ...string) string { return p.Atreides(append([]string{"log", "--json"}, args...)...) })
}

// TestCodexAuditLog: Codex's tool calls are in the audit trail.
func TestCodexAuditLog(t *testing.T) {
	codexCLI.require(t)
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{
		fo.Exec("rm -rf ~/victim"),
		fo.Exec("echo hello > out.txt"),
		fo.Text("One was refused."),
	}})
	p.Victim("../home/victim")
	p.writeCodexHooks()
	p.Run("delete the victim directory, then write out.txt")
	checkAuditLog(t, "codex", func(args ...string) string { return p.Atreides(append([]string{"log", "--json"}, args...)...) })
}

// TestCopilotAuditLog: Copilot CLI's tool calls are in the audit trail.
func TestCopilotAuditLog(t *testing.T) {
	copilotCLI.require(t)
	p := newCopilotProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(copilotShell("rm -rf ~/victim")),
		fa.Call(copilotShell("echo hello > out.txt")),
		fa.Text("One was refused."),
	}})
	p.Victim("../home/victim")
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("delete the victim directory, then write out.txt")
	checkAuditLog(t, "copilot", func(args ...string) string { return p.Atreides(append([]string{"log", "--json"}, args...)...) })
}

// TestOpenCodeAuditLog: OpenCode's tool calls, judged through the plugin's
// `atreides serve`, are in the audit trail.
func TestOpenCodeAuditLog(t *testing.T) {
	t.Parallel()
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		switch countToolResults(r) {
		case 0:
			return fakeopenaichat.Bash("call_rm", "rm -rf ~/victim")
		case 1:
			return fakeopenaichat.Bash("call_ok", "echo hello > out.txt")
		}
		return fakeopenaichat.Reply{Text: "One was refused."}
	})
	p.Victim("../home/victim")
	p.runOC("Delete the victim directory, then write out.txt.")
	checkAuditLog(t, "opencode", func(args ...string) string { return p.Atreides(append([]string{"log", "--json"}, args...)...) })
}
