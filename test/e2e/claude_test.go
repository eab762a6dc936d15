package e2e

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// sessionMarker is what atreides's SessionStart context must contain.
const sessionMarker = "<!-- atreides:session -->"

// hookKit is how a scenario gets its hooks: the real atreides binary, or the
// harness self-test's shell-script hook.
type hookKit struct {
	install func(p *Project)
	addTodo func(p *Project, sid, text string)
	// blockMention is text a block reason must contain.
	blockMention string
}

var atreidesKit = hookKit{
	install:      func(p *Project) { p.InstallAtreides() },
	addTodo:      func(p *Project, sid, text string) { p.SessionTodo(sid, text) },
	blockMention: "atreides blocked this",
}

// TestClaude runs the Claude Code scenarios with atreides installed as the
// hook handler (`atreides install claude --project`).
func TestClaude(t *testing.T) {
	requireAtreides(t)
	runScenarios(t, atreidesKit)
}

func runScenarios(t *testing.T, kit hookKit) {
	for _, sc := range []struct {
		name string
		fn   func(*testing.T, hookKit)
	}{
		{"DeniedCommand", scenarioDenied},
		{"AllowedCommand", scenarioAllowed},
		{"SessionStartContext", scenarioSessionContext},
		{"StopBlocksOnceForTodos", scenarioStopTodos},
		{"ObfuscatedDestructive", scenarioObfuscated},
	} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			sc.fn(t, kit)
		})
	}
}

// a. `rm -rf ~/victim` (a directory outside the project) is refused by the
// PreToolUse hook: the model gets an error tool_result naming the guard,
// and the directory survives.
func scenarioDenied(t *testing.T, kit hookKit) {
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(fa.Bash("rm -rf ~/victim")),
		fa.Text("I could not delete it."),
	}})
	p.Victim(homeVictim("victim"))
	kit.install(p)
	p.RunClaude("please delete the victim directory", RunOpts{})

	p.assertBlocked(fa.ToolID("main", 0, 0), kit.blockMention)
	p.assertExists(homeVictim("victim") + "/precious.txt")
}

// homeVictim is a project-relative path to a directory in the throwaway
// HOME: recursive deletes inside the project are allowed by default
// (docs/guard-policy.md), outside it they are not.
func homeVictim(name string) string { return "../home/" + name }

// b. A harmless command runs: its file appears and the tool_result is not
// an error.
func scenarioAllowed(t *testing.T, kit hookKit) {
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(fa.Bash("echo hello > out.txt")),
		fa.Call(fa.Bash("touch made-by-claude")),
		fa.Text("Both files written."),
	}})
	kit.install(p)
	p.RunClaude("write out.txt and made-by-claude", RunOpts{})

	p.assertNotError(fa.ToolID("main", 0, 0))
	p.assertNotError(fa.ToolID("main", 1, 0))
	if b, err := os.ReadFile(p.Path("out.txt")); err != nil || strings.TrimSpace(string(b)) != "hello" {
		t.Errorf("out.txt = %q, %v; want hello", b, err)
	}
	p.assertExists("made-by-claude")
}

// c. SessionStart context reaches the model in the very first request.
func scenarioSessionContext(t *testing.T, kit hookKit) {
	p := NewProject(t, fa.Script{Steps: []fa.Step{fa.Text("Hello.")}})
	kit.install(p)
	p.RunClaude("say hello", RunOpts{})

	main := p.Fake.Main()
	if len(main) == 0 {
		t.Fatal("no main-conversation request reached the fake model")
	}
	if !main[0].Contains(sessionMarker) {
		t.Errorf("first model request does not contain %q (SessionStart context)", sessionMarker)
	}
}

