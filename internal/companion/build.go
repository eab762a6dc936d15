package companion

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/guard"
)

// buildTimeout bounds the one build of the companions: a cold module
// cache and a slow machine take minutes, a hung proxy must not take hours.
const buildTimeout = 15 * time.Minute

// programs are the companion programs (every atreides program but
// atreides itself), by the name of their command directory under cmd/.
func programs() []string {
	return slices.DeleteFunc(guard.Programs(), func(p string) bool { return p == "atreides" })
}

// Source is where a 'go install' build of atreides came from: the module
// and its version, which the companions are installed at too.
type Source struct {
	Module, Version string
}

// GoInstalled reports the module and version of this binary when it was
// built by 'go install <module>/cmd/atreides@<version>' from a published
// version. A build from a checkout ("(devel)", a "+dirty" pseudo-version)
// has no version the go command could fetch again.
func GoInstalled() (Source, bool) {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return Source{}, false
	}
	return sourceOf(bi)
}

// sourceOf is GoInstalled for given build information.
func sourceOf(bi *debug.BuildInfo) (Source, bool) {
	v := bi.Main.Version
	if bi.Main.Path == "" || bi.Path != bi.Main.Path+"/cmd/atreides" || !strings.HasPrefix(v, "v") || strings.Contains(v, "+") {
		return Source{}, false
	}
	return Source{Module: bi.Main.Path, Version: v}, true
}

// installArgs are the go command's arguments installing every companion
// at src's version.
func (src Source) installArgs() []string {
	args := []string{"install"}
	for _, p := range programs() {
		args = append(args, src.Module+"/cmd/"+p+"@"+src.Version)
	}
	return args
}

// Ensure is [Path] for a command the user runs: when the companion is
// missing and this atreides came from 'go install', the companions are
// installed beside it first, at the same version, saying so on w (the
// go command's output goes there too; never standard output, which may
// be an MCP server's protocol stream). Beside it, the guard protects them
// as it protects atreides itself.
func Ensure(name, pkg string, w io.Writer) (string, error) {
	bin, err := Path(name, pkg)
	if err == nil {
		return bin, nil
	}
	src, ok := GoInstalled()
	if !ok {
		return "", err
	}
	if berr := InstallBeside(src, w); berr != nil {
		return "", fmt.Errorf("%s is not installed and building it failed: %w", name, berr)
	}
	return Path(name, pkg)
}

// Missing lists the companions not installed next to this binary.
func Missing() []string {
	var out []string
	for _, p := range programs() {
		if _, err := Path(p, "./cmd/"+p); err != nil {
			out = append(out, p)
		}
	}
	return out
}

// InstallBeside runs 'go install' for every companion at src's version,
// with GOBIN set to the directory of this binary.
func InstallBeside(src Source, w io.Writer) error {
	self, err := Self()
	if err != nil {
		return err
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		return fmt.Errorf("the go command is not on PATH; install the companions with 'go install %s/cmd/...@%s'", src.Module, src.Version)
	}
	dir := filepath.Dir(self)
	fmt.Fprintf(w, "atreides: installing the companion programs (%s) next to %s, once: go install %s/cmd/...@%s\n",
		strings.Join(programs(), ", "), self, src.Module, src.Version)
	ctx, cancel := context.WithTimeout(context.Background(), buildTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, goBin, src.installArgs()...)
	cmd.Env = installEnv(os.Environ(), dir)
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return fmt.Errorf("go install took longer than %s", buildTimeout)
		}
		return fmt.Errorf("go install: %w", err)
	}
	return nil
}

// installEnv is the go command's environment for installing the
// companions into dir: the user's environment without the go env file
// (GOENV=off), which any process of the user, the agent's shell commands
// included, can change with 'go env -w' (a GOFLAGS=-toolexec=... planted
// there would run during a build whose output the guard protects), and
// with the local toolchain only, never one a go.mod asks to download.
func installEnv(environ []string, dir string) []string {
	env := slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		k, _, _ := strings.Cut(kv, "=")
		return k == "GOENV" || k == "GOBIN" || k == "GOTOOLCHAIN"
	})
	return append(env, "GOENV=off", "GOTOOLCHAIN=local", "GOBIN="+dir)
}
