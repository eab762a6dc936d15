package readme

import (
	"context"
	"errors"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// readmePath is the README under test, from this package's directory.
const readmePath = "../../README.md"

// hostsBin holds the pinned host CLIs (claude, gemini) the plugin lines run.
var hostsBin, _ = filepath.Abs("../e2e/hosts/node_modules/.bin")

// blockTimeout bounds one block: an npm install of the platform package
// from 127.0.0.1 takes seconds; a hang must fail, not stall CI.
const blockTimeout = 4 * time.Minute

// source maps one published source a README line names to what the test
// serves instead (see the package comment).
type source struct{ published, local string }

// sources are the mappings, most specific first. npm and npx need no
// rewriting: npm_config_registry points them at the fake registry.
func sources(net *fakeNet) []source {
	return []source{
		{"atreides-dev/atreides-claude-plugin", filepath.Join(net.dist, "claude-plugin")},
		{"https://github.com/atreides-dev/atreides-gemini-extension", filepath.Join(net.dist, "gemini-extension")},
		{"https://api.github.com/", net.URL + "/api/"},
		{"https://github.com/", net.URL + "/github/"},
	}
}

// unmapped finds a published source left in a mapped script once the
// fake's own address is taken out: any address, or a GitHub owner/repo
// as a word of its own (the npm scope @atreides-dev/ and paths aside).
var unmapped = regexp.MustCompile(`://|github\.com|(?:^|\s)atreides-dev/`)

// mapSources rewrites a block's published sources to the local ones.
func mapSources(script, fakeURL string, srcs []source) (string, error) {
	for _, s := range srcs {
		script = strings.ReplaceAll(script, s.published, s.local)
	}
	if m := unmapped.FindString(strings.ReplaceAll(script, fakeURL, "")); m != "" {
		return "", errors.New("the block names a published source the test does not map (" + m + "): add it to sources")
	}
	return script, nil
}

// TestREADMEInstallLines runs every install-test block of the README in a
// scratch HOME against the release in $ATREIDES_RELEASE_DIST, then checks
// what the block was meant to do.
func TestREADMEInstallLines(t *testing.T) {
	blocks, err := installBlocks(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	dist := os.Getenv("ATREIDES_RELEASE_DIST")
	if dist == "" {
		missing(t, "ATREIDES_RELEASE_DIST is not set: run scripts/release --snapshot and point it at the dist directory")
	}
	version, err := releaseVersion(dist)
	if err != nil {
		t.Fatal(err)
	}
	net := startFakeNet(t, dist, version)
	for _, b := range blocks {
		t.Run(b.name(), func(t *testing.T) {
			checks := checksFor(b)
			if len(checks) == 0 {
				t.Fatalf("README line %d: no check knows what this block should do; add one to checks", b.line)
			}
			for _, c := range checks {
				if c.needsHosts {
					requireHosts(t)
				}
			}
			script, err := mapSources(b.script(), net.URL, sources(net))
			if err != nil {
				t.Fatalf("README line %d: %v", b.line, err)
			}
			s := newScratch(t, net)
			s.run(script)
			for _, c := range checks {
				c.check(s, version)
			}
		})
	}
}

// missing skips for want of a prerequisite, or fails under CI or
// ATREIDES_E2E_REQUIRE=1, where a skip would let a run that tested nothing
// pass.
func missing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("CI") != "" || os.Getenv("ATREIDES_E2E_REQUIRE") == "1" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// requireHosts: the pinned claude and gemini CLIs are installed.
func requireHosts(t *testing.T) {
	t.Helper()
	for _, name := range []string{"claude", "gemini"} {
		if _, err := os.Stat(filepath.Join(hostsBin, name)); err != nil {
			missing(t, "the pinned host CLIs are not installed (scripts/test installs them into test/e2e/hosts/node_modules): "+err.Error())
		}
	}
}

// scratch is one block's world: a HOME of its own (XDG directories and
// npm's cache and prefix inside it) and a scratch git project as the
// working directory.
type scratch struct {
	t       *testing.T
	home    string
	project string
	env     []string
}

func newScratch(t *testing.T, net *fakeNet) *scratch {
	t.Helper()
	home := t.TempDir()
	s := &scratch{t: t, home: home, project: filepath.Join(t.TempDir(), "project")}
	if err := os.MkdirAll(s.project, 0o755); err != nil {
		t.Fatal(err)
	}
	prefix := filepath.Join(home, ".npm-global")
	s.env = []string{
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_STATE_HOME=" + filepath.Join(home, ".local", "state"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		// The user's PATH: where the README installs to first, the system,
		// and last the pinned host CLIs (their folder also holds a node).
		"PATH=" + strings.Join([]string{filepath.Join(home, ".local", "bin"), filepath.Join(prefix, "bin"), "/usr/bin", "/bin", hostsBin}, string(os.PathListSeparator)),
		"TMPDIR=" + t.TempDir(),
		"LANG=C.UTF-8",
		"NO_COLOR=1",
		"npm_config_registry=" + net.URL + "/",
		"npm_config_cache=" + filepath.Join(home, ".npm"),
		"npm_config_prefix=" + prefix,
		"npm_config_userconfig=" + filepath.Join(home, ".npmrc"),
		"npm_config_update_notifier=false",
		"npm_config_fund=false",
		"npm_config_audit=false",
		"DISABLE_AUTOUPDATER=1",
		"DISABLE_TELEMETRY=1",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1",
	}
	s.cmd("git", "init", "-q", ".")
	return s
}

// run runs a script with bash -e, tracing each line, in the project.
func (s *scratch) run(script string) {
	s.t.Helper()
	file := filepath.Join(s.home, "readme-block.sh")
	if err := os.WriteFile(file, []byte(script), 0o644); err != nil {
		s.t.Fatal(err)
	}
	out, err := s.output("bash", "-e", "-x", file)
	if err != nil {
		s.t.Fatalf("the block failed: %v\n--- script\n%s--- output\n%s", err, script, out)
	}
	s.t.Logf("output:\n%s", out)
}

// cmd runs a program in the project and fails the test if it fails.
func (s *scratch) cmd(name string, args ...string) string {
	s.t.Helper()
	out, err := s.output(name, args...)
	if err != nil {
		s.t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

// output runs a program found on the scratch PATH, within blockTimeout,
// stdin empty, and returns its combined output.
func (s *scratch) output(name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), blockTimeout)
	defer cancel()
	path, err := s.lookPath(name)
	if err != nil {
		return "", err
	}
	c := exec.CommandContext(ctx, path, args...)
	c.Dir, c.Env, c.Stdin = s.project, s.env, nil
	c.WaitDelay = 5 * time.Second
	out, err := c.CombinedOutput()
	if ctx.Err() != nil {
		err = errors.Join(err, errors.New("timed out after "+blockTimeout.String()))
	}
	return string(out), err
}

// lookPath finds a program on the scratch PATH, not the test's.
func (s *scratch) lookPath(name string) (string, error) {
	if strings.Contains(name, "/") {
		return name, nil
	}
	for _, kv := range s.env {
		if dirs, ok := strings.CutPrefix(kv, "PATH="); ok {
			for _, d := range filepath.SplitList(dirs) {
				p := filepath.Join(d, name)
				if fi, err := os.Stat(p); err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0 {
					return p, nil
				}
			}
		}
	}
	return "", errors.New(name + " is not on the scratch PATH")
}

// TestREADMEMarksEveryChannel holds without a release: every channel the
// checks know has a marked block in the README, every marked block has a
// check, and every published source in them is mapped, so the README
// cannot lose a channel's test or gain an unmapped line unnoticed.
func TestREADMEMarksEveryChannel(t *testing.T) {
	blocks, err := installBlocks(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	net := &fakeNet{dist: "/dist"}
	net.Server = &httptest.Server{URL: "http://127.0.0.1:1"}
	seen := map[string]bool{}
	for _, b := range blocks {
		cs := checksFor(b)
		if len(cs) == 0 {
			t.Errorf("README line %d: no check knows what this block should do", b.line)
		}
		for _, c := range cs {
			seen[c.marker] = true
		}
		if _, err := mapSources(b.script(), net.URL, sources(net)); err != nil {
			t.Errorf("README line %d: %v", b.line, err)
		}
	}
	for _, c := range checks {
		if !seen[c.marker] {
			t.Errorf("no install-test block of the README runs %q", c.marker)
		}
	}
}

// TestREADMEGoInstallLine: the README's go install line names this
// module's command. It is not an install-test block: building the module
// from a proxy made of this checkout takes minutes, and test/goinstall
// does exactly that for the same line.
func TestREADMEGoInstallLine(t *testing.T) {
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	module := ""
	for _, l := range strings.Split(string(mod), "\n") {
		if m, ok := strings.CutPrefix(l, "module "); ok {
			module = strings.TrimSpace(m)
		}
	}
	readme, err := os.ReadFile(readmePath)
	if err != nil {
		t.Fatal(err)
	}
	want := "go install " + module + "/cmd/atreides@latest"
	for _, l := range strings.Split(string(readme), "\n") {
		if strings.TrimSpace(l) == want {
			return
		}
	}
	t.Errorf("README.md has no line %q", want)
}