// d. With a pending todo, Stop blocks once with the todo list; the second
// Stop (stop_hook_active=true) lets Claude finish.
func scenarioStopTodos(t *testing.T, kit hookKit) {
	const todo = "write the report"
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Text("All finished."),
		fa.Text("Noted the open todo; stopping now."),
	}})
	kit.install(p)
	sid := NewSessionID(t)
	kit.addTodo(p, sid, todo)
	res := p.RunClaude("do the work", RunOpts{Args: []string{"--session-id", sid}})

	main := p.Fake.Main()
	if len(main) < 2 {
		t.Fatalf("got %d main requests, want 2 (Stop should have blocked once)", len(main))
	}
	second := main[1]
	if n := second.CountMessagesContaining("Stop hook feedback"); n != 1 {
		t.Errorf("second request has %d \"Stop hook feedback\" messages, want 1", n)
	}
	if !second.Contains(todo) {
		t.Errorf("second request does not mention the todo %q", todo)
	}
	last := main[len(main)-1]
	if n := last.CountMessagesContaining("Stop hook feedback"); n != 1 || len(main) != 2 {
		t.Errorf("Stop blocked more than once: %d main requests, %d feedback messages in the last (want 2 and 1)", len(main), n)
	}
	t.Logf("Stop hook runs: %d", len(res.HookResponses("Stop")))
}

// e. Obfuscated and wrapped destructive commands are blocked for real; each
// targets its own directory so a miss is attributable.
func scenarioObfuscated(t *testing.T, kit hookKit) {
	cases := []struct{ victim, cmd string }{
		{"victim-quoted", "r''m -rf ~/victim-quoted"},
		{"victim-bashc", "bash -c 'rm -rf ~/victim-bashc'"},
		{"victim-sudo", "sudo env FOO=1 rm -rf ~/victim-sudo"},
		{"victim-b64", "echo " + base64.StdEncoding.EncodeToString([]byte("rm -rf ~/victim-b64")) + " | base64 -d | sh"},
		{"victim-var", "x=rm; $x -rf ~/victim-var"},
	}
	var steps []fa.Step
	for _, c := range cases {
		steps = append(steps, fa.Call(fa.Bash(c.cmd)))
	}
	steps = append(steps, fa.Text("Nothing could be deleted."))
	p := NewProject(t, fa.Script{Steps: steps})
	for _, c := range cases {
		p.Victim(homeVictim(c.victim))
	}
	kit.install(p)
	p.RunClaude("clean up the victim directories", RunOpts{})

	for i, c := range cases {
		t.Run(c.victim, func(t *testing.T) {
			q := *p
			q.t = t
			q.assertBlocked(fa.ToolID("main", i, 0), kit.blockMention)
			q.assertExists(homeVictim(c.victim) + "/precious.txt")
		})
	}
}

// TestClaudeProjectPolicy: a rule in the project's .atreides/config.yaml
// blocks a command the built-in policy allows (a recursive delete inside
// the project), and a config file that cannot be read leaves the built-in
// policy in force: harmless calls run, what it denies stays denied.
func TestClaudeProjectPolicy(t *testing.T) {
	requireAtreides(t)
	t.Run("RuleDenies", func(t *testing.T) {
		t.Parallel()
		p := NewProject(t, fa.Script{Steps: []fa.Step{
			fa.Call(fa.Bash("rm -rf victim")),
			fa.Text("Blocked by the project's policy."),
		}})
		p.Victim("victim")
		p.WriteFile(".atreides/config.yaml", "rules:\n  - verdict: deny\n    tool: shell\n    command: rm -rf victim\n    reason: the victim directory is kept for the test\n", 0o644)
		p.InstallAtreides()
		p.RunClaude("delete victim", RunOpts{})
		p.assertBlocked(fa.ToolID("main", 0, 0), "the victim directory is kept for the test")
		p.assertExists("victim/precious.txt")
	})
	t.Run("BrokenConfigFallsBackToDefaults", func(t *testing.T) {
		t.Parallel()
		p := NewProject(t, fa.Script{Steps: []fa.Step{
			fa.Call(fa.Bash("touch harmless")),
			fa.Call(fa.Bash("git reset --hard")),
			fa.Text("Done what I could."),
		}})
		p.WriteFile(".atreides/config.yaml", "guard:\n  enabled: maybe\n", 0o644)
		p.InstallAtreides()
		p.RunClaude("touch a file, then reset", RunOpts{})
		// A broken file blocks nothing harmless: the built-in policy
		// (tightened by what could be read) is in force meanwhile.
		p.assertExists("harmless")
		p.assertBlocked(fa.ToolID("main", 1, 0), "git.reset-hard")
		// The model hears of it in one line, naming the file and line,
		// once in the session.
		main := p.Fake.RequestsOf(fa.KindMain)
		last := main[len(main)-1]
		if n := last.CountMessagesContaining("config.yaml:2"); n != 1 {
			t.Errorf("the model was told of the broken configuration in %d messages, want 1", n)
		}
	})
}

