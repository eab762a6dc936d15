//go:build unix

package release

import (
	"archive/tar"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/guard"
)

// programs are the programs every archive and platform package holds:
// all of atreides's, as the guard knows them, sorted as a directory
// listing is.
var programs = func() []string {
	p := guard.Programs()
	slices.Sort(p)
	return p
}()

// missing skips for want of a prerequisite, or fails under
// ATREIDES_E2E_REQUIRE=1, where a skip would let a run that tested
// nothing pass.
func missing(t *testing.T, why string) {
	t.Helper()
	if os.Getenv("ATREIDES_E2E_REQUIRE") == "1" || os.Getenv("CI") != "" {
		t.Fatal(why)
	}
	t.Skip(why)
}

// dist is the release under test, and its version without "v" (read
// from the linux-amd64 archive's name).
func dist(t *testing.T) (dir, version string) {
	t.Helper()
	if runtime.GOOS != "linux" || runtime.GOARCH != "amd64" {
		t.Skipf("runs the linux-amd64 programs; this is %s-%s", runtime.GOOS, runtime.GOARCH)
	}
	dir = os.Getenv("ATREIDES_RELEASE_DIST")
	if dir == "" {
		missing(t, "ATREIDES_RELEASE_DIST is not set: run scripts/release --snapshot --out DIR and set it to DIR")
	}
	archives, _ := filepath.Glob(filepath.Join(dir, "atreides_*_linux_amd64.tar.gz"))
	if len(archives) != 1 {
		t.Fatalf("%s holds %d linux-amd64 archives, want 1", dir, len(archives))
	}
	version = strings.TrimSuffix(strings.TrimPrefix(filepath.Base(archives[0]), "atreides_"), "_linux_amd64.tar.gz")
	return dir, version
}

// run runs name with args in dir and env, within a minute; it returns
// the output and fails the test when the program fails.
func run(t *testing.T, dir string, env []string, stdin io.Reader, name string, args ...string) string {
	t.Helper()
	out, err := runErr(dir, env, stdin, name, args...)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
	}
	return out
}

func runErr(dir string, env []string, stdin io.Reader, name string, args ...string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, name, args...)
	cmd.Dir, cmd.Env, cmd.Stdin = dir, env, stdin
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// TestArchive: every program of the linux-amd64 archive runs and says
// its name and the release's version.
func TestArchive(t *testing.T) {
	d, version := dist(t)
	tmp := t.TempDir()
	extract(t, filepath.Join(d, "atreides_"+version+"_linux_amd64.tar.gz"), tmp)
	top := filepath.Join(tmp, "atreides_"+version+"_linux_amd64")
	for _, f := range []string{"LICENSE", "README.md"} {
		if _, err := os.Stat(filepath.Join(top, f)); err != nil {
			t.Errorf("the archive lacks %s: %v", f, err)
		}
	}
	for _, p := range programs {
		out := run(t, tmp, os.Environ(), nil, filepath.Join(top, p), "--version")
		if want := p + " v" + version + " ("; !strings.HasPrefix(out, want) {
			t.Errorf("%s --version = %q, want it to start %q", p, out, want)
		}
	}
}

