package setup

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/initplan"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// installAbout is install's help, with what install writes for each host
// of the registry (host.Host.Writes).
func installAbout() string {
	var w strings.Builder
	for _, h := range all.All() {
		fmt.Fprintf(&w, "  %-9s %s\n", h.Name, strings.ReplaceAll(h.Writes, "\n", "\n"+strings.Repeat(" ", 12)))
	}
	return installHead + w.String() + installTail
}

const installHead = `Register atreides with agent hosts. Without a host, list the hosts this
machine has (their program on PATH or their settings directory present)
and what install would write; name hosts to install into them, or --all
for every host seen.

Scopes (each host's default first, see the list):
  --project  the project's settings, meant to be committed: the hooks name
             'atreides', which the host finds on PATH on every machine
  --local    the project's .claude/settings.local.json (claude only; not
             committed): the hooks name this machine's binary
  --user     the user's settings, for every project: the hooks name this
             machine's binary (or --bin)

What install writes, per host and scope:
`

const installTail = `The project's preset (preset: in .atreides/config.yaml, set by 'atreides
init') decides what goes with the hooks: full, the default, writes all of
the above; standard leaves out the agents and slash commands; guard also
the MCP tools (unless governance is enabled). Installing again with
another preset removes what it leaves out.

--agents-md adds a short marked section to the project's AGENTS.md (or to
CLAUDE.md or GEMINI.md when the project keeps its rules there and has no
AGENTS.md) saying what atreides enforces and which tools it offers.

Your settings, comments and layout are kept; the previous content is kept
under .atreides/backups (user files: ~/.local/state/atreides/backups).
Running install again changes nothing. --timeout (seconds; default
hooks.timeout_seconds of the configuration, 10) is what the host waits
for a hook; atreides answers before it. 'atreides uninstall' gives every
file back as it was.`

type scopeFlags struct {
	project, local, user bool
}

// scope is the scope the flags select for h, or h's default.
func (s scopeFlags) scope(h *host.Host) (install.Scope, error) {
	n := 0
	sc := h.DefaultScope()
	for _, f := range []struct {
		set   bool
		scope install.Scope
	}{{s.project, install.ScopeProject}, {s.local, install.ScopeLocal}, {s.user, install.ScopeUser}} {
		if f.set {
			n++
			sc = f.scope
		}
	}
	if n > 1 {
		return sc, command.Usagef("choose one of --project, --local, --user")
	}
	if !h.HasScope(sc) {
		return sc, command.Usagef("%s has no %s scope (use %s)", h.Name, sc, scopeFlagsOf(h))
	}
	return sc, nil
}

func scopeFlagsOf(h *host.Host) string {
	var fs []string
	for _, s := range h.Scopes {
		fs = append(fs, "--"+s.String())
	}
	return strings.Join(fs, " or ")
}

func addScopeFlags(f *pflag.FlagSet, s *scopeFlags) {
	f.BoolVar(&s.project, "project", false, "the project's settings (default for most hosts)")
	f.BoolVar(&s.local, "local", false, "the project's .claude/settings.local.json (claude only)")
	f.BoolVar(&s.user, "user", false, "the user's settings (default for codex)")
}

// installOptions are the arguments of 'atreides install'.
type installOptions struct {
	hosts           []string
	all             bool
	scope           scopeFlags
	bin             string
	timeout         int
	timeoutSet      bool
	agentsMD        bool
	asJSON, offline bool
	npxNoted        bool // the note on npm's npx cache is said
}

func NewInstallCmd(io *command.IO) *cobra.Command {
	o := &installOptions{}
	cmd := &cobra.Command{
		Use:   "install [HOST...] [--all] [--project|--local|--user] [flags]",
		Short: "register atreides in agent hosts' settings",
		Long:  installAbout(),
		Args:  cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			o.hosts, o.timeoutSet = args, cmd.Flags().Changed("timeout")
			return o.run(io)
		},
	}
	f := cmd.Flags()
	addScopeFlags(f, &o.scope)
	f.BoolVar(&o.all, "all", false, "install into every host seen on this machine")
	f.StringVar(&o.bin, "bin", "", "with --local or --user: the atreides binary the hooks run (default: this one)")
	// No default in the flag itself: help would print cobra's "(default
	// 10)" after ours, and the default is the configuration's.
	f.IntVar(&o.timeout, "timeout", 0, fmt.Sprintf("per-hook timeout in seconds (default: hooks.timeout_seconds, else %d)", install.DefaultTimeoutSeconds))
	f.BoolVar(&o.agentsMD, "agents-md", false, "also add atreides's managed section to AGENTS.md (or CLAUDE.md/GEMINI.md)")
	f.BoolVar(&o.asJSON, "json", false, "print the reports as JSON")
	f.BoolVar(&o.offline, "offline", false, "opencode: mark OpenCode's own dependency install as done (no registry: avoids a ~70 s start-up wait)")
	return cmd
}

