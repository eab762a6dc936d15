package all

import (
	"errors"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/actor"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/host/cline"
	"github.com/atreides-dev/atreides/internal/host/codex"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/policy"
)

// repoRoot is the module root, where bench/payloads lives.
func repoRoot(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../../..")
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// Every registered host is complete: its adapter answers to its name, it
// has scopes and every function, its programs are among those the guard
// knows it by, conformance expectations, and a bench payload set its
// adapter decodes into events that carry the host's facts.
func TestRegistryComplete(t *testing.T) {
	seen := map[string]bool{}
	for _, h := range All() {
		t.Run(h.Name, func(t *testing.T) {
			if seen[h.Name] {
				t.Fatalf("%s registered twice", h.Name)
			}
			seen[h.Name] = true
			if h.Adapter == nil || h.Adapter.Name() != h.Name || h.Display == "" {
				t.Errorf("adapter %v, display %q", h.Adapter, h.Display)
			}
			if len(h.Scopes) == 0 || h.Path == nil || h.Install == nil || h.Uninstall == nil || h.Inspect == nil || h.ConfigDirs == nil || h.Doctor == nil || len(h.Programs) == 0 || h.HookFiles == nil || h.Start == "" || h.Writes == "" {
				t.Errorf("incomplete entry: %+v", h)
			}
			for _, l := range strings.Split(h.Writes, "\n") {
				if len(l) > 67 {
					t.Errorf("Writes: line %q is wider than install's help (67 columns)", l)
				}
			}
			for _, p := range h.Programs {
				if !slices.Contains(h.CLI.Names, p) {
					t.Errorf("program %s is not among the names the guard knows the host by, %v", p, h.CLI.Names)
				}
			}
			if _, ok := hosttest.Expected[h.Name]; !ok {
				t.Errorf("no conformance expectations: add %q to hosttest.Expected", h.Name)
			}
			files, _ := filepath.Glob(filepath.Join(repoRoot(t), "bench", "payloads", h.Name, "*.json"))
			if len(files) == 0 {
				t.Errorf("no bench payload set: add bench/payloads/%s/*.json", h.Name)
			}
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				data = []byte(strings.ReplaceAll(string(data), "__PROJ__", "/proj"))
				ev, err := h.Adapter.Decode(data, func(string) string { return "" }, time.Now())
				if err != nil {
					t.Errorf("%s does not decode: %v", f, err)
				} else if ev.Facts != h.Facts {
					t.Errorf("%s: the adapter's event carries facts %p, not the host's %p", f, ev.Facts, h.Facts)
				}
			}
		})
	}
	for name := range hosttest.Expected {
		if _, ok := ByName(name); !ok {
			t.Errorf("conformance expectations for %q, which is not registered", name)
		}
	}
}

// The conformance suite, run over the registry.
func TestConformance(t *testing.T) {
	for _, h := range All() {
		t.Run(h.Name, func(t *testing.T) {
			e, ok := hosttest.Expected[h.Name]
			if !ok {
				t.Fatalf("no conformance expectations for %s", h.Name)
			}
			hosttest.Run(t, h.Adapter, e)
		})
	}
}

// fixtures are settings files as users leave them; nil is no file.
var fixtures = []struct {
	name     string
	content  *string
	comments bool
}{
	{"no file", nil, false},
	{"empty file", ptr(""), false},
	{"empty object", ptr("{}\n"), false},
	{"compact arrays, no final newline", ptr(`{"permissions":{"allow":["Bash(ls)","Read"],"deny":[]},"hooks":{"Stop":[{"hooks":[{"type":"command","command":"say done"}]}]}}`), false},
	{"unusual key order, four spaces", ptr("{\n    \"zzz\": true,\n    \"hooks\": {\n        \"SessionEnd\": [],\n        \"AfterAgent\": [\n            {\"hooks\": [{\"type\": \"command\", \"command\": \"x\"}]}\n        ]\n    },\n    \"aaa\": [1, 2, 3]\n}\n"), false},
	{"hooks object already empty", ptr("{\n  \"hooks\": {},\n  \"model\": \"m\"\n}\n"), false},
	{"comments", ptr("// the team's settings\n{\n  /* keep */ \"ui\": {\"theme\": \"x\"}, // trailing\n  \"hooks\": {\n  }\n}\n"), true},
}