// extract unpacks a tar.gz into dir, keeping the modes.
func extract(t *testing.T, file, dir string) {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(zr)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.FromSlash(h.Name))
		if !strings.HasPrefix(dst, dir+string(filepath.Separator)) {
			t.Fatalf("%s: entry %s escapes", file, h.Name)
		}
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, body, os.FileMode(h.Mode).Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// npmEnv is an environment where npm can reach no registry (a fetch
// fails at once) and writes only into scratch: HOME and npm's cache.
func npmEnv(t *testing.T, home string) []string {
	t.Helper()
	for _, tool := range []string{"node", "npm"} {
		if _, err := exec.LookPath(tool); err != nil {
			missing(t, tool+" is not on PATH")
		}
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(strings.ToLower(kv), "npm_config_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
		"XDG_STATE_HOME="+filepath.Join(home, ".local", "state"), "XDG_DATA_HOME="+filepath.Join(home, ".local", "share"),
		"npm_config_cache="+filepath.Join(home, "npm-cache"), "npm_config_registry=http://127.0.0.1:9",
		"npm_config_update_notifier=false", "CLAUDE_PROJECT_DIR=")
}

// npmInstall installs the main and linux-x64 packages into a new prefix
// and returns it.
func npmInstall(t *testing.T, d, version string, env []string, extra ...string) string {
	t.Helper()
	prefix := filepath.Join(t.TempDir(), "prefix")
	main := filepath.Join(d, "npm", "atreides-dev-atreides-"+version+".tgz")
	plat := filepath.Join(d, "npm", "atreides-dev-atreides-linux-x64-"+version+".tgz")
	args := append([]string{"install", "--offline", "--no-audit", "--no-fund", "--prefix", prefix}, extra...)
	run(t, t.TempDir(), env, nil, "npm", append(args, main, plat)...)
	return prefix
}

// isELF says whether file (links followed) is a native program, not the
// Node launcher.
func isELF(t *testing.T, file string) bool {
	t.Helper()
	f, err := os.Open(file)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	head := make([]byte, 4)
	if _, err := io.ReadFull(f, head); err != nil {
		t.Fatal(err)
	}
	return string(head) == "\x7fELF"
}

// TestNpmInstall: the packages install offline; the postinstall put the
// native atreides in the launcher's place; it installs into a project
// and its PreToolUse hook denies a destructive command.
func TestNpmInstall(t *testing.T) {
	d, version := dist(t)
	home := t.TempDir()
	env := npmEnv(t, home)
	prefix := npmInstall(t, d, version, env)
	bin := filepath.Join(prefix, "node_modules", ".bin")
	atreides := filepath.Join(bin, "atreides")
	if !isELF(t, atreides) {
		t.Errorf("%s is not the native program after the postinstall", atreides)
	}
	// the companions sit beside the native atreides, where it looks for
	// them (companion.Path), and nothing else was left there
	mainBin := filepath.Join(prefix, "node_modules", "@atreides-dev", "atreides", "bin")
	entries, err := os.ReadDir(mainBin)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != strings.Join(programs, " ") {
		t.Errorf("%s holds %v, want %v", mainBin, names, programs)
	}
	// copies, not hard links: a write to the platform package's file
	// must not change the program the hooks run
	platBin := filepath.Join(prefix, "node_modules", "@atreides-dev", "atreides-linux-x64", "bin")
	for _, p := range programs {
		a, errA := os.Stat(filepath.Join(mainBin, p))
		b, errB := os.Stat(filepath.Join(platBin, p))
		if errA != nil || errB != nil || os.SameFile(a, b) {
			t.Errorf("%s: the main package's copy is the platform package's file (%v, %v)", p, errA, errB)
		}
	}
	out := run(t, home, env, nil, atreides, "version", "--json")
	var v struct{ Version, Commit, Date string }
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.Version != "v"+version || v.Commit == "" || v.Date == "" {
		t.Errorf("atreides version --json = %s (%v), want version v%s with a commit and date", out, err, version)
	}
	env = append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	proj := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, proj, env, nil, "git", "init", "-q")
	// by its path in .bin, which is what a lookup on env's PATH finds
	out = run(t, proj, env, nil, atreides, "install", "claude")
	if strings.Contains(out, "MCP tools not registered") {
		t.Errorf("install did not find atreides-mcp beside the npm-installed atreides:\n%s", out)
	}
	settings, err := os.ReadFile(filepath.Join(proj, ".claude", "settings.json"))
	if err != nil || !strings.Contains(string(settings), `"atreides hook claude`) {
		t.Fatalf("install wrote no hook calling atreides from PATH (%v):\n%s", err, settings)
	}
	denyHook(t, proj, env, atreides)
}

// denyHook runs a PreToolUse hook for a destructive command through
// atreides, as Claude Code would, and wants a deny.
func denyHook(t *testing.T, proj string, env []string, atreides string) {
	t.Helper()
	payload, err := json.Marshal(map[string]any{
		"session_id": "release-test", "transcript_path": filepath.Join(proj, "t.jsonl"), "cwd": proj,
		"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_use_id": "toolu_1",
		"tool_input": map[string]string{"command": "rm -rf ~/", "description": "clean up"},
	})
	if err != nil {
		t.Fatal(err)
	}
	env = append(env, "CLAUDE_PROJECT_DIR="+proj)
	out, err := runErr(proj, env, bytes.NewReader(payload), atreides, "hook", "claude")
	if err != nil && !strings.Contains(out, "deny") {
		t.Fatalf("atreides hook claude: %v\n%s", err, out)
	}
	if !strings.Contains(out, `"permissionDecision":"deny"`) {
		t.Errorf("the hook did not deny rm -rf ~/:\n%s", out)
	}
}

