package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/install/installtest"
)

// scratch is a git project and a HOME of its own, and this test binary
// on PATH as atreides (testscript.Main runs cli.Main when it is started
// under that name), with a stub of every host's program, so that every
// host is seen. The project has notes.md, which the session's agent
// writes.
type scratch struct {
	t                *testing.T
	root, proj, home string
	bin              string
	env              []string
}

func newScratch(t *testing.T) *scratch {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("ATREIDES_E2E_REQUIRE") == "1" {
			t.Fatal("git is needed for a scratch project")
		}
		t.Skip("git not on PATH: no scratch project")
	}
	root := t.TempDir()
	s := &scratch{t: t, root: root, proj: filepath.Join(root, "proj"), home: filepath.Join(root, "home")}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	binDir := filepath.Join(root, "bin")
	s.bin = filepath.Join(binDir, "atreides")
	for _, d := range []string{s.proj, s.home, binDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	// A link by name: install refuses a binary under go-build (a 'go
	// run' one), which a symbolic link would resolve to.
	// Every host's program, a stub, so that 'install --all' sees them all;
	// and the MCP server beside atreides, so that install registers it.
	stubs := []string{"atreides-mcp"}
	for _, h := range all.All() {
		stubs = append(stubs, h.Programs...)
	}
	for _, prog := range stubs {
		if err := os.WriteFile(filepath.Join(binDir, prog), []byte("#!/bin/sh\nexit 0\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Link(exe, s.bin); err != nil {
		data, rerr := os.ReadFile(exe) // another file system: a copy
		if rerr != nil || os.WriteFile(s.bin, data, 0o755) != nil {
			t.Fatalf("put the test binary on PATH: %v", err)
		}
	}
	s.env = append(slices.DeleteFunc(os.Environ(), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return k == "HOME" || k == "PATH" || strings.HasPrefix(k, "XDG_") || strings.HasPrefix(k, "GIT_") || k == "CLAUDE_PROJECT_DIR"
	}), "HOME="+s.home, "PATH="+binDir+string(os.PathListSeparator)+os.Getenv("PATH"),
		"GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
		"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com")
	s.run("", "git", "init", "-q", ".")
	s.write("README.md", "# a project\n")
	s.write("notes.md", "notes\n")
	s.run("", "git", "add", "README.md")
	s.run("", "git", "commit", "-q", "-m", "init")
	return s
}

// run runs a program in the project with stdin, and returns its stdout.
func (s *scratch) run(stdin, prog string, args ...string) string {
	s.t.Helper()
	cmd := exec.Command(prog, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = s.proj, s.env, strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	done := make(chan error, 1)
	if err := cmd.Start(); err != nil {
		s.t.Fatalf("%s %v: %v", prog, args, err)
	}
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			s.t.Fatalf("%s %v: %v\nstdout: %s\nstderr: %s", prog, args, err, out.String(), errb.String())
		}
	case <-time.After(60 * time.Second):
		_ = cmd.Process.Kill()
		s.t.Fatalf("%s %v: still running after 60 s", prog, args)
	}
	return out.String()
}

// atreides runs one command line; "$BIN" stands for the binary's path
// and a line starting with "write" writes a project file instead.
func (s *scratch) atreides(line []string) {
	s.t.Helper()
	if len(line) == 3 && line[0] == "write" {
		s.write(line[1], line[2])
		return
	}
	args := slices.Clone(line)
	for i, a := range args {
		args[i] = strings.ReplaceAll(a, "$BIN", s.bin)
	}
	s.run("", s.bin, args...)
}

func (s *scratch) write(rel, content string) {
	s.t.Helper()
	p := filepath.Join(s.proj, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		s.t.Fatal(err)
	}
}

// hook sends one Claude Code payload (a JSON object without the common
// keys) to 'atreides hook claude'.
func (s *scratch) hook(event string, fields map[string]any) string {
	s.t.Helper()
	p := map[string]any{"session_id": "s1", "transcript_path": filepath.Join(s.root, "t.jsonl"), "cwd": s.proj, "hook_event_name": event}
	for k, v := range fields {
		p[k] = v
	}
	data, err := json.Marshal(p)
	if err != nil {
		s.t.Fatal(err)
	}
	return s.run(string(data), s.bin, "hook", "claude")
}

