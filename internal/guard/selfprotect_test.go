package guard_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/host/opencode"
	"github.com/atreides-dev/atreides/internal/shellcall"
)

// selfFixture is a real project on disk for the self-protection suite:
// atreides's state and configuration, the hosts' hook settings, the
// installed binary and a shim on PATH, and links, so that the resolver
// the hook uses (shellcall.Resolver) resolves what the shell would.
type selfFixture struct {
	root, home, proj string
	req              guard.Request
}

func newSelfFixture(t *testing.T) *selfFixture {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	f := &selfFixture{root: root, home: root + "/home", proj: root + "/home/proj"}
	bin := []byte("\x7fELF atreides build 1\n" + strings.Repeat("x", 4096))
	files := map[string][]byte{
		"home/.claude/settings.json":           []byte(`{"hooks":{}}`),
		"home/.config/atreides/config.yaml":    []byte("guard: {}\n"),
		"home/go/bin/atreides":                 bin,
		"home/go/bin/atreides-mcp":             []byte("\x7fELF atreides-mcp\n"),
		"home/bin/atreides":                    []byte("#!/bin/sh\nexec ~/go/bin/atreides \"$@\"\n"),
		"home/proj/.atreides/config.yaml":      []byte("guard: {}\n"),
		"home/proj/.atreides/state.db":         nil,
		"home/proj/.atreides/state.db.lock":    nil,
		"home/proj/.claude/settings.json":      []byte(`{"hooks":{}}`),
		"home/proj/.git/HEAD":                  []byte("ref: refs/heads/main\n"),
		"home/proj/src/main.go":                []byte("package main\n"),
		"home/proj/docs/readme.md":             []byte("# docs\n"),
		"home/proj/lib/.keep":                  nil,
		"home/proj/tools/g":                    bin, // a renamed copy of the binary
		"home/proj/tools/app":                  []byte("\x7fELF app\n"),
		"home/proj/cmd/atreides/main.go":       []byte("package main\n"),
		"tmp/evil/.atreides/config.yaml":       []byte("guard: {enabled: false}\n"),
		"tmp/evil/.claude/settings.json":       []byte(`{"disableAllHooks":true}`),
		"tmp/other-project/.atreides/log":      nil,
		"home/proj/.opencode/opencode.json":    []byte("{}"),
		"home/proj/testdata/fixture/README.md": nil,
	}
	for name, data := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	links := map[string]string{
		"home/proj/notes.txt": ".claude/settings.local.json", // dangling: the file does not exist
		"home/proj/cfg":       ".atreides",
		"home/proj/d":         "docs",
		"home/proj/hooks":     root + "/home/.claude",
		"home/proj/g2":        root + "/home/go/bin/atreides",
		"home/proj/state":     ".atreides/state.db",
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(root, name)); err != nil {
			t.Fatal(err)
		}
	}
	installed := [][]byte{bin}
	hosts := all.Guard()
	f.req = guard.Request{Tool: "shell", Cwd: f.proj, ProjectRoot: f.proj, Home: f.home,
		TempDirs: []string{root + "/tmp", "/tmp"}, Resolve: shellcall.Resolver(),
		Self: f.home + "/go/bin/atreides", ConfigDir: f.home + "/.config/atreides",
		HostSettings: hosts.Files(f.proj, f.home, func(string) string { return "" }),
		Plugins:      hosts.Plugins(f.home, func(string) string { return "" }),
		Agents:       hosts.Agents,
		HostVars:     hosts.Vars,
		PathDirs:     []string{f.home + "/bin", f.home + "/go/bin", "/usr/local/bin", "/usr/bin", "/bin"},
		Readlink:     os.Readlink,
		SameBinary: func(p string) bool {
			data, err := os.ReadFile(p)
			for _, b := range installed {
				if err == nil && bytes.Equal(data, b) {
					return true
				}
			}
			return false
		},
	}
	return f
}

// expand fills the fixture's paths into a command of the table.
func (f *selfFixture) expand(s string) string {
	return strings.NewReplacer("{proj}", f.proj, "{home}", f.home, "{tmp}", f.root+"/tmp", "⏎", "\n").Replace(s)
}

type selfRow struct {
	line                 int
	family, expect, rule string
	cmd, note            string
}

