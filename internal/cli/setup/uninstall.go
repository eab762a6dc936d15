package setup

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/purge"
	"github.com/spf13/cobra"
)

const uninstallAbout = `Remove exactly what 'atreides install' added: a file still as install left
it gets its previous content back byte for byte, and files and
directories install created are removed; a file changed since loses only
atreides's entries. Name hosts, or --all for every host. The scopes are
those of install. The managed section of AGENTS.md goes with --agents-md,
or once no host of this project has atreides any more.

Uninstall leaves the project's .atreides/ (state, audit log, backups, and
the config, intents, trace ledger and specs your team may commit) and
install's backups of your user files under ~/.local/state/atreides.

--purge leaves nothing: it uninstalls atreides from every host in every
scope (project, local and your user settings), removes the managed
section, .atreides/, the backups under ~/.local/state/atreides, and this
project's entries in atreides's projects registry and trust record. Your
own ~/.config/atreides/config.yaml and other projects' entries stay. It
first says what .atreides/ holds, naming the files meant to be committed,
and asks; --yes answers for scripts. Without a terminal and without
--yes it removes nothing and exits 2. A Claude Code plugin or Gemini CLI
extension of atreides goes with the host's own uninstall.`

// uninstallOptions are the arguments of 'atreides uninstall'.
type uninstallOptions struct {
	hosts    []string
	all      bool
	scope    scopeFlags
	agentsMD bool
	asJSON   bool
	// purge and yes: 'uninstall --purge [--yes]' (package purge).
	purge, yes bool
}

func NewUninstallCmd(io *command.IO) *cobra.Command {
	o := &uninstallOptions{}
	cmd := &cobra.Command{
		Use:   "uninstall HOST... [--all] [--project|--local|--user] [flags] | uninstall --purge [--yes]",
		Short: "remove exactly what install added",
		Long:  uninstallAbout,
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			o.hosts = args
			return o.run(io)
		},
	}
	f := cmd.Flags()
	addScopeFlags(f, &o.scope)
	f.BoolVar(&o.all, "all", false, "uninstall from every host")
	f.BoolVar(&o.agentsMD, "agents-md", false, "remove atreides's managed section from AGENTS.md (or CLAUDE.md/GEMINI.md)")
	f.BoolVar(&o.asJSON, "json", false, "print the reports as JSON")
	f.BoolVar(&o.purge, "purge", false, "remove atreides from every host and scope, and .atreides/ and atreides's files of this project in your home directory")
	f.BoolVarP(&o.yes, "yes", "y", false, "with --purge: do not ask (for scripts)")
	return cmd
}

func (o *uninstallOptions) run(io *command.IO) error {
	if o.purge {
		if len(o.hosts) > 0 || o.all || o.agentsMD || o.scope != (scopeFlags{}) {
			return command.Usagef("--purge takes every host and scope: name no host, --all, --agents-md or scope")
		}
		return o.purgeProject(io)
	}
	if o.yes {
		return command.Usagef("--yes goes with --purge")
	}
	env, err := hostEnv(io)
	if err != nil {
		return err
	}
	var picked []*host.Host
	switch {
	case o.all && len(o.hosts) > 0:
		return command.Usagef("name hosts or give --all, not both")
	case o.all:
		picked = all.All()
	case len(o.hosts) == 0 && !o.agentsMD:
		return command.Usagef("missing host (known: %s)", all.Names())
	default:
		if picked, err = pick(env, o.hosts, false); err != nil {
			return err
		}
	}
	reps := []install.Report{}
	for _, h := range picked {
		scope, err := o.scope.scope(h)
		if err != nil {
			if o.all {
				continue // a scope this host does not have
			}
			return err
		}
		rep, err := h.Uninstall(env, scope)
		if err != nil {
			return fmt.Errorf("%s: %w", h.Name, err)
		}
		reps = append(reps, rep)
	}
	if o.agentsMD || !installedInProject(env) {
		for _, path := range purge.SectionFiles(env) {
			rep, err := install.RemoveSection(path, env.BackupDir(install.ScopeProject))
			if err != nil {
				return err
			}
			if rep.Action != install.ActionNothingToDo {
				reps = append(reps, rep)
			}
		}
	}
	if err := printReports(io, reps, o.asJSON); err != nil || o.asJSON {
		return err
	}
	leftBehind(io, env)
	return nil
}