// session is a short Claude Code session: start, a prompt, a shell
// command and a file write with their results, an output large enough
// to be cut and saved, stop and end.
func (s *scratch) session(wantCut bool) {
	s.t.Helper()
	s.hook("SessionStart", map[string]any{"source": "startup"})
	s.hook("UserPromptSubmit", map[string]any{"prompt": "list the files, then write notes.md"})
	bash := map[string]any{"command": "ls", "description": "list"}
	s.hook("PreToolUse", map[string]any{"tool_name": "Bash", "tool_input": bash, "tool_use_id": "t1"})
	s.hook("PostToolUse", map[string]any{"tool_name": "Bash", "tool_input": bash, "tool_use_id": "t1",
		"tool_response": map[string]any{"stdout": "README.md\n", "stderr": "", "interrupted": false}})
	write := map[string]any{"file_path": filepath.Join(s.proj, "notes.md"), "content": "notes\n"}
	s.hook("PreToolUse", map[string]any{"tool_name": "Write", "tool_input": write, "tool_use_id": "t2"})
	s.hook("PostToolUse", map[string]any{"tool_name": "Write", "tool_input": write, "tool_use_id": "t2",
		"tool_response": map[string]any{"type": "create", "filePath": filepath.Join(s.proj, "notes.md"), "content": "notes\n"}})
	big := strings.Repeat("src/file.go:1: a matching line of the search results\n", 4000)
	grep := map[string]any{"command": "grep -rn match src", "description": "search"}
	out := s.hook("PostToolUse", map[string]any{"tool_name": "Bash", "tool_input": grep, "tool_use_id": "t3",
		"tool_response": map[string]any{"stdout": big, "stderr": "", "interrupted": false}})
	if cut := strings.Contains(out, ".atreides/outputs/"); cut != wantCut {
		s.t.Errorf("the large output cut and saved: %v, want %v (the guard preset cuts nothing): %.300s", cut, wantCut, out)
	}
	s.hook("Stop", map[string]any{"stop_hook_active": false})
	s.hook("SessionEnd", map[string]any{"reason": "exit"})
}

// gitStatus is 'git status --porcelain', every untracked file listed.
func (s *scratch) gitStatus() []string {
	s.t.Helper()
	var paths []string
	for _, l := range strings.Split(strings.TrimSpace(s.run("", "git", "status", "--porcelain", "--untracked-files=all")), "\n") {
		if l != "" {
			paths = append(paths, l)
		}
	}
	return paths
}

// TestGitStatusShowsOnlyShared: after install, a session (with a saved
// output and an export), a task and an intent, git status shows only
// what a team commits: the hosts' project settings, the configuration,
// intents, the trace ledger, the specs and atreides's .gitignore; never
// state, backups, the audit trail, outputs or exports. (A background task
// needs a host's headless CLI and a model: not run here; its directory,
// .atreides/background/, is in the .gitignore.)
func TestGitStatusShowsOnlyShared(t *testing.T) {
	s := newScratch(t)
	s.write(".atreides/config.yaml", "version: 1\nexport:\n  on_session_end: true\ngovernance:\n  enabled: true\n")
	s.atreides([]string{"install", "claude"})
	// Right after install, before any hook: the backups install keeps in
	// .atreides are ignored already.
	for _, l := range s.gitStatus() {
		if strings.HasPrefix(l, "?? .atreides/") && l != "?? .atreides/.gitignore" && l != "?? .atreides/config.yaml" {
			t.Errorf("after install, git status shows %s", l)
		}
	}
	s.atreides([]string{"intent", "add", "--id", "notes", "--title", "notes", "--scope", "notes.md"})
	s.session(true)
	s.atreides([]string{"task", "add", "write", "the", "notes"})
	if ents, _ := os.ReadDir(filepath.Join(s.proj, ".atreides", "exports")); len(ents) == 0 {
		t.Error("no export was written at session end")
	}
	got := s.gitStatus()
	t.Logf("git status:\n%s", strings.Join(got, "\n"))
	want := []string{
		"?? .atreides/.gitignore",   // atreides's, so every clone ignores the same
		"?? .atreides/config.yaml",  // the team's configuration
		"?? .atreides/intents.yaml", // intents are reviewed and shared
		"?? .atreides/trace.jsonl",  // the trace ledger, chained and shared
		"?? .claude/settings.json",  // the hooks, naming 'atreides' on PATH
		"?? notes.md",               // the agent's own file
	}
	var extra []string
	for _, l := range got {
		if !slices.Contains(want, l) && !strings.HasPrefix(l, "?? .atreides/specs/") && !strings.HasPrefix(l, "?? .claude/agents/") && !strings.HasPrefix(l, "?? .claude/commands/") && l != "?? .mcp.json" {
			extra = append(extra, l)
		}
	}
	if len(extra) > 0 {
		t.Errorf("git status shows machine state:\n%s", strings.Join(extra, "\n"))
	}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("git status lacks %q:\n%s", w, strings.Join(got, "\n"))
		}
	}
	if !slices.ContainsFunc(got, func(l string) bool { return strings.HasPrefix(l, "?? .atreides/specs/") }) {
		t.Errorf("the task's spec is not shown:\n%s", strings.Join(got, "\n"))
	}
}

