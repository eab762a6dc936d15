package setup

import (
	"fmt"
	"path/filepath"
	"slices"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/spf13/cobra"
)

const uninstallAbout = `Remove exactly what 'atreides install' added: a file still as install left
it gets its previous content back byte for byte, and files and
directories install created are removed; a file changed since loses only
atreides's entries. Name hosts, or --all for every host. The scopes are
those of install. The managed section of AGENTS.md goes with --agents-md,
or once no host of this project has atreides any more.`

// uninstallOptions are the arguments of 'atreides uninstall'.
type uninstallOptions struct {
	hosts    []string
	all      bool
	scope    scopeFlags
	agentsMD bool
	asJSON   bool
}

func NewUninstallCmd(io *command.IO) *cobra.Command {
	o := &uninstallOptions{}
	cmd := &cobra.Command{
		Use:   "uninstall HOST... [--all] [--project|--local|--user] [flags]",
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
	return cmd
}

func (o *uninstallOptions) run(io *command.IO) error {
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
		for _, path := range sectionFiles(env) {
			rep, err := install.RemoveSection(path, env.BackupDir(install.ScopeProject))
			if err != nil {
				return err
			}
			if rep.Action != install.ActionNothingToDo {
				reps = append(reps, rep)
			}
		}
	}
	return printReports(io, reps, o.asJSON)
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

// sectionFiles are the files the managed section may be in.
func sectionFiles(env host.Env) []string {
	files := []string{filepath.Join(env.ProjectDir, "AGENTS.md")}
	for _, h := range all.All() {
		// InstructionsFile picks among AGENTS.md and these.
		for _, name := range h.Facts.Instructions {
			if f := filepath.Join(env.ProjectDir, filepath.FromSlash(name)); !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	return files
}