// TestNpmLauncher: with install scripts off, bin/atreides stays the Node
// launcher, which runs the platform package's program with the same
// arguments and passes its exit status back.
func TestNpmLauncher(t *testing.T) {
	d, version := dist(t)
	home := t.TempDir()
	env := npmEnv(t, home)
	prefix := npmInstall(t, d, version, env, "--ignore-scripts")
	atreides := filepath.Join(prefix, "node_modules", ".bin", "atreides")
	if isELF(t, atreides) {
		t.Fatalf("%s is native although scripts were off: this test would not test the launcher", atreides)
	}
	if out := run(t, home, env, nil, atreides, "version"); !strings.HasPrefix(out, "atreides v"+version+" (") {
		t.Errorf("atreides version through the launcher = %q", out)
	}
	out, err := runErr(home, env, nil, atreides, "no-such-command")
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(out, `unknown command "no-such-command"`) {
		t.Errorf("a usage error through the launcher: %v\n%s", err, out)
	}
	// without the platform package, the launcher names it
	if err := os.RemoveAll(filepath.Join(prefix, "node_modules", "@atreides-dev", "atreides-linux-x64")); err != nil {
		t.Fatal(err)
	}
	out, err = runErr(home, env, nil, atreides, "version")
	if err == nil || !strings.Contains(out, "@atreides-dev/atreides-linux-x64") {
		t.Errorf("with no platform package: %v\n%s", err, out)
	}
}

// TestNpx: 'npx -y @atreides-dev/atreides install' (here from the
// tarballs, offline) runs atreides from npm's npx cache, which npm
// deletes at will; user-scope hooks name a copy out of it, which denies
// a destructive command, and a project-scope install says how to put
// atreides on PATH.
func TestNpx(t *testing.T) {
	d, version := dist(t)
	home := t.TempDir()
	env := npmEnv(t, home)
	proj := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, proj, env, nil, "git", "init", "-q")
	npx := []string{"-y", "--offline",
		"--package=" + filepath.Join(d, "npm", "atreides-dev-atreides-"+version+".tgz"),
		"--package=" + filepath.Join(d, "npm", "atreides-dev-atreides-linux-x64-"+version+".tgz"),
		"--", "atreides", "install", "claude"}
	out := run(t, proj, env, nil, "npx", append(npx, "--user")...)
	stable := filepath.Join(home, ".local", "share", "atreides", "bin", "atreides")
	if strings.Count(out, "npx cache") != 1 || !strings.Contains(out, filepath.Dir(stable)) {
		t.Errorf("install from npx did not say once where the hooks' copy is:\n%s", out)
	}
	settings, err := os.ReadFile(filepath.Join(home, ".claude", "settings.json"))
	if err != nil || !strings.Contains(string(settings), `"`+stable+` hook claude`) || strings.Contains(string(settings), "_npx") {
		t.Fatalf("the user's hooks do not name %s (%v):\n%s", stable, err, settings)
	}
	if out := run(t, home, env, nil, stable, "version"); !strings.HasPrefix(out, "atreides v"+version) {
		t.Errorf("the copy says %q", out)
	}
	denyHook(t, proj, env, stable)
	out = run(t, proj, env, nil, "npx", npx...)
	if !strings.Contains(out, "npm install -g @atreides-dev/atreides") {
		t.Errorf("a project install from npx does not say how to put atreides on PATH:\n%s", out)
	}
}

// TestLauncherSignals: SIGTERM to the Node launcher reaches the program
// it runs (here 'atreides ui', which runs the atreides-ui companion
// found beside the platform package's atreides), and the launcher ends
// only after it: the dashboard's port is closed when the launcher is gone.
func TestLauncherSignals(t *testing.T) {
	d, version := dist(t)
	home := t.TempDir()
	env := npmEnv(t, home)
	prefix := npmInstall(t, d, version, env, "--ignore-scripts")
	proj := filepath.Join(t.TempDir(), "proj")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		t.Fatal(err)
	}
	run(t, proj, env, nil, "git", "init", "-q")
	cmd := exec.Command(filepath.Join(prefix, "node_modules", ".bin", "atreides"), "ui", "--addr", "127.0.0.1:0")
	var stderr bytes.Buffer
	cmd.Dir, cmd.Env, cmd.Stderr = proj, env, &stderr
	// Its own process group, so that whatever the test finds, nothing it
	// started outlives it; the signal under test goes to the launcher alone.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if m := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/`).FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		close(addr)
	}()
	var a string
	select {
	case a = <-addr:
	case <-time.After(30 * time.Second):
		t.Fatal("atreides ui did not say its address within 30 s")
	}
	if a == "" {
		t.Fatalf("atreides ui ended without saying its address:\n%s", stderr.String())
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("the launcher did not end within 20 s of SIGTERM")
	}
	if c, err := net.DialTimeout("tcp", a, time.Second); err == nil {
		c.Close()
		t.Errorf("the dashboard still listens on %s after the launcher ended", a)
	}
}