// hostEnv is the machine and project install and uninstall see.
func hostEnv(io *command.IO) (host.Env, error) {
	root, err := command.CwdRoot(io)
	if err != nil {
		return host.Env{}, err
	}
	return host.EnvAt(io.Getenv, root), nil
}

// pick resolves the hosts named on the command line, or with --all every
// host seen on this machine.
func pick(env host.Env, names []string, every bool) ([]*host.Host, error) {
	if every && len(names) > 0 {
		return nil, command.Usagef("name hosts or give --all, not both")
	}
	var out []*host.Host
	if every {
		for _, h := range all.All() {
			if h.Seen(env) {
				out = append(out, h)
			}
		}
		if len(out) == 0 {
			return nil, fmt.Errorf("no agent host seen on this machine (known: %s); name one to install anyway", all.Names())
		}
		return out, nil
	}
	for _, n := range names {
		h, ok := all.ByName(n)
		if !ok {
			return nil, command.Usagef("unknown host %q (known: %s)", n, all.Names())
		}
		out = append(out, h)
	}
	return out, nil
}

func (o *installOptions) run(io *command.IO) error {
	env, err := hostEnv(io)
	if err != nil {
		return err
	}
	if len(o.hosts) == 0 && !o.all {
		return listHosts(io, env, o.asJSON)
	}
	picked, err := pick(env, o.hosts, o.all)
	if err != nil {
		return err
	}
	if o.bin == "" {
		command.EnsureCompanions(io)
	}
	timeout, err := o.hookTimeout(io, env.ProjectDir)
	if err != nil {
		return err
	}
	roster, err := host.ProjectRoster(env.ProjectDir)
	if err != nil {
		return err
	}
	skip := initplan.ProjectSkip(env.ProjectDir) // the project's preset
	var reps []install.Report
	for _, h := range picked {
		scope, err := o.scope.scope(h)
		if err != nil {
			return err
		}
		bin, err := o.binary(io, scope)
		if err != nil {
			return err
		}
		rep, err := h.Install(env, host.Options{Scope: scope, Binary: bin, TimeoutSeconds: timeout, Offline: o.offline, Roster: roster, SkillDirs: all.SkillDirs(), Skip: skip})
		if err != nil {
			return fmt.Errorf("%s: %w", h.Name, err)
		}
		reps = append(reps, rep)
	}
	if o.agentsMD {
		// One section per project, in the file the first host reads.
		rep, err := install.AddSection(picked[0].InstructionsFile(env), env.BackupDir(install.ScopeProject))
		if err != nil {
			return err
		}
		reps = append(reps, rep)
	}
	return printReports(io, reps, o.asJSON)
}

// hookTimeout is --timeout, else the configuration's hooks.timeout_seconds:
// a team sets its hosts' timeout once in the committed configuration, and
// every teammate's install writes it. A configuration that cannot be read
// does not stop the install (the hooks are what makes the guard fail
// closed on it): the default timeout is written and the user is told.
func (o *installOptions) hookTimeout(io *command.IO, root string) (int, error) {
	t := o.timeout
	if !o.timeoutSet {
		cfg, err := command.LoadConfig(root)
		if err != nil {
			msg, _, _ := strings.Cut(err.Error(), "\n")
			fmt.Fprintf(io.Err, "atreides install: warning: the configuration cannot be read (%s); hooks get the default timeout of %d s, and the guard blocks every tool call until it is fixed (see 'atreides config validate')\n", msg, install.DefaultTimeoutSeconds)
			return install.DefaultTimeoutSeconds, nil
		}
		t = cfg.Hooks.TimeoutSeconds
	}
	if t < 1 || t > 600 {
		return 0, command.Usagef("--timeout must be between 1 and 600 seconds")
	}
	return t, nil
}