func ptr(s string) *string { return &s }

// fakeBin is a directory on PATH holding an executable atreides and
// atreides-mcp, so that install finds atreides and registers MCP tools.
func fakeBin(t *testing.T) string {
	dir := t.TempDir()
	for _, n := range []string{"atreides", guard.MCPBinary} {
		if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return filepath.Join(dir, "atreides")
}

// tree lists every file and directory under dirs with its content, except
// atreides's own state: the project's .atreides (install's backups and
// the .gitignore that keeps them out of commits) and the user's backups.
func tree(t *testing.T, env host.Env, dirs ...string) map[string]string {
	t.Helper()
	skip := []string{filepath.Dir(env.BackupDir(install.ScopeProject)), env.BackupDir(install.ScopeUser)}
	out := map[string]string{}
	for _, d := range dirs {
		err := filepath.WalkDir(d, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			for _, s := range skip {
				if p == s || strings.HasPrefix(p, s+string(filepath.Separator)) {
					return filepath.SkipDir
				}
				if strings.HasPrefix(s, p+string(filepath.Separator)) {
					return nil // a directory holding the backups
				}
			}
			if strings.HasSuffix(p, ".atreides-backup") {
				t.Errorf("backup beside the user's file: %s", p)
			}
			if e.IsDir() {
				out[p] = "<dir>"
				return nil
			}
			b, err := os.ReadFile(p)
			out[p] = string(b)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return out
}

// The install round trip, for every registered host, every scope and every
// fixture: install, install again (no change, byte for byte), uninstall
// (every file and directory exactly as before, created ones gone).
func TestInstallRoundTrip(t *testing.T) {
	self := fakeBin(t)
	for _, h := range All() {
		for _, scope := range h.Scopes {
			for _, fx := range fixtures {
				if fx.content != nil && !settingsFile(h) {
					// The plugin, Cline's hook scripts: files of atreides's
					// own, not a settings file to edit: only the no-file
					// fixture applies.
					continue
				}
				t.Run(h.Name+"/"+scope.String()+"/"+fx.name, func(t *testing.T) {
					root := t.TempDir()
					env := host.Env{ProjectDir: filepath.Join(root, "proj"), Home: filepath.Join(root, "home"), Getenv: func(string) string { return "" }, LookPath: exec.LookPath}
					for _, d := range []string{env.ProjectDir, env.Home} {
						if err := os.MkdirAll(d, 0o755); err != nil {
							t.Fatal(err)
						}
					}
					path := h.Path(env, scope)
					if fx.content != nil {
						if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
							t.Fatal(err)
						}
						if err := os.WriteFile(path, []byte(*fx.content), 0o644); err != nil {
							t.Fatal(err)
						}
					}
					before := tree(t, env, env.ProjectDir, env.Home)
					bin, err := host.BinaryFor(scope, self, "")
					if err != nil {
						t.Fatal(err)
					}
					o := host.Options{Scope: scope, Binary: bin, TimeoutSeconds: 3}
					readable := true
					if fx.comments {
						// Whether the host reads comments is install's to
						// say: Inspect parses the file as the host does.
						st, err := h.Inspect(path)
						if err != nil {
							t.Fatal(err)
						}
						readable = st.Parses
					}
					r, err := h.Install(env, o)
					if !readable {
						var pe *install.ParseError
						if !errors.As(err, &pe) {
							t.Fatalf("install into a file %s would not read: %v", h.Display, err)
						}
						if after := tree(t, env, env.ProjectDir, env.Home); !mapsEqual(after, before) {
							t.Error("a refused install changed files")
						}
						return
					}
					if err != nil {
						t.Fatalf("install: %v", err)
					}
					if r.Action != install.ActionInstalled || len(r.Warnings) != 0 {
						t.Errorf("install report %+v", r)
					}
					installed, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					if scope == install.ScopeProject && strings.Contains(string(installed), self) {
						t.Errorf("a project file names this machine's binary:\n%s", installed)
					}
					if !strings.Contains(string(installed), "--timeout 3") && h.Via == host.Hook {
						t.Errorf("the hook command does not carry its timeout:\n%s", installed)
					}
					st, err := h.Inspect(path)
					if err != nil || !st.Installed() {
						t.Errorf("inspect after install: %+v, %v", st, err)
					}
					after := tree(t, env, env.ProjectDir, env.Home)
					r2, err := h.Install(env, o)
					if err != nil || r2.Action != install.ActionUnchanged {
						t.Errorf("second install: %+v, %v", r2, err)
					}
					if again := tree(t, env, env.ProjectDir, env.Home); !mapsEqual(again, after) {
						t.Error("second install changed files")
					}
					u, err := h.Uninstall(env, scope)
					if err != nil || u.Action != install.ActionRemoved {
						t.Fatalf("uninstall: %+v, %v", u, err)
					}
					if got := tree(t, env, env.ProjectDir, env.Home); !mapsEqual(got, before) {
						t.Errorf("uninstall did not restore the tree\n got: %q\nwant: %q", got, before)
					}
				})
			}
		}
	}
}

// settingsFile reports whether install edits a settings file of the host
// (Path's), which holds the user's settings too: not OpenCode's plugin
// nor Cline's hook scripts, which are wholly atreides's.
func settingsFile(h *host.Host) bool { return h.Via == host.Hook && h.Name != cline.Host }

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// Uninstall after the file changed since install (a host recorded a
// permission) keeps that change and removes only atreides's entries, in
// the file's own layout.
func TestUninstallAfterAChange(t *testing.T) {
	self := fakeBin(t)
	for _, h := range All() {
		if !settingsFile(h) {
			continue
		}
		t.Run(h.Name, func(t *testing.T) {
			root := t.TempDir()
			env := host.Env{ProjectDir: root, Home: root, Getenv: func(string) string { return "" }, LookPath: exec.LookPath}
			scope := h.DefaultScope()
			path := h.Path(env, scope)
			orig := `{"a":[1,2],"hooks":{}}`
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte(orig), 0o644); err != nil {
				t.Fatal(err)
			}
			bin, _ := host.BinaryFor(scope, self, "")
			if _, err := h.Install(env, host.Options{Scope: scope, Binary: bin}); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(path)
			changed := strings.Replace(string(data), `"a":[1,2]`, `"a":[1,2,3]`, 1)
			if changed == string(data) {
				t.Fatalf("fixture not found in %s", data)
			}
			if err := os.WriteFile(path, []byte(changed), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, err := h.Uninstall(env, scope); err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(path)
			if want := `{"a":[1,2,3]}`; string(got) != want {
				t.Errorf("got %s, want %s", got, want)
			}
		})
	}
}

func TestBinaryFor(t *testing.T) {
	if b, err := host.BinaryFor(install.ScopeProject, "/x/atreides", ""); err != nil || b != install.PortableBinary {
		t.Errorf("project: %q %v", b, err)
	}
	if _, err := host.BinaryFor(install.ScopeProject, "/x/atreides", "/y/atreides"); err == nil {
		t.Error("a pinned binary in a project file was accepted")
	}
	for _, sc := range []install.Scope{install.ScopeLocal, install.ScopeUser} {
		if b, _ := host.BinaryFor(sc, "/x/atreides", ""); b != "/x/atreides" {
			t.Errorf("%s: %q", sc, b)
		}
		if b, _ := host.BinaryFor(sc, "/x/atreides", "/y/atreides"); b != "/y/atreides" {
			t.Errorf("%s pinned: %q", sc, b)
		}
	}
}

func TestSeen(t *testing.T) {
	home := t.TempDir()
	env := host.Env{ProjectDir: t.TempDir(), Home: home, Getenv: func(string) string { return "" },
		LookPath: func(string) (string, error) { return "", exec.ErrNotFound }}
	for _, h := range All() {
		if h.Seen(env) {
			t.Errorf("%s seen on an empty machine", h.Name)
		}
		dirs := h.ConfigDirs(env)
		if len(dirs) == 0 {
			t.Fatalf("%s has no config directory", h.Name)
		}
		if err := os.MkdirAll(dirs[0], 0o755); err != nil {
			t.Fatal(err)
		}
		if !h.Seen(env) {
			t.Errorf("%s not seen with %s present", h.Name, dirs[0])
		}
	}
	env = host.Env{Home: t.TempDir(), Getenv: func(string) string { return "" },
		LookPath: func(p string) (string, error) {
			if slices.Contains(claude.Entry.Programs, p) {
				return "/bin/" + p, nil
			}
			return "", exec.ErrNotFound
		}}
	if !claude.Entry.Seen(env) || gemini.Entry.Seen(env) {
		t.Error("seen by program on PATH")
	}
}

func TestInstructionsFile(t *testing.T) {
	dir := t.TempDir()
	env := host.Env{ProjectDir: dir}
	agents, claudeMD := filepath.Join(dir, "AGENTS.md"), filepath.Join(dir, "CLAUDE.md")
	if got := claude.Entry.InstructionsFile(env); got != agents {
		t.Errorf("no file: %s", got)
	}
	if err := os.WriteFile(claudeMD, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := claude.Entry.InstructionsFile(env); got != claudeMD {
		t.Errorf("CLAUDE.md only: %s", got)
	}
	if got := codex.Entry.InstructionsFile(env); got != agents {
		t.Errorf("codex: %s", got)
	}
	if err := os.WriteFile(agents, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got := claude.Entry.InstructionsFile(env); got != agents {
		t.Errorf("both: %s", got)
	}
}

// doctor says plainly when the atreides a project file names is not on
// PATH, and what to do.
func TestFileCheckAtreidesNotOnPath(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	env := host.Env{ProjectDir: t.TempDir(), Home: t.TempDir(), Getenv: func(string) string { return "" }, LookPath: exec.LookPath}
	path := claude.Entry.Path(env, install.ScopeProject)
	if _, err := claude.Install(claude.InstallOptions{SettingsPath: path, BinaryPath: install.PortableBinary}); err != nil {
		t.Fatal(err)
	}
	st, err := claude.Entry.Inspect(path)
	if err != nil {
		t.Fatal(err)
	}
	c := claude.Entry.FileCheck(install.ScopeProject, st)
	if c.Status != host.Problem || !strings.Contains(c.Detail, "atreides is not on PATH") || !strings.Contains(c.Detail, "--local") {
		t.Errorf("check %+v", c)
	}
}

// TestReadsBeforeWrite: only Claude Code refuses an edit of an unread file
// by itself (its Edit and Write; OpenCode 1.18.33's tools no longer check
// although their descriptions say so), so atreides checks the others.
func TestReadsBeforeWrite(t *testing.T) {
	for _, h := range All() {
		if got, want := h.Facts.ReadsBeforeWrite, h.Name == "claude"; got != want {
			t.Errorf("%s: ReadsBeforeWrite %v, want %v", h.Name, got, want)
		}
	}
}

// TestToolName: each host's name for atreides's tools, as its pinned
// version shows them to the model.
func TestToolName(t *testing.T) {
	for _, tc := range []struct{ host, want string }{
		{"claude", "mcp__atreides__todo_add"},
		{"gemini", "mcp_atreides_todo_add"},
		{"codex", "todo_add"},
		{"opencode", "atreides_todo_add"},
		{"kilo", "atreides_todo_add"},
		{"nosuchhost", "todo_add"},
	} {
		if got := Facts()[tc.host].ToolName("todo_add"); got != tc.want {
			t.Errorf("%s: %q, want %q", tc.host, got, tc.want)
		}
	}
}

// TestHookFiles: the files the guard protects for a project and home, with
// CODEX_HOME set, in any order; the guard's tests use this list
// (testHostSettings in internal/guard/selfguard_test.go). Every settings
// file install writes to is among them, the variables that move the
// hosts' files add theirs, and nothing relative slips in when the home or
// the project is unknown.
func TestHookFiles(t *testing.T) {
	env := map[string]string{"CODEX_HOME": "/srv/codex"}
	got := hookFiles("/home/user/proj", "/home/user", func(k string) string { return env[k] })
	want := []string{
		"/home/user/proj/.claude/settings.json", "/home/user/proj/.claude/settings.local.json", "/home/user/proj/.mcp.json",
		"/home/user/proj/.gemini/settings.json", "/home/user/.claude/settings.json", "/home/user/.gemini/settings.json",
		// The records of installed plugins and extensions.
		"/home/user/.claude/plugins/installed_plugins.json", "/home/user/.claude/plugins/known_marketplaces.json",
		"/home/user/.gemini/extensions/extension-enablement.json",
		"/home/user/proj/.codex/hooks.json", "/home/user/proj/.codex/config.toml", "/srv/codex/hooks.json",
		"/srv/codex/config.toml", "/home/user/.codex/hooks.json", "/home/user/.codex/config.toml",
		"/home/user/proj/.opencode/plugin/", "/home/user/proj/.opencode/plugins/", "/home/user/proj/.opencode/opencode.json",
		"/home/user/proj/.opencode/opencode.jsonc", "/home/user/proj/opencode.json", "/home/user/proj/opencode.jsonc",
		"/home/user/.config/opencode/plugin/", "/home/user/.config/opencode/plugins/",
		"/home/user/.config/opencode/opencode.json", "/home/user/.config/opencode/opencode.jsonc",
		"/home/user/proj/.github/hooks/", "/home/user/proj/.github/copilot/settings.json", "/home/user/proj/.github/copilot/settings.local.json",
		"/home/user/.copilot/hooks/", "/home/user/.copilot/settings.json", "/home/user/.copilot/config.json", "/home/user/.copilot/mcp-config.json",
		"/home/user/proj/.qwen/settings.json", "/home/user/.qwen/settings.json",
		// Kilo Code: .kilo and legacy .kilocode in the project and the
		// home, ~/.config/kilo, and the project's root config files.
		"/home/user/proj/.kilo/plugin/", "/home/user/proj/.kilo/plugins/", "/home/user/proj/.kilo/kilo.json",
		"/home/user/proj/.kilo/kilo.jsonc", "/home/user/proj/.kilo/opencode.json", "/home/user/proj/.kilo/opencode.jsonc",
		"/home/user/proj/.kilocode/plugin/", "/home/user/proj/.kilocode/plugins/", "/home/user/proj/.kilocode/kilo.json",
		"/home/user/proj/.kilocode/kilo.jsonc", "/home/user/proj/.kilocode/opencode.json", "/home/user/proj/.kilocode/opencode.jsonc",
		"/home/user/proj/kilo.json", "/home/user/proj/kilo.jsonc",
		"/home/user/.config/kilo/plugin/", "/home/user/.config/kilo/plugins/", "/home/user/.config/kilo/kilo.json",
		"/home/user/.config/kilo/kilo.jsonc", "/home/user/.config/kilo/opencode.json", "/home/user/.config/kilo/opencode.jsonc",
		"/home/user/.config/kilo/config.json",
		"/home/user/.kilo/plugin/", "/home/user/.kilo/plugins/", "/home/user/.kilo/kilo.json",
		"/home/user/.kilo/kilo.jsonc", "/home/user/.kilo/opencode.json", "/home/user/.kilo/opencode.jsonc",
		"/home/user/.kilocode/plugin/", "/home/user/.kilocode/plugins/", "/home/user/.kilocode/kilo.json",
		"/home/user/.kilocode/kilo.jsonc", "/home/user/.kilocode/opencode.json", "/home/user/.kilocode/opencode.jsonc",
		"/home/user/proj/.clinerules/hooks/", "/home/user/proj/.cline/hooks/", "/home/user/.cline/hooks/",
		"/home/user/.cline/data/settings/cline_mcp_settings.json", "/home/user/Documents/Cline/Hooks/",
	}
	if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(want))) {
		t.Errorf("hook files\n got %q\nwant %q", got, want)
	}
	for _, h := range All() {
		e := host.Env{ProjectDir: "/home/user/proj", Home: "/home/user", Getenv: func(k string) string { return env[k] }}
		for _, s := range h.Scopes {
			if p := h.Path(e, s); !slices.Contains(got, p) && !slices.Contains(got, filepath.Dir(p)+"/") {
				t.Errorf("%s %s: %s, where install writes, is not a hook file", h.Name, s, p)
			}
		}
	}
	moved := map[string]string{"OPENCODE_CONFIG_DIR": "/oc", "OPENCODE_CONFIG": "/x/oc.json", "XDG_CONFIG_HOME": "/xdg"}
	got = hookFiles("/p", "/h", func(k string) string { return moved[k] })
	for _, w := range []string{"/oc/plugin/", "/oc/opencode.json", "/x/oc.json", "/xdg/opencode/plugin/"} {
		if !slices.Contains(got, w) {
			t.Errorf("with %v: %s is not a hook file", moved, w)
		}
	}
	for _, tc := range []struct{ proj, home string }{{"", "/h"}, {"/p", ""}, {"", ""}} {
		for _, p := range hookFiles(tc.proj, tc.home, func(string) string { return "" }) {
			if !filepath.IsAbs(p) {
				t.Errorf("hookFiles(%q, %q) has a relative path %q", tc.proj, tc.home, p)
			}
			if tc.proj == "" && strings.HasPrefix(p, "/p/") || tc.home == "" && strings.HasPrefix(p, "/h/") {
				t.Errorf("hookFiles(%q, %q) = %q", tc.proj, tc.home, p)
			}
		}
	}
}

// TestSessionVars: a host's session variable is one of the variables that
// mark its agent's commands (else a command could name a session and pass
// for a person's), and actor takes the session it names for the command's
// own, so the command may act for that session and no other.
func TestSessionVars(t *testing.T) {
	var named []string
	for _, h := range All() {
		if h.SessionVar == "" {
			continue
		}
		named = append(named, h.SessionVar)
		if !slices.Contains(h.AgentVars, h.SessionVar) {
			t.Errorf("%s: SessionVar %s is not one of its AgentVars %q", h.Name, h.SessionVar, h.AgentVars)
		}
		e := actor.Env{Getenv: func(k string) string {
			if k == h.SessionVar {
				return "s1"
			}
			return ""
		}, Marks: AgentVars(), Sessions: SessionVars()}
		if err := actor.ActAs("s1", e); err != nil {
			t.Errorf("%s: %s=s1 may not act as s1: %v", h.Name, h.SessionVar, err)
		}
		if err := actor.ActAs("s2", e); err == nil {
			t.Errorf("%s: %s=s1 may act as s2", h.Name, h.SessionVar)
		}
	}
	if !slices.Equal(named, SessionVars()) {
		t.Errorf("SessionVars() = %q, want %q", SessionVars(), named)
	}
	if len(named) == 0 {
		t.Error("no host names its agent's session; Claude Code does (CLAUDE_CODE_SESSION_ID)")
	}
}

// TestAgentVars: each variable a host marks its agent's commands with
// tells actor an agent's command from a person's at a terminal, and the
// guard, handed the registry's (Guard), refuses a command that unsets it
// (or, for a name ending in "*", any variable it begins) before acting
// for another session.
func TestAgentVars(t *testing.T) {
	root := t.TempDir()
	for _, h := range All() {
		for _, v := range h.AgentVars {
			name, prefix := strings.CutSuffix(v, "*")
			e := actor.Env{Getenv: func(k string) string {
				if k == name {
					return "1"
				}
				return ""
			}, Terminal: true, Marks: AgentVars()}
			if actor.Person(e) {
				t.Errorf("%s: %s set, but actor takes the command for a person's", h.Name, name)
			}
			unset := name
			if prefix {
				unset += "_ANY"
			}
			cmd := "unset " + unset + "; atreides intent release --session s2"
			if policy.JudgeRun(policy.ForProject(root), Guard(), cmd, root, root) == nil {
				t.Errorf("%s: the guard allows %q", h.Name, cmd)
			}
		}
	}
	cmd := "unset SOME_VAR; atreides intent release --session s2"
	if err := policy.JudgeRun(policy.ForProject(root), Guard(), cmd, root, root); err != nil {
		t.Errorf("%q: %v, want it allowed (no host's variable)", cmd, err)
	}
}

// TestVia: every host is listed by the one transport it reaches atreides
// by, in the registry's order.
func TestVia(t *testing.T) {
	var got []string
	for _, tr := range []host.Transport{host.Hook, host.Serve} {
		var names []string
		for _, h := range Via(tr) {
			if h.Via != tr {
				t.Errorf("Via(%v) lists %s, which reaches atreides by %v", tr, h.Name, h.Via)
			}
			names = append(names, h.Name)
		}
		got = append(got, strings.Join(names, ","))
	}
	if want := []string{"claude,gemini,codex,copilot,qwen,cline", "opencode,kilo"}; !slices.Equal(got, want) {
		t.Errorf("Via(Hook), Via(Serve) = %q, want %q", got, want)
	}
}