// purgeSetups are the ways a project gets atreides before the purge, one
// row each: every host in its default scope plus one user-scope install,
// and 'init --preset P --yes' for each preset (and a change of preset).
var purgeSetups = []struct {
	name  string
	lines [][]string
	// guardOnly: the project ends on the guard preset, whose session
	// cuts no output.
	guardOnly bool
	// writes are files (relative to the scratch root) the setup must
	// have created or changed, beside the state every session writes:
	// what makes the comparison mean something.
	writes []string
}{
	{"every host and a user scope", [][]string{
		{"install", "--all", "--offline"},
		{"install", "claude", "--user", "--bin", "$BIN"},
		{"install", "claude", "--local", "--bin", "$BIN"},
		{"install", "claude", "--agents-md"},
	}, false, []string{"proj/.mcp.json", "proj/AGENTS.md", "proj/.claude/settings.local.json", "home/.codex/config.toml", "home/.copilot/mcp-config.json", "home/.claude/agents", "home/.claude/settings.json", "home/.config/opencode/package-lock.json"}},
	{"trusted configuration", [][]string{
		{"write", ".atreides/config.yaml", "version: 1\nguard:\n  enabled: true\n"},
		{"trust", "--yes"},
		{"install", "claude"},
	}, false, []string{"home/.config/atreides/trusted.json"}},
	{"init guard", [][]string{{"init", "--preset", "guard", "--yes", "claude"}}, true, []string{"proj/.claude/settings.json", "proj/.atreides/config.yaml"}},
	{"init standard", [][]string{{"init", "--preset", "standard", "--yes", "claude", "gemini"}}, false, []string{"proj/.mcp.json", "proj/.gemini/settings.json"}},
	{"init full", [][]string{{"init", "--preset", "full", "--yes", "claude", "gemini", "codex", "opencode", "copilot", "qwen", "cline", "kilo"}}, false, []string{"proj/.claude/agents", "proj/.gemini/commands", "proj/.atreides/config.yaml"}},
	{"init full then guard", [][]string{{"init", "--preset", "full", "--yes", "claude"}, {"init", "--preset", "guard", "--yes", "claude"}}, true, []string{"proj/.claude/settings.json"}},
}

// TestPurgeLeavesNothing: after a setup and a session, 'uninstall --purge
// --yes' leaves the project and HOME as they were, byte for byte: every
// path, mode and content, and no path more. HOME holds the user's own
// atreides configuration and another project's trust, which stay.
func TestPurgeLeavesNothing(t *testing.T) {
	for _, setup := range purgeSetups {
		t.Run(setup.name, func(t *testing.T) {
			s := newScratch(t)
			other := filepath.Join(s.root, "other")
			s.userHome(other)
			before := treeHashes(t, s.proj, s.home, other)
			for _, line := range setup.lines {
				s.atreides(line)
			}
			s.session(!setup.guardOnly)
			mid := treeHashes(t, s.proj, s.home, other)
			for _, p := range append([]string{"proj/.atreides/state.db", "home/.local/state/atreides/projects.json"}, setup.writes...) {
				p = filepath.Join(s.root, filepath.FromSlash(p))
				if mid[p] == "" || mid[p] == before[p] {
					t.Errorf("the setup and session did not write %s: the test proves nothing", p)
				}
			}
			t.Logf("%d paths before, %d after the setup and session", len(before), len(mid))
			s.atreides([]string{"uninstall", "--purge", "--yes"})
			installtest.SameTrees(t, before, treeHashes(t, s.proj, s.home, other))
		})
	}
}

// userHome gives HOME what a user of atreides has before this project:
// their own configuration, a Claude Code settings file of theirs, and
// another project they trust.
func (s *scratch) userHome(other string) {
	s.t.Helper()
	for rel, content := range map[string]string{
		".config/atreides/config.yaml": "version: 1\n",
		".claude/settings.json":        "{\n  \"model\": \"opus\"\n}\n",
	} {
		p := filepath.Join(s.home, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			s.t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			s.t.Fatal(err)
		}
	}
	if err := os.MkdirAll(filepath.Join(other, ".atreides"), 0o755); err != nil {
		s.t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(other, ".atreides", "config.yaml"), []byte("version: 1\n"), 0o644); err != nil {
		s.t.Fatal(err)
	}
	cmd := exec.Command(s.bin, "trust", "--yes")
	cmd.Dir, cmd.Env = other, s.env
	if out, err := cmd.CombinedOutput(); err != nil {
		s.t.Fatalf("trust the other project: %v\n%s", err, out)
	}
}

// treeHashes is installtest.TreeHashes of the roots, each without its
// .git (git's own bookkeeping).
func treeHashes(t *testing.T, roots ...string) map[string]string {
	t.Helper()
	var skip []string
	for _, r := range roots {
		skip = append(skip, filepath.Join(r, ".git"))
	}
	return installtest.TreeHashes(t, roots, skip...)
}
