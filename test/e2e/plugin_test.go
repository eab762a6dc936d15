package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/hostpack"
	"github.com/atreides-dev/atreides/internal/install/installtest"
	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
)

// The host packages end to end: the Claude Code plugin marketplace and
// the Gemini CLI extension, as hostpack lays them out, validated,
// installed with the host's own commands into a throwaway HOME, driving a
// session in a project where `atreides install` never ran, and removed
// with the host's own commands.

// TestPluginClaude: `claude plugin marketplace add`, `claude plugin
// install atreides@atreides`, then `claude -p` with the plugin's own
// atreides (none on PATH): the guard denies `rm -rf ~/victim`, the model
// gets the reason, and the session start context arrives. Uninstalling
// leaves the project as it was but for the session's state in .atreides.
func TestPluginClaude(t *testing.T) {
	requireAtreides(t)
	dist := buildPackages(t, atreidesBin)
	market := filepath.Join(dist, hostpack.ClaudeDir)
	hooks := filepath.Join(market, hostpack.ClaudePlugin, "hooks", "hooks.json")
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(fa.Bash("rm -rf ~/victim")),
		// The agent cannot take the plugin away: neither with the host's
		// command nor by emptying its hooks (the plugin runs from this
		// source folder, the package the hook's binary came from).
		fa.Call(fa.Bash("claude plugin uninstall atreides@atreides")),
		fa.Call(fa.Bash("echo '{}' > " + hooks)),
		fa.Text("I could not delete it."),
	}})
	p.Victim(homeVictim("victim"))
	hooksBefore, err := os.ReadFile(hooks)
	if err != nil {
		t.Fatal(err)
	}
	env := withoutAtreidesOnPath(t, p.env())
	before := installtest.TreeHashes(t, []string{p.Dir}, filepath.Join(p.Dir, ".atreides"))

	hostCommand(t, p.Dir, env, "Validation passed", claudeBin, "plugin", "validate", market)
	hostCommand(t, p.Dir, env, "Validation passed", claudeBin, "plugin", "validate", filepath.Join(market, hostpack.ClaudePlugin))
	hostCommand(t, p.Dir, env, "Successfully added marketplace", claudeBin, "plugin", "marketplace", "add", market)
	hostCommand(t, p.Dir, env, "Successfully installed", claudeBin, "plugin", "install", "atreides@atreides")

	p.RunClaude("please delete the victim directory", RunOpts{Env: env})

	p.assertBlocked(fa.ToolID("main", 0, 0), "atreides blocked this")
	p.assertExists(homeVictim("victim") + "/precious.txt")
	p.assertBlocked(fa.ToolID("main", 1, 0), "atreides blocked this (self.plugin-remove)")
	p.assertBlocked(fa.ToolID("main", 2, 0), "atreides blocked this (self.binary-write)")
	if b, _ := os.ReadFile(hooks); string(b) != string(hooksBefore) {
		t.Errorf("the agent rewrote the plugin's hooks.json:\n%s", b)
	}
	if out := hostCommand(t, p.Dir, env, "", claudeBin, "plugin", "list"); !strings.Contains(out, "atreides@atreides") {
		t.Errorf("the plugin is gone after the session:\n%s", out)
	}
	main := p.Fake.Main()
	if len(main) == 0 || !main[0].Contains(sessionMarker) {
		t.Fatalf("the first model request does not carry atreides's session start context %q", sessionMarker)
	}
	// The plugin's MCP server ran through the launcher, its tools named
	// as the plugin's commands name them.
	if tool := claude.PluginToolPrefix + "session_status"; !strings.Contains(string(main[0].Raw), tool) {
		t.Errorf("the model was not offered %s: the plugin's MCP server did not start", tool)
	}

	hostCommand(t, p.Dir, env, "uninstalled", claudeBin, "plugin", "uninstall", "atreides@atreides")
	hostCommand(t, p.Dir, env, "Successfully removed", claudeBin, "plugin", "marketplace", "remove", "atreides")
	if out := hostCommand(t, p.Dir, env, "", claudeBin, "plugin", "list"); strings.Contains(out, "atreides@atreides") {
		t.Errorf("claude plugin list still shows the plugin after uninstall:\n%s", out)
	}
	assertOnlyState(t, p.Dir, before)
}