// binary is what the hooks of a scope run (see host.BinaryFor).
func (o *installOptions) binary(io *command.IO, scope install.Scope) (string, error) {
	if scope == install.ScopeProject {
		if o.bin == "" {
			o.npxNote(io, install.NpxProjectNote(io.Getenv))
		}
		return host.BinaryFor(scope, "", o.bin)
	}
	self, err := hookBinary(o.bin)
	if err != nil {
		return "", err
	}
	if o.bin == "" {
		var note string
		if self, note, err = install.StableHookBinary(self, hook.Version(), io.Getenv); err != nil {
			return "", err
		}
		o.npxNote(io, note)
	}
	return host.BinaryFor(scope, self, "")
}

// npxNote says note (see install.StableHookBinary) once.
func (o *installOptions) npxNote(io *command.IO, note string) {
	if note != "" && !o.npxNoted {
		o.npxNoted = true
		fmt.Fprintln(io.Err, "atreides install: note: "+note)
	}
}

// hostLine is one host in install's list.
type hostLine struct {
	Name    string `json:"name"`
	Display string `json:"display"`
	Seen    bool   `json:"seen"`
	Scope   string `json:"default_scope"`
	Path    string `json:"path"`
}

// listHosts shows the hosts install knows, and which of them this machine
// has.
func listHosts(io *command.IO, env host.Env, asJSON bool) error {
	lines := []hostLine{}
	var seen []string
	for _, h := range all.All() {
		l := hostLine{h.Name, h.Display, h.Seen(env), h.DefaultScope().String(), h.Path(env, h.DefaultScope())}
		lines = append(lines, l)
		if l.Seen {
			seen = append(seen, h.Name)
		}
	}
	if asJSON {
		return command.PrintJSON(io, struct {
			Hosts []hostLine `json:"hosts"`
		}{lines})
	}
	tb := command.NewTable(io, io.Out, "host", "name", "seen", "scope", "writes").Flex(4)
	for _, l := range lines {
		mark := "-"
		if l.Seen {
			mark = "yes"
		}
		tb.Row(l.Name, l.Display, mark, l.Scope, l.Path)
	}
	if err := tb.Render(); err != nil {
		return err
	}
	if len(seen) == 0 {
		fmt.Fprintln(io.Out, "\nno agent host seen on this machine; name one to install anyway: atreides install HOST")
		return nil
	}
	fmt.Fprintf(io.Out, "\ninstall into the hosts you use: atreides install %s (or --all)\n", strings.Join(seen, " "))
	return nil
}

// hookBinary is the absolute path hooks of a local or user install will
// run. A binary built by 'go run' lives in a temporary directory that is
// deleted when it exits, and hooks pointing there would fail open, so that
// is refused.
func hookBinary(flagPath string) (string, error) {
	if flagPath != "" {
		p, err := filepath.Abs(flagPath)
		if err != nil {
			return "", fmt.Errorf("binary path: %w", err)
		}
		fi, err := os.Stat(p)
		if err != nil {
			return "", fmt.Errorf("binary %s: %w", p, err)
		}
		if fi.IsDir() || fi.Mode()&0o111 == 0 {
			return "", fmt.Errorf("binary %s is not an executable file", p)
		}
		return p, nil
	}
	exe, err := os.Executable()
	if err != nil {
		return "", fmt.Errorf("find this binary: %w (pass --bin)", err)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	if strings.Contains(exe, string(filepath.Separator)+"go-build") {
		return "", fmt.Errorf("this atreides was started by 'go run' from a temporary directory that will be deleted; install it first ('go install ./cmd/atreides') or pass --bin PATH")
	}
	return exe, nil
}

// printReports prints one report per file changed; as JSON, always a list.
func printReports(io *command.IO, reps []install.Report, asJSON bool) error {
	if asJSON {
		return command.PrintJSON(io, view.List(reps))
	}
	for _, r := range reps {
		fmt.Fprintln(io.Out, r.String())
	}
	return nil
}