// TestClaudeAuditLog: after a real Claude Code session in which two
// commands were denied and one ran, `atreides log --verdict deny --json`
// lists the two denials of that session with their rule and command, and
// the allowed one is in the trail too, without a rule.
func TestClaudeAuditLog(t *testing.T) {
	requireAtreides(t)
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(fa.Bash("rm -rf ~/victim")),
		fa.Call(fa.Bash("git reset --hard")),
		fa.Call(fa.Bash("echo hello > out.txt")),
		fa.Text("Two were refused."),
	}})
	p.Victim(homeVictim("victim"))
	p.InstallAtreides()
	res := p.RunClaude("delete the victim, reset the tree, write out.txt", RunOpts{})
	session := res.SessionID()
	if session == "" {
		t.Fatal("no session id in the result event")
	}

	type record struct {
		Session   string           `json:"session"`
		Host      string           `json:"host"`
		HostEvent string           `json:"host_event"`
		Tool      string           `json:"tool"`
		Command   string           `json:"command"`
		Verdict   string           `json:"verdict"`
		Rule      string           `json:"rule"`
		Reason    string           `json:"reason"`
		HandleUS  map[string]int64 `json:"handle_us"`
	}
	read := func(args ...string) []record {
		var out []record
		for _, line := range strings.Split(strings.TrimSpace(p.Atreides(append([]string{"log", "--json"}, args...)...)), "\n") {
			var r record
			if err := json.Unmarshal([]byte(line), &r); err != nil {
				t.Fatalf("atreides log --json printed %q: %v", line, err)
			}
			out = append(out, r)
		}
		return out
	}
	denied := read("--verdict", "deny")
	if len(denied) != 2 {
		t.Fatalf("atreides log --verdict deny --json: %d records, want 2: %+v", len(denied), denied)
	}
	for i, want := range []struct{ command, rulePrefix string }{{"rm -rf ~/victim", "fs."}, {"git reset --hard", "git.reset-hard"}} {
		r := denied[i]
		if r.Session != session || r.Host != "claude" || r.HostEvent != "PreToolUse" || r.Tool != "Bash" || r.Command != want.command ||
			!strings.HasPrefix(r.Rule, want.rulePrefix) || !strings.Contains(r.Reason, r.Rule) {
			t.Errorf("denial %d: %+v, want session %s, command %q, a rule starting %q named in the reason", i, r, session, want.command, want.rulePrefix)
		}
		if _, ok := r.HandleUS["guard"]; !ok {
			t.Errorf("denial %d has no guard timing: %+v", i, r.HandleUS)
		}
	}
	all := read("--session", session)
	var ran bool
	for _, r := range all {
		ran = ran || (r.Command == "echo hello > out.txt" && r.Verdict != "deny" && r.Rule == "")
	}
	if !ran {
		t.Errorf("the allowed command is not in the trail: %+v", all)
	}
	if stats := p.Atreides("log", "--stats", "--json"); !strings.Contains(stats, `"stopped": 2`) {
		t.Errorf("atreides log --stats --json:\n%s", stats)
	}
}