// leftBehind ends a plain uninstall's text with what stays, when anything
// of atreides's does, and how to remove it.
func leftBehind(io *command.IO, env host.Env) {
	var stays []string
	for _, d := range []string{filepath.Join(env.ProjectDir, ".atreides"), env.BackupDir(install.ScopeUser)} {
		if _, err := os.Lstat(d); err == nil {
			stays = append(stays, d)
		}
	}
	if len(stays) > 0 {
		fmt.Fprintf(io.Out, "kept: %s (state, audit log, backups; 'atreides uninstall --purge' removes them and atreides from every host)\n", strings.Join(stays, " and "))
	}
}

// installedInProject reports whether any host still has atreides in one
// of this project's files.
func installedInProject(env host.Env) bool {
	for _, h := range all.All() {
		for _, sc := range h.Scopes {
			if sc == install.ScopeUser {
				continue
			}
			if st, err := h.Inspect(h.Path(env, sc)); err != nil || len(st.Events) > 0 {
				return true
			}
		}
	}
	return false
}

// purgeProject is 'uninstall --purge' (package purge). It asks first;
// with no terminal and no --yes it removes nothing.
func (o *uninstallOptions) purgeProject(io *command.IO) error {
	env, err := hostEnv(io)
	if err != nil {
		return err
	}
	var dirs purge.Dirs
	if cfg, err := command.LoadConfig(env.ProjectDir); err == nil {
		// Where the project keeps its specs and exports, if not the
		// defaults; a configuration that cannot be read names none.
		dirs = purge.Dirs{Specs: cfg.Tasks.Dir, Exports: cfg.Export.Dir}
	}
	held, err := purge.Inventory(env.ProjectDir, purge.Dir(env), dirs)
	if err != nil {
		return err
	}
	if err := o.confirmPurge(io, env, held); err != nil {
		return err
	}
	// What was done is said even when a part was refused: the error
	// says what was not.
	res, err := purge.Run(env, held)
	if o.asJSON {
		if jerr := command.PrintJSON(io, res); jerr != nil {
			return jerr
		}
		return err
	}
	printPurge(io, res)
	return err
}

// confirmPurge says what goes and asks at a terminal; --yes answers for
// scripts. Anywhere else nothing is removed: a purge started by an agent
// or a pipe must not delete a team's committed files unseen.
func (o *uninstallOptions) confirmPurge(io *command.IO, env host.Env, held []purge.Holding) error {
	if o.yes {
		return nil
	}
	dir := purge.Dir(env)
	if !command.StdinTerminal(io) {
		return command.Usagef("not a terminal: nothing removed; 'uninstall --purge' deletes %s and atreides's files in your home directory, so it asks first (run it yourself, or add --yes in a script)", dir)
	}
	w := io.Out
	if o.asJSON {
		w = io.Err
	}
	fmt.Fprint(w, purge.Describe(dir, held))
	fmt.Fprintf(w, "It also removes atreides from every host in every scope (your user settings too), install's backups in %s, and this project from atreides's projects registry and trust record.\n", env.BackupDir(install.ScopeUser))
	fmt.Fprint(w, "Remove all of it? [y/N] ")
	line, _ := bufio.NewReader(io.In).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return nil
	}
	fmt.Fprintln(io.Err, "nothing removed")
	return command.ExitStatus(1)
}

// printPurge is the text of a purge.
func printPurge(io *command.IO, res purge.Result) {
	for _, r := range res.Uninstalled {
		fmt.Fprintln(io.Out, r.String())
	}
	for _, p := range res.Removed {
		fmt.Fprintf(io.Out, "%s: removed\n", p)
	}
	for _, p := range res.Changed {
		fmt.Fprintf(io.Out, "%s: this project's entry removed\n", p)
	}
	for _, w := range res.Warnings {
		fmt.Fprintf(io.Err, "atreides uninstall: warning: %s\n", w)
	}
	fmt.Fprint(io.Out, "atreides is gone from this project, its hosts and your user settings")
	if len(res.Kept) > 0 {
		fmt.Fprintf(io.Out, "; kept your own configuration: %s", strings.Join(res.Kept, ", "))
	}
	fmt.Fprintln(io.Out)
}