// TestExtensionGemini: the same with `gemini extensions install <dir>
// --consent` (the workspace trusted through the environment), `gemini -p`
// and `gemini extensions uninstall atreides`.
func TestExtensionGemini(t *testing.T) {
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Do(fg.Shell("rm -rf ~/victim")),
		fg.Do(fg.Shell("gemini extensions uninstall atreides")),
		fg.Do(fg.Shell("rm -rf ~/.gemini/extensions/atreides")),
		fg.Text("I could not delete it."),
	}})
	p.Victim("../home/victim")
	ext := filepath.Join(buildPackages(t, p.atreides), hostpack.GeminiDir)
	env := withoutAtreidesOnPath(t, append(p.baseEnv(), "GEMINI_CLI_TRUST_WORKSPACE=true"))
	before := installtest.TreeHashes(t, []string{p.Dir}, filepath.Join(p.Dir, ".atreides"))

	hostCommand(t, p.Dir, env, "successfully validated", p.bin, "extensions", "validate", ext)
	hostCommand(t, p.Dir, env, "installed successfully", p.bin, "extensions", "install", ext, "--consent")

	run := p.run("gemini", p.bin, append(env, "GOOGLE_GEMINI_BASE_URL="+p.Fake.URL, "GEMINI_API_KEY=fake-key"),
		"-p", "please delete the victim directory", "--output-format", "json", "--yolo")
	if strings.Contains(run.Stderr, "Invalid hook event name") {
		t.Errorf("gemini reports a hook event it does not know:\n%s", tail(run.Stderr, 2000))
	}
	frs := p.Fake.FunctionResponses()
	if len(frs) == 0 {
		t.Fatal("the model was sent no function response")
	}
	if e := frs[0].Error(); !strings.HasPrefix(e, "Tool execution blocked:") || !strings.Contains(e, "atreides blocked this") {
		t.Errorf("function response is not atreides's block: %q", frs[0].Text())
	}
	p.assertExists("../home/victim/precious.txt")
	if len(frs) != 3 {
		t.Fatalf("%d function responses, want 3", len(frs))
	}
	for i, rule := range []string{"self.plugin-remove", "self.binary-write"} {
		if e := frs[i+1].Error(); !strings.Contains(e, "atreides blocked this ("+rule+")") {
			t.Errorf("call %d (taking the extension away) was not blocked by atreides's %s: %q", i+1, rule, frs[i+1].Text())
		}
	}
	p.assertExists("../home/.gemini/extensions/atreides/gemini-extension.json")
	main := p.Fake.Main()
	if len(main) == 0 || !main[0].Contains("atreides:session") {
		t.Fatalf("the first model request does not carry atreides's session start context")
	}
	if tool := gemini.Facts.ToolPrefix + "session_status"; !strings.Contains(string(main[0].Raw), tool) {
		t.Errorf("the model was not offered %s: the extension's MCP server did not start", tool)
	}

	hostCommand(t, p.Dir, env, "successfully uninstalled", p.bin, "extensions", "uninstall", "atreides")
	if _, err := os.Stat(filepath.Join(p.Home, ".gemini", "extensions", "atreides")); !os.IsNotExist(err) {
		t.Errorf("~/.gemini/extensions/atreides is still there after uninstall: %v", err)
	}
	assertOnlyState(t, p.Dir, before)
}

// sessionState is what one session's hooks leave in a project's
// .atreides, as with `atreides install`: the state database and its lock
// (todos, strikes, phases), the project's and the session's records, the
// audit log (the denied command), the session each host process runs
// (for its MCP server: background.BindCaller) and the .gitignore that
// keeps all of that machine state out of commits. "<session>" stands for
// the session record's name (its id), "<process>" for a host process's
// pid and start time.
var sessionState = []string{"./", ".gitignore", "audit.jsonl", "project/", "project/project.rec",
	"sessions/", "sessions/<session>.rec", "state.db", "state.db.lock",
	"background/", "background/mcp-callers/", "background/mcp-callers/<process>"}

// assertOnlyState checks the project is byte-identical to before but for
// its .atreides directory, that this holds sessionState and no more (an
// audit log always: a command was denied), and that git sees only the
// .gitignore as new.
func assertOnlyState(t *testing.T, dir string, before map[string]string) {
	t.Helper()
	installtest.SameTrees(t, before, installtest.TreeHashes(t, []string{dir}, filepath.Join(dir, ".atreides")))
	var got []string
	for _, f := range stateFiles(t, dir) {
		if rest, ok := strings.CutPrefix(f, "sessions/"); ok && strings.HasSuffix(rest, ".rec") {
			f = "sessions/<session>.rec"
		}
		if rest, ok := strings.CutPrefix(f, "background/mcp-callers/"); ok && rest != "" {
			f = "background/mcp-callers/<process>"
		}
		if !slices.Contains(sessionState, f) {
			t.Errorf(".atreides/%s: the session left a file the plugin's hooks should not write", f)
		}
		got = append(got, f)
	}
	if !slices.Contains(got, "audit.jsonl") || !slices.Contains(got, ".gitignore") {
		t.Errorf(".atreides holds %q: no audit log or .gitignore", got)
	}
	cmd := boundedCommand(t, "git", "status", "--porcelain", "--untracked-files=all")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "?? .atreides/.gitignore" {
		t.Errorf("git status after the session: %v\n%s\nwant only ?? .atreides/.gitignore", err, out)
	}
}
