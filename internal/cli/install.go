package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/install"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

const installAbout = `Register atreides's hooks with an agent host. HOST and its scopes:

  claude  Claude Code
    --project  .claude/settings.json of this project (the default; commit it)
    --local    .claude/settings.local.json (this machine only)
    --user     ~/.claude/settings.json (every project)
  gemini  Gemini CLI
    --project  .gemini/settings.json of this project (the default; Gemini
               runs project hooks only in a trusted folder)
    --user     ~/.gemini/settings.json (every project)
  codex   Codex CLI
    --user     ~/.codex/hooks.json, or $CODEX_HOME/hooks.json (the default)
    --project  .codex/hooks.json of this project (loaded only once the
               project is trusted in ~/.codex/config.toml)
  opencode  OpenCode (a plugin that starts 'atreides serve --stdio')
    --project  .opencode/plugin/ of this project (the default)
    --user     ~/.config/opencode/plugin/ (every project)
    --offline  also mark OpenCode's own dependency install as done, so an
               offline start does not wait ~70 s for the registry

Your own settings and hooks are kept, in their order; the previous file is
kept as <file>.atreides-backup. Running install again changes nothing; with
another binary path it updates atreides's hooks in place. --timeout is in
seconds for every host (written as milliseconds for Gemini; Codex's
SessionEnd hook gets at most 3 s, its own cap).

Codex runs hooks only once you trust them: install prints what to do.
atreides never edits Codex's config.toml.`

const uninstallAbout = `Remove exactly the hooks 'atreides install' added; everything else in the
settings file stays as it was. HOST is claude, gemini, codex or opencode;
the scopes and their defaults are those of install (claude: --project,
--local or --user; gemini and opencode: --project or --user; codex: --user
or --project).`

// knownHosts are the hosts install, uninstall and doctor handle.
const knownHosts = "claude, gemini, codex, opencode"

type scopeFlags struct {
	project, local, user bool
}

// scope is the scope the flags select for host, or the host's default.
func (s scopeFlags) scope(host string) (install.Scope, error) {
	n := 0
	sc := defaultScope(host)
	for v, set := range map[install.Scope]bool{install.ScopeProject: s.project, install.ScopeLocal: s.local, install.ScopeUser: s.user} {
		if set {
			n++
			sc = v
		}
	}
	if n > 1 {
		return sc, usagef("choose one of --project, --local, --user")
	}
	if sc == install.ScopeLocal && host != "claude" {
		return sc, usagef("%s has no local scope (use --project or --user)", host)
	}
	return sc, nil
}

// defaultScope is the scope used without a flag. Codex defaults to the
// user's hooks.json: a project's .codex/hooks.json loads only once the
// project is trusted in ~/.codex/config.toml, which atreides leaves to the
// user, so a project install would silently do nothing until then.
func defaultScope(host string) install.Scope {
	if host == "codex" {
		return install.ScopeUser
	}
	return install.ScopeProject
}

func addScopeFlags(f *pflag.FlagSet, s *scopeFlags) {
	f.BoolVar(&s.project, "project", false, "the project's settings (default for claude and gemini)")
	f.BoolVar(&s.local, "local", false, "the project's .claude/settings.local.json (claude only)")
	f.BoolVar(&s.user, "user", false, "the user's settings (default for codex)")
}

// installOptions are the arguments of 'atreides install'.
type installOptions struct {
	host            string
	scope           scopeFlags
	bin             string
	timeout         int
	asJSON, offline bool
}

func newInstallCmd(io *IO) *cobra.Command {
	o := &installOptions{}
	cmd := &cobra.Command{
		Use:   "install HOST [--project|--local|--user] [flags]",
		Short: "register atreides in an agent host's settings",
		Long:  installAbout,
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			host, err := hostArg(args)
			if err != nil {
				return err
			}
			o.host = host
			return o.run(io)
		},
	}
	f := cmd.Flags()
	addScopeFlags(f, &o.scope)
	f.StringVar(&o.bin, "bin", "", "atreides binary the hooks run (default: this one)")
	f.IntVar(&o.timeout, "timeout", install.DefaultTimeoutSeconds, "per-hook timeout in seconds")
	f.BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	f.BoolVar(&o.offline, "offline", false, "opencode: mark OpenCode's own dependency install as done (no registry: avoids a ~70 s start-up wait)")
	return cmd
}

func (o *installOptions) run(io *IO) error {
	host := o.host
	scope, err := o.scope.scope(host)
	if err != nil {
		return err
	}
	loc, err := settingsPath(io, host, scope)
	if err != nil {
		return err
	}
	binPath, warn, err := hookBinary(o.bin)
	if err != nil {
		return err
	}
	if o.timeout < 1 || o.timeout > 600 {
		return usagef("--timeout must be between 1 and 600 seconds")
	}
	var rep install.Report
	switch host {
	case "gemini":
		rep, err = install.InstallGemini(install.GeminiOptions{SettingsPath: loc.path, BinaryPath: binPath, TimeoutMillis: o.timeout * 1000, Scope: scope})
	case "codex":
		rep, err = install.InstallCodex(install.CodexOptions{HooksPath: loc.path, BinaryPath: binPath, TimeoutSeconds: o.timeout, Scope: scope, ProjectDir: loc.root})
	case "opencode":
		rep, err = install.InstallOpenCode(install.OpenCodeOptions{ConfigDir: openCodeDir(loc), BinaryPath: binPath, Offline: openCodeOffline(io, loc, scope, o.offline)})
	default:
		rep, err = install.InstallClaude(install.ClaudeOptions{SettingsPath: loc.path, BinaryPath: binPath, TimeoutSeconds: o.timeout})
		if err == nil {
			err = withClaudeMCP(&rep, scope, loc, binPath, true)
		}
	}
	if err != nil {
		return err
	}
	if warn != "" {
		rep.Warnings = append(rep.Warnings, warn)
	}
	return printReport(io, rep, o.asJSON)
}

