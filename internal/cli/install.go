package cli

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/install"
)

const installUsage = `install claude [--project | --local | --user] [--bin PATH] [--timeout SECONDS] [--json]

Register atreides's hooks in Claude Code's settings:
  --project  .claude/settings.json of this project (the default; commit it)
  --local    .claude/settings.local.json (this machine only)
  --user     ~/.claude/settings.json (every project)

Your own settings and hooks are kept, in their order; the previous file is
kept as settings.json.atreides-backup. Running install again changes
nothing; with another binary path it updates atreides's hooks in place.`

const uninstallUsage = `uninstall claude [--project | --local | --user] [--json]

Remove exactly the hooks 'atreides install' added; everything else in the
settings file stays as it was.`

type scopeFlags struct {
	project, local, user *bool
}

func (s scopeFlags) scope() (install.Scope, error) {
	n := 0
	sc := install.ScopeProject
	for v, set := range map[install.Scope]bool{install.ScopeProject: *s.project, install.ScopeLocal: *s.local, install.ScopeUser: *s.user} {
		if set {
			n++
			sc = v
		}
	}
	if n > 1 {
		return sc, usagef("choose one of --project, --local, --user")
	}
	return sc, nil
}

func addScopeFlags(fs *flag.FlagSet) scopeFlags {
	return scopeFlags{
		project: fs.Bool("project", false, "the project's .claude/settings.json (default)"),
		local:   fs.Bool("local", false, "the project's .claude/settings.local.json"),
		user:    fs.Bool("user", false, "~/.claude/settings.json"),
	}
}

func runInstall(io *IO, args []string) error {
	fs := newFlags(installUsage, io)
	sf := addScopeFlags(fs)
	bin := fs.String("bin", "", "atreides binary the hooks run (default: this one)")
	timeout := fs.Int("timeout", install.DefaultTimeoutSeconds, "per-hook timeout in seconds")
	asJSON := fs.Bool("json", false, "print the report as JSON")
	host, err := hostArg(fs, args)
	if err != nil {
		return err
	}
	scope, err := sf.scope()
	if err != nil {
		return err
	}
	path, err := settingsPath(io, host, scope)
	if err != nil {
		return err
	}
	binPath, warn, err := hookBinary(*bin)
	if err != nil {
		return err
	}
	if *timeout < 1 || *timeout > 600 {
		return usagef("--timeout must be between 1 and 600 seconds")
	}
	rep, err := install.InstallClaude(install.ClaudeOptions{SettingsPath: path, BinaryPath: binPath, TimeoutSeconds: *timeout})
	if err != nil {
		return err
	}
	if warn != "" {
		rep.Warnings = append(rep.Warnings, warn)
	}
	return printReport(io, rep, *asJSON)
}

func runUninstall(io *IO, args []string) error {
	fs := newFlags(uninstallUsage, io)
	sf := addScopeFlags(fs)
	asJSON := fs.Bool("json", false, "print the report as JSON")
	host, err := hostArg(fs, args)
	if err != nil {
		return err
	}
	scope, err := sf.scope()
	if err != nil {
		return err
	}
	path, err := settingsPath(io, host, scope)
	if err != nil {
		return err
	}
	rep, err := install.UninstallClaude(path)
	if err != nil {
		return err
	}
	return printReport(io, rep, *asJSON)
}

// hostArg parses flags that may come before or after the host name.
func hostArg(fs *flag.FlagSet, args []string) (string, error) {
	var host string
	if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
		host, args = args[0], args[1:]
	}
	if err := parse(fs, args); err != nil {
		return "", err
	}
	rest := fs.Args()
	if host == "" && len(rest) > 0 {
		host, rest = rest[0], rest[1:]
	}
	if len(rest) > 0 {
		return "", usagef("unexpected argument %q", rest[0])
	}
	switch host {
	case "claude":
		return host, nil
	case "":
		return "", usagef("missing host (known: claude)")
	}
	return "", usagef("unknown host %q (known: claude)", host)
}

func settingsPath(io *IO, host string, scope install.Scope) (string, error) {
	root, err := cwdRoot(io)
	if err != nil {
		return "", err
	}
	home, err := os.UserHomeDir()
	if err != nil && scope == install.ScopeUser {
		return "", fmt.Errorf("home directory: %w", err)
	}
	return install.ClaudeSettingsPath(scope, root, home), nil
}

// hookBinary is the absolute path hooks will run. A binary built by 'go
// run' lives in a temporary directory that is deleted when it exits, and
// hooks pointing there would fail open, so that is refused.
func hookBinary(flagPath string) (path, warning string, err error) {
	if flagPath != "" {
		p, err := filepath.Abs(flagPath)
		if err != nil {
			return "", "", fmt.Errorf("binary path: %w", err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			return "", "", fmt.Errorf("binary %s: %w", p, err)
		}
		if fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", "", fmt.Errorf("binary %s is not an executable file", p)
		}
		return p, "", nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", "", fmt.Errorf("find this binary: %w (pass --bin)", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "", "", fmt.Errorf("this atreides was started by 'go run' from a temporary directory that will be deleted; install it first ('go install ./cmd/atreides') or pass --bin PATH")
	}
	return exe, "", nil
}

func printReport(io *IO, rep install.Report, asJSON bool) error {
	if asJSON {
		enc := json.NewEncoder(io.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	fmt.Fprintln(io.Out, rep.String())
	return nil
}
