package hostpack

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"runtime"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/install/installtest"
	"github.com/atreides-dev/atreides/internal/slash"
)

// fakeDist is a build output with two targets (this machine's, so the
// launcher can be run, and windows/arm64) whose programs print their name
// and arguments, and a LICENSE above it as in the repository.
func fakeDist(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	if err := os.WriteFile(filepath.Join(root, "LICENSE"), []byte("Apache License\nVersion 2.0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dist := filepath.Join(root, "dist")
	for _, tg := range []target{{runtime.GOOS, runtime.GOARCH}, {"windows", "arm64"}} {
		for _, p := range programs {
			path := filepath.Join(dist, "bin", tg.dir(), tg.exe(p))
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(path, []byte("#!/bin/sh\necho "+p+" \"$@\"\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
	}
	return dist
}

// files lists the regular files under root, slash-separated and sorted.
func files(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err == nil && !fi.IsDir() {
			rel, _ := filepath.Rel(root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

// readJSON parses a file strictly: one JSON value and nothing after it.
func readJSON(t *testing.T, path string) map[string]any {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(strings.NewReader(string(b)))
	var v map[string]any
	if err := dec.Decode(&v); err != nil || dec.More() {
		t.Fatalf("%s is not one JSON object: %v\n%s", path, err, b)
	}
	return v
}

func wantFiles(t *testing.T, prefix string, agentsExt, cmdExt string, extra ...string) []string {
	t.Helper()
	r, err := roster()
	if err != nil {
		t.Fatal(err)
	}
	out := slices.Clone(extra)
	for _, a := range r.Subagents() {
		out = append(out, prefix+"agents/"+a.HostName()+agentsExt)
	}
	cmds, err := slash.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		out = append(out, prefix+"commands/"+c.HostName()+cmdExt)
	}
	host := runtime.GOOS + "-" + runtime.GOARCH
	out = append(out, prefix+"LICENSE", prefix+"README.md", prefix+"bin/atreides",
		prefix+"bin/"+host+"/atreides", prefix+"bin/"+host+"/atreides-mcp",
		prefix+"bin/windows-arm64/atreides.exe", prefix+"bin/windows-arm64/atreides-mcp.exe",
		prefix+"hooks/hooks.json")
	sort.Strings(out)
	return out
}

func TestWriteFileLists(t *testing.T) {
	dist := fakeDist(t)
	if err := Write(dist, "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	p := ClaudePlugin + "/"
	want := wantFiles(t, p, ".md", ".md", ".claude-plugin/marketplace.json", p+".claude-plugin/plugin.json", p+".mcp.json")
	if got := files(t, filepath.Join(dist, ClaudeDir)); !slices.Equal(got, want) {
		t.Errorf("claude-plugin files:\n got %q\nwant %q", got, want)
	}
	want = wantFiles(t, "", ".md", ".toml", "gemini-extension.json")
	if got := files(t, filepath.Join(dist, GeminiDir)); !slices.Equal(got, want) {
		t.Errorf("gemini-extension files:\n got %q\nwant %q", got, want)
	}
}

func TestManifests(t *testing.T) {
	dist := fakeDist(t)
	if err := Write(dist, "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	m := readJSON(t, filepath.Join(dist, ClaudeDir, ".claude-plugin/marketplace.json"))
	entry := m["plugins"].([]any)[0].(map[string]any)
	if m["name"] != Name || entry["name"] != Name || entry["source"] != "./"+ClaudePlugin || entry["version"] != "1.2.3" || entry["license"] != License {
		t.Errorf("marketplace.json: %v", m)
	}
	pl := readJSON(t, filepath.Join(dist, ClaudeDir, ClaudePlugin, ".claude-plugin/plugin.json"))
	if pl["name"] != Name || pl["version"] != "1.2.3" || pl["license"] != "Apache-2.0" || pl["homepage"] == nil || pl["author"] == nil {
		t.Errorf("plugin.json: %v", pl)
	}
	ext := readJSON(t, filepath.Join(dist, GeminiDir, "gemini-extension.json"))
	if ext["name"] != Name || ext["version"] != "1.2.3" || ext["license"] != "Apache-2.0" {
		t.Errorf("gemini-extension.json: %v", ext)
	}
	if _, ok := ext["contextFileName"]; ok {
		t.Error("gemini-extension.json names a context file: install writes none for Gemini CLI")
	}
	for _, dir := range []string{filepath.Join(ClaudeDir, ClaudePlugin), GeminiDir} {
		if b, _ := os.ReadFile(filepath.Join(dist, dir, "LICENSE")); !strings.HasPrefix(string(b), "Apache License") {
			t.Errorf("%s/LICENSE = %q", dir, b)
		}
	}
}

// installedHooks is the "hooks" object install writes into a fresh
// settings file, as JSON values.
func installedHooks(t *testing.T, install func(path string) error) any {
	t.Helper()
	path := filepath.Join(t.TempDir(), "settings.json")
	if err := install(path); err != nil {
		t.Fatal(err)
	}
	return readJSON(t, path)["hooks"]
}

// withCommandWord replaces the program word of every hook command.
func withCommandWord(t *testing.T, hooks any, from, to string) any {
	t.Helper()
	for _, groups := range hooks.(map[string]any) {
		for _, g := range groups.([]any) {
			for _, h := range g.(map[string]any)["hooks"].([]any) {
				h := h.(map[string]any)
				cmd := h["command"].(string)
				if !strings.HasPrefix(cmd, from+" ") {
					t.Fatalf("hook command %q does not start with %q", cmd, from)
				}
				h["command"] = to + strings.TrimPrefix(cmd, from)
			}
		}
	}
	return hooks
}

func TestHooksAreInstalls(t *testing.T) {
	dist := fakeDist(t)
	if err := Write(dist, "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	t.Run("claude", func(t *testing.T) {
		want := installedHooks(t, func(path string) error {
			_, err := claude.Install(claude.InstallOptions{SettingsPath: path, BinaryPath: "atreides"})
			return err
		})
		doc := readJSON(t, filepath.Join(dist, ClaudeDir, ClaudePlugin, "hooks/hooks.json"))
		got := withCommandWord(t, doc["hooks"], `"${CLAUDE_PLUGIN_ROOT}/bin/atreides"`, "atreides")
		if !reflect.DeepEqual(got, want) {
			t.Errorf("plugin hooks differ from install's beyond the command word:\n got %v\nwant %v", got, want)
		}
	})
	t.Run("gemini", func(t *testing.T) {
		want := installedHooks(t, func(path string) error {
			_, err := gemini.Install(gemini.InstallOptions{SettingsPath: path, BinaryPath: "atreides"})
			return err
		})
		doc := readJSON(t, filepath.Join(dist, GeminiDir, "hooks/hooks.json"))
		if len(doc) != 1 {
			t.Errorf("hooks.json has keys beside hooks: %v", doc)
		}
		got := withCommandWord(t, doc["hooks"], `"${extensionPath}/bin/atreides"`, "atreides")
		if !reflect.DeepEqual(got, want) {
			t.Errorf("extension hooks differ from install's beyond the command word:\n got %v\nwant %v", got, want)
		}
	})
}

// installedServer is the "atreides" MCP server install writes for an
// atreides at bin, with bin replaced by command.
func installedServer(t *testing.T, install func(path, bin string) error, command string) any {
	t.Helper()
	bin := installtest.Bins(t, "atreides", guard.MCPBinary)
	path := filepath.Join(t.TempDir(), "mcp.json")
	if err := install(path, bin); err != nil {
		t.Fatal(err)
	}
	s := readJSON(t, path)["mcpServers"].(map[string]any)["atreides"].(map[string]any)
	if s["command"] != bin {
		t.Fatalf("install wrote server %v for %s", s, bin)
	}
	s["command"] = command
	return s
}

func TestMCPServersAreInstalls(t *testing.T) {
	dist := fakeDist(t)
	if err := Write(dist, "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	const claudeCmd = "${CLAUDE_PLUGIN_ROOT}/bin/atreides"
	want := installedServer(t, func(path, bin string) error { _, err := claude.InstallMCP(path, bin, ""); return err }, claudeCmd)
	got := readJSON(t, filepath.Join(dist, ClaudeDir, ClaudePlugin, ".mcp.json"))["mcpServers"].(map[string]any)["atreides"]
	if !reflect.DeepEqual(got, want) {
		t.Errorf("plugin .mcp.json server %v, install writes %v", got, want)
	}
	const geminiCmd = "${extensionPath}/bin/atreides"
	want = installedServer(t, func(path, bin string) error { _, err := gemini.InstallMCP(path, bin, ""); return err }, geminiCmd)
	got = readJSON(t, filepath.Join(dist, GeminiDir, "gemini-extension.json"))["mcpServers"].(map[string]any)["atreides"]
	if !reflect.DeepEqual(got, want) {
		t.Errorf("extension server %v, install writes %v", got, want)
	}
}

// The agent and command files are install's rendering, less its marker
// line; the plugin's commands name the tools as Claude Code names a
// plugin's MCP tools.
func TestAgentsAndCommands(t *testing.T) {
	dist := fakeDist(t)
	if err := Write(dist, "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	plugin := filepath.Join(dist, ClaudeDir, ClaudePlugin)
	for _, dir := range []string{filepath.Join(plugin, "agents"), filepath.Join(plugin, "commands"), filepath.Join(dist, GeminiDir, "agents"), filepath.Join(dist, GeminiDir, "commands")} {
		for _, f := range files(t, dir) {
			b, _ := os.ReadFile(filepath.Join(dir, f))
			if strings.Contains(string(b), "atreides uninstall' removes it") {
				t.Errorf("%s/%s carries install's marker line", dir, f)
			}
		}
	}
	b, err := os.ReadFile(filepath.Join(plugin, "commands", "at-todo.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), claude.PluginToolPrefix) || strings.Contains(string(b), claude.Facts.ToolPrefix) {
		t.Errorf("the plugin's /todo does not name the tools %s…:\n%s", claude.PluginToolPrefix, b)
	}
	b, _ = os.ReadFile(filepath.Join(dist, GeminiDir, "commands", "at-todo.toml"))
	if !strings.Contains(string(b), gemini.Facts.ToolPrefix) || !strings.Contains(string(b), "{{args}}") {
		t.Errorf("the extension's /todo:\n%s", b)
	}
	b, _ = os.ReadFile(filepath.Join(plugin, "agents", "atreides-explore.md"))
	if !strings.HasPrefix(string(b), "---\nname: atreides-explore\n") || !strings.Contains(string(b), "tools: Read, Grep, Glob") {
		t.Errorf("the plugin's explore agent:\n%s", b)
	}
}

func TestLauncher(t *testing.T) {
	dist := fakeDist(t)
	if err := Write(dist, "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(dist, ClaudeDir, ClaudePlugin), filepath.Join(dist, GeminiDir)} {
		for _, f := range files(t, filepath.Join(dir, "bin")) {
			fi, err := os.Stat(filepath.Join(dir, "bin", f))
			if err != nil || fi.Mode().Perm() != 0o755 {
				t.Errorf("%s/bin/%s: mode %v, %v; want 0755", dir, f, fi.Mode(), err)
			}
		}
	}
	if runtime.GOOS == "windows" {
		t.Skip("the launcher is a POSIX sh script; this test runs it with /bin/sh")
	}
	launcher := filepath.Join(dist, GeminiDir, "bin", "atreides")
	out, err := exec.Command(launcher, "hook", "gemini", "a b").CombinedOutput()
	if err != nil || string(out) != "atreides hook gemini a b\n" {
		t.Errorf("launcher: %q, %v; want this platform's atreides run with the arguments", out, err)
	}
	// A uname planted early in PATH (an agent may write ~/.local/bin)
	// must not decide which program runs: the launcher never looks
	// uname up in PATH.
	planted := t.TempDir()
	if err := os.WriteFile(filepath.Join(planted, "uname"), []byte("#!/bin/sh\necho Plan9 pdp11\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(launcher, "hook")
	cmd.Env = append(os.Environ(), "PATH="+planted+string(os.PathListSeparator)+os.Getenv("PATH"))
	if out, err := cmd.CombinedOutput(); err != nil || string(out) != "atreides hook\n" {
		t.Errorf("launcher with a uname planted in PATH: %q, %v; want this platform's atreides run", out, err)
	}
	// Without this platform's programs it says so and exits 1.
	if err := os.RemoveAll(filepath.Join(dist, GeminiDir, "bin", runtime.GOOS+"-"+runtime.GOARCH)); err != nil {
		t.Fatal(err)
	}
	out, err = exec.Command(launcher, "hook").CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(out), "no atreides program for this platform") || !strings.Contains(string(out), "windows-arm64") {
		t.Errorf("launcher without this platform: %q, %v; want a message naming what the package has, and exit 1", out, err)
	}
}

func TestWriteReplacesAndRefuses(t *testing.T) {
	dist := fakeDist(t)
	stale := filepath.Join(dist, GeminiDir, "stale")
	if err := os.MkdirAll(stale, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := Write(dist, "v1.2.3"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); err == nil {
		t.Error("a file of an earlier layout survived Write")
	}
	if err := os.Remove(filepath.Join(dist, "bin", "windows-arm64", "atreides-mcp.exe")); err != nil {
		t.Fatal(err)
	}
	if err := Write(dist, "v1.2.3"); err == nil || !strings.Contains(err.Error(), "atreides-mcp.exe") {
		t.Errorf("a target without atreides-mcp: %v", err)
	}
	if err := Write(t.TempDir(), "v1"); err == nil {
		t.Error("no build output: no error")
	}
}

func TestWriteNeedsLicense(t *testing.T) {
	dist := fakeDist(t)
	if err := os.Remove(filepath.Join(filepath.Dir(dist), "LICENSE")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat("/LICENSE"); err == nil {
		t.Skip("/LICENSE exists on this machine: a dist anywhere has a LICENSE above it")
	}
	if err := Write(dist, "v1.2.3"); err == nil || !strings.Contains(err.Error(), "no LICENSE") {
		t.Errorf("no LICENSE: %v", err)
	}
}