// loadSelfRows reads testdata/selfprotect.tsv: family, expected verdict
// (deny, ask, allow), rule ("-" for allow), command ("⏎" is a newline),
// note.
func loadSelfRows(t *testing.T) []selfRow {
	t.Helper()
	fh, err := os.Open("testdata/selfprotect.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer fh.Close()
	var rows []selfRow
	s := bufio.NewScanner(fh)
	for n := 1; s.Scan(); n++ {
		line := s.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		c := strings.Split(line, "\t")
		if len(c) != 5 {
			t.Fatalf("selfprotect.tsv:%d: %d columns, want 5", n, len(c))
		}
		rows = append(rows, selfRow{line: n, family: c[0], expect: c[1], rule: c[2], cmd: c[3], note: c[4]})
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestSelfProtectionSuite: every way in the table to switch atreides off
// or blind it is denied or asked under the default policy, with the rule
// named; every harmless neighbour is allowed. Each family has both.
func TestSelfProtectionSuite(t *testing.T) {
	f := newSelfFixture(t)
	p := guard.DefaultPolicy()
	rows := loadSelfRows(t)
	ways, neighbours := map[string]int{}, map[string]int{}
	for _, r := range rows {
		req := f.req
		req.Resolve = shellcall.Resolver() // one per request, as the hook has
		req.Command = f.expand(r.cmd)
		got := p.Check(req)
		want := map[string]guard.Verdict{"deny": guard.Deny, "ask": guard.Ask, "allow": guard.Allow}[r.expect]
		if r.expect == "allow" {
			neighbours[r.family]++
		} else {
			ways[r.family]++
		}
		if got.Verdict != want || r.rule != "-" && got.Rule != r.rule {
			t.Errorf("selfprotect.tsv:%d [%s] %s\n  got  %s %s (%.160s)\n  want %s %s", r.line, r.family, r.cmd, got.Verdict, got.Rule, got.Reason, r.expect, r.rule)
		}
	}
	total := 0
	for fam, n := range ways {
		total += n
		if neighbours[fam] == 0 {
			t.Errorf("family %s has no harmless neighbour", fam)
		}
	}
	for fam := range neighbours {
		if ways[fam] == 0 {
			t.Errorf("family %s has neighbours but no way", fam)
		}
	}
	if total < 150 {
		t.Errorf("%d ways to switch atreides off, want at least 150", total)
	}
}

// TestSelfProtectionOpenCodePlugin: `opencode run` is an unguarded agent
// unless atreides's plugin is where OpenCode loads it for the project.
func TestSelfProtectionOpenCodePlugin(t *testing.T) {
	f := newSelfFixture(t)
	check := func() guard.Result {
		req := f.req
		req.Resolve = shellcall.Resolver()
		req.Command = `opencode run "fix the tests"`
		return guard.DefaultPolicy().Check(req)
	}
	if r := check(); r.Verdict != guard.Deny || r.Rule != "self.unguarded-agent" {
		t.Fatalf("without the plugin: %s %s, want deny self.unguarded-agent", r.Verdict, r.Rule)
	}
	plugin := filepath.Join(f.proj, ".opencode", "plugin", opencode.PluginFile)
	if err := os.MkdirAll(filepath.Dir(plugin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plugin, []byte("export default {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if r := check(); r.Verdict != guard.Allow {
		t.Errorf("with the plugin installed: %s %s (%s), want allow", r.Verdict, r.Rule, r.Reason)
	}
}

// blindFloor is the agreement the blind set must keep. The set was
// written by someone who had not read the rules; measured before any
// change made for it, the guard agreed on 92.1% of its rows (139 of 151).
// The misses it showed were fixed (lookups of atreides's path, tar
// --remove-files, reads through interpreters and sqlite3 -readonly).
// Its remaining disagreements are policy the set's author did not know
// (git checkout -- FILE discards changes; a rm -rf glob beside the
// project; codex with approvals off still runs atreides's hooks) or lie
// beyond what the shell text shows (xargs building a mv from echo), each
// listed by the test.
const blindFloor = 0.96

// TestSelfProtectionBlind runs testdata/selfprotect-blind.tsv (command,
// expected block or allow, note) under the default policy in the
// fixture: block is a deny or an ask.
func TestSelfProtectionBlind(t *testing.T) {
	f := newSelfFixture(t)
	p := guard.DefaultPolicy()
	data, err := os.ReadFile("testdata/selfprotect-blind.tsv")
	if err != nil {
		t.Fatal(err)
	}
	var agree, total int
	for n, line := range strings.Split(strings.TrimSpace(string(data)), "\n")[1:] {
		c := strings.Split(line, "\t")
		if len(c) != 3 || c[1] != "block" && c[1] != "allow" {
			t.Fatalf("selfprotect-blind.tsv:%d: want command, block|allow, note", n+2)
		}
		req := f.req
		req.Resolve = shellcall.Resolver()
		req.Command = c[0]
		got := p.Check(req)
		total++
		if (got.Verdict > guard.Allow) == (c[1] == "block") {
			agree++
			continue
		}
		t.Logf("selfprotect-blind.tsv:%d: want %s, got %s %s: %s", n+2, c[1], got.Verdict, got.Rule, c[0])
	}
	if rate := float64(agree) / float64(total); rate < blindFloor {
		t.Errorf("blind set: %d of %d agree (%.1f%%), below the floor of %.0f%%", agree, total, 100*rate, 100*blindFloor)
	}
}

// TestSelfProtectionAgentEnv: an agent host started with a variable that
// does what a refused flag does (COPILOT_ALLOW_ALL is --allow-all-tools,
// KILO_PURE is --pure) or that moves its hooks away (COPILOT_HOME,
// KILO_DISABLE_PROJECT_CONFIG) is an unguarded start like the flag; a
// false value is not.
func TestSelfProtectionAgentEnv(t *testing.T) {
	f := newSelfFixture(t)
	for cmd, want := range map[string]guard.Verdict{
		`COPILOT_ALLOW_ALL=true copilot -p "fix the tests"`:    guard.Deny,
		`COPILOT_ALLOW_ALL=1 copilot -p "fix the tests"`:       guard.Deny,
		`env COPILOT_ALLOW_ALL=yes copilot -p "fix the tests"`: guard.Deny,
		`COPILOT_HOME=/tmp/c copilot -p "fix the tests"`:       guard.Deny,
		`COPILOT_ALLOW_ALL="$X" copilot -p "fix the tests"`:    guard.Deny,
		`export COPILOT_ALLOW_ALL=true; copilot -p "x"`:        guard.Deny,
		`KILO_PURE=1 kilo run "x"`:                             guard.Deny,
		`KILO_DISABLE_PROJECT_CONFIG=true kilo run "x"`:        guard.Deny,
		`COPILOT_ALLOW_ALL=false copilot -p "fix the tests"`:   guard.Allow,
		`copilot -p "fix the tests"`:                           guard.Allow,
	} {
		req := f.req
		req.Resolve = shellcall.Resolver()
		req.Command = cmd
		r := guard.DefaultPolicy().Check(req)
		if r.Verdict != want || want == guard.Deny && r.Rule != "self.unguarded-agent" {
			t.Errorf("%s: %s %s (%s), want %s", cmd, r.Verdict, r.Rule, r.Reason, want)
		}
	}
}

// TestSelfProtectionKiloEnv: with atreides's plugin in the project's .kilo,
// `kilo run` is guarded, but not with KILO_PURE (--pure by another name)
// or KILO_DISABLE_PROJECT_CONFIG (7.7.7 then loads no .kilo/ at all).
func TestSelfProtectionKiloEnv(t *testing.T) {
	f := newSelfFixture(t)
	plugin := filepath.Join(f.proj, ".kilo", "plugin", opencode.PluginFile)
	if err := os.MkdirAll(filepath.Dir(plugin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(plugin, []byte("export default {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for cmd, want := range map[string]guard.Verdict{
		`kilo run "fix the tests"`:                                  guard.Allow,
		`KILO_PURE=0 kilo run "fix the tests"`:                      guard.Allow,
		`KILO_PURE=1 kilo run "fix the tests"`:                      guard.Deny,
		`KILO_DISABLE_PROJECT_CONFIG=true kilo run "fix the tests"`: guard.Deny,
	} {
		req := f.req
		req.Resolve = shellcall.Resolver()
		req.Command = cmd
		r := guard.DefaultPolicy().Check(req)
		if r.Verdict != want || want == guard.Deny && r.Rule != "self.unguarded-agent" {
			t.Errorf("%s: %s %s (%s), want %s", cmd, r.Verdict, r.Rule, r.Reason, want)
		}
	}
}