// uninstallOptions are the arguments of 'atreides uninstall'.
type uninstallOptions struct {
	host   string
	scope  scopeFlags
	asJSON bool
}

func newUninstallCmd(io *IO) *cobra.Command {
	o := &uninstallOptions{}
	cmd := &cobra.Command{
		Use:   "uninstall HOST [--project|--local|--user] [flags]",
		Short: "remove exactly what install added",
		Long:  uninstallAbout,
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			host, err := hostArg(args)
			if err != nil {
				return err
			}
			o.host = host
			return o.run(io)
		},
	}
	f := cmd.Flags()
	addScopeFlags(f, &o.scope)
	f.BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	return cmd
}

func (o *uninstallOptions) run(io *IO) error {
	host := o.host
	scope, err := o.scope.scope(host)
	if err != nil {
		return err
	}
	loc, err := settingsPath(io, host, scope)
	if err != nil {
		return err
	}
	var rep install.Report
	switch host {
	case "gemini":
		rep, err = install.UninstallGemini(loc.path)
	case "codex":
		rep, err = install.UninstallCodex(loc.path)
	case "opencode":
		rep, err = install.UninstallOpenCode(openCodeDir(loc), []string{openCodeDir(loc)})
	default:
		rep, err = install.UninstallClaude(loc.path)
		if err == nil {
			err = withClaudeMCP(&rep, scope, loc, "", false)
		}
	}
	if err != nil {
		return err
	}
	return printReport(io, rep, o.asJSON)
}

// hostArg is the one host named on the command line.
func hostArg(args []string) (string, error) {
	var host string
	if len(args) > 0 {
		host = args[0]
	}
	if len(args) > 1 {
		return "", usagef("unexpected argument %q", args[1])
	}
	switch host {
	case "claude", "gemini", "codex", "opencode":
		return host, nil
	case "":
		return "", usagef("missing host (known: %s)", knownHosts)
	}
	return "", usagef("unknown host %q (known: %s)", host, knownHosts)
}

// hostFile is a host's settings file of one scope, with the project root
// it was resolved against.
type hostFile struct {
	path, root string
}

func settingsPath(io *IO, host string, scope install.Scope) (hostFile, error) {
	root, err := cwdRoot(io)
	if err != nil {
		return hostFile{}, err
	}
	home, err := os.UserHomeDir()
	if err != nil && scope == install.ScopeUser {
		return hostFile{}, fmt.Errorf("home directory: %w", err)
	}
	f := hostFile{root: root}
	switch host {
	case "gemini":
		f.path = install.GeminiSettingsPath(scope, root, home)
	case "codex":
		f.path = install.CodexHooksPath(scope, root, install.CodexHome(io.Getenv("CODEX_HOME"), home))
	case "opencode":
		f.path = install.OpenCodePluginPath(install.OpenCodeConfigDir(scope, root, install.OpenCodeConfigHome(io.Getenv("XDG_CONFIG_HOME"), home)))
	default:
		f.path = install.ClaudeSettingsPath(scope, root, home)
	}
	return f, nil
}

// withClaudeMCP registers (or removes) the agent's MCP tools in the
// project's .mcp.json alongside a project or local install, and folds what
// it did into the report. A user install registers no MCP server: Claude
// Code keeps user servers in ~/.claude.json, a file it rewrites itself.
func withClaudeMCP(rep *install.Report, scope install.Scope, loc hostFile, bin string, add bool) error {
	if scope == install.ScopeUser {
		if add {
			rep.Notes = append(rep.Notes, "MCP tools are registered per project: run 'atreides install claude' in a project to add them")
		}
		return nil
	}
	path := install.ClaudeMCPPath(loc.root)
	var m install.Report
	var err error
	if add {
		m, err = install.InstallClaudeMCP(path, bin)
	} else {
		m, err = install.UninstallClaudeMCP(path)
	}
	if err != nil {
		return err
	}
	for _, l := range [][]string{m.Added, m.Updated, m.Removed} {
		for _, x := range l {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %s %s", path, m.Action, x))
		}
	}
	rep.Notes = append(rep.Notes, m.Notes...)
	if m.Backup != "" {
		rep.Notes = append(rep.Notes, "backup of the previous .mcp.json: "+m.Backup)
	}
	return nil
}

// openCodeDir is the OpenCode config directory holding the plugin file.
func openCodeDir(loc hostFile) string { return filepath.Dir(filepath.Dir(loc.path)) }

// openCodeOffline lists the config directories whose dependency install
// OpenCode should consider done: the plugin's own and, for a project
// install, the user's, since OpenCode installs into both at start.
func openCodeOffline(io *IO, loc hostFile, scope install.Scope, offline bool) []string {
	if !offline {
		return nil
	}
	dirs := []string{openCodeDir(loc)}
	if scope == install.ScopeProject {
		if home, err := os.UserHomeDir(); err == nil {
			dirs = append(dirs, filepath.Join(install.OpenCodeConfigHome(io.Getenv("XDG_CONFIG_HOME"), home), "opencode"))
		}
	}
	return dirs
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
