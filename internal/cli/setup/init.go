package setup

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/initplan"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

const initAbout = `Set atreides up in this project: choose a preset, choose the hosts, see
exactly which files change, then install.

Presets (the preset: key of .atreides/config.yaml; change it by running
init again):
  guard     the guard (allow/ask/deny) and the audit log only: silent
            unless it blocks; installs the hooks alone
  standard  guard, plus todos and the stop gate that keeps the agent on
            them, strikes, compaction memory, per-directory rules and
            output cuts; installs the hooks and the MCP tools
  full      everything, the roster agents and slash commands included
            (what 'atreides install' writes without init)

At a terminal init asks for the preset (default standard) and the hosts
(default: every host seen on this machine, as 'atreides install' lists
them), shows the changes as a unified diff, made by running the same
install on a scratch copy of the files, and asks before applying them.
Elsewhere pass --yes: no questions, --preset (default standard), the
hosts named or seen, and the list of files (the diff with --diff).

init writes the preset into .atreides/config.yaml (keeping your comments
and other settings), records your trust in that file as 'atreides trust'
does (a lower preset is in force only in a trusted file), and installs.
Running it again with another preset installs or removes the agents,
commands and MCP tools to match; with the same one it changes nothing.
'atreides uninstall' removes what any preset installed.`

// initOptions are the arguments of 'atreides init'.
type initOptions struct {
	hosts             []string
	preset            string
	scope             scopeFlags
	yes, diff, asJSON bool
}

func NewInitCmd(io *command.IO) *cobra.Command {
	o := &initOptions{}
	cmd := &cobra.Command{
		Use:   "init [HOST...] [--preset guard|standard|full] [--yes] [--project|--local|--user] [flags]",
		Short: "set atreides up in this project: preset, hosts, diff, install",
		Long:  initAbout,
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			o.hosts = args
			return o.run(io)
		},
	}
	f := cmd.Flags()
	addScopeFlags(f, &o.scope)
	f.StringVar(&o.preset, "preset", "", "guard, standard or full (default standard; at a terminal, asked)")
	f.BoolVarP(&o.yes, "yes", "y", false, "no questions (for scripts): apply the preset and hosts given")
	f.BoolVar(&o.diff, "diff", false, "with --yes: print the diff of the changes too")
	f.BoolVar(&o.asJSON, "json", false, "print the preset, the files and install's reports as JSON")
	return cmd
}

// initJSON is init --json: install's reports, plus the preset, the files
// changed and what became of trust.
type initJSON struct {
	Preset  config.Preset        `json:"preset"`
	Files   []fileLine           `json:"files"`
	Trust   initplan.TrustResult `json:"trust"`
	Reports []install.Report     `json:"reports"`
}

func (o *initOptions) run(io *command.IO) error {
	ask := !o.yes && command.Interactive(io)
	if !o.yes && !ask {
		return command.Usagef("not a terminal: nothing done; pass --yes (and --preset) to set up without questions")
	}
	env, err := hostEnv(io)
	if err != nil {
		return err
	}
	var q *command.Prompter
	if ask {
		q = command.NewPrompter(io)
	}
	pl, err := o.plan(io, env, q)
	if err != nil {
		return err
	}
	paths := config.DefaultPaths(env.ProjectDir)
	now := time.Now()
	changes, err := pl.Preview(env, paths, now)
	if err != nil {
		return err
	}
	lines := fileLines(env, pl, changes)
	if !o.asJSON {
		printPlan(io, env, pl, lines, changes, ask || o.diff)
	}
	if ask && len(changes) > 0 && !q.Yes("Apply? [y/N] ") {
		fmt.Fprintln(io.Err, "not applied: nothing changed")
		return command.ExitStatus(1)
	}
	a, err := pl.Apply(env, paths, now)
	if err != nil {
		return err
	}
	if o.asJSON {
		return command.PrintJSON(io, initJSON{Preset: pl.Preset, Files: view.List(lines), Trust: a.Trust, Reports: view.List(a.Reports)})
	}
	return printApplied(io, env, pl, a)
}

// plan is what to do, from the flags and, at a terminal (q), the answers.
func (o *initOptions) plan(io *command.IO, env host.Env, q *command.Prompter) (*initplan.Plan, error) {
	// One installOptions for every host, so that a note about where the
	// hooks' binary lives is said once, not once per host.
	inst := &installOptions{}
	binary := func(scope install.Scope) (string, error) { return inst.binary(io, scope) }
	pl := &initplan.Plan{Preset: config.PresetStandard, Binary: binary}
	if o.preset != "" {
		p, err := initplan.ParsePreset(o.preset)
		if err != nil {
			return nil, command.Usagef("%v", err)
		}
		pl.Preset = p
	}
	hosts, err := o.pickHosts(env)
	if err != nil {
		return nil, err
	}
	if q != nil {
		if o.preset == "" {
			if pl.Preset, err = askPreset(q, pl.Preset); err != nil {
				return nil, err
			}
		}
		if len(o.hosts) == 0 {
			if hosts, err = askHosts(q, hosts); err != nil {
				return nil, err
			}
		}
	}
	for _, h := range hosts {
		sc, err := o.scope.scope(h)
		if err != nil {
			return nil, err
		}
		pl.Hosts, pl.Scopes = append(pl.Hosts, h), append(pl.Scopes, sc)
	}
	return pl, nil
}

// pickHosts are the hosts named, else those seen on this machine (as
// install lists them).
func (o *initOptions) pickHosts(env host.Env) ([]*host.Host, error) {
	if len(o.hosts) > 0 {
		return pick(env, o.hosts, false)
	}
	hosts, err := pick(env, nil, true)
	if err != nil {
		return nil, fmt.Errorf("%w: atreides init HOST", err)
	}
	return hosts, nil
}

// fileLine is one line of init's list of files.
type fileLine struct {
	Action string `json:"action"` // create, change or remove
	Path   string `json:"path"`   // as shown: project-relative, ~/ for the home
}

// fileLines are the changes as listed, a file a line; the undo records
// install keeps in a backups folder are one line, the folder's.
func fileLines(env host.Env, pl *initplan.Plan, changes []initplan.Change) []fileLine {
	var out []fileLine
	at := map[string]int{}
	for _, c := range changes {
		l := fileLine{c.Action, initplan.Shown(env, c.Path)}
		if dir := backupOf(env, pl, c.Path); dir != "" {
			l.Path = initplan.Shown(env, dir) + "/"
			if i, ok := at[l.Path]; ok {
				if c.Action != "create" {
					out[i].Action = "change"
				}
				continue
			}
			at[l.Path] = len(out)
		}
		out = append(out, l)
	}
	return out
}

// backupOf is the backups folder p is in, "" when it is in none.
func backupOf(env host.Env, pl *initplan.Plan, p string) string {
	for _, sc := range pl.Scopes {
		d := env.BackupDir(sc)
		if rel, err := filepath.Rel(d, p); err == nil && !strings.HasPrefix(rel, "..") {
			return d
		}
	}
	return ""
}

// printPlan says what init will do: the preset, the hosts, the files and,
// with withDiff, the diff of each (not of the backups).
func printPlan(io *command.IO, env host.Env, pl *initplan.Plan, lines []fileLine, changes []initplan.Change, withDiff bool) {
	var names []string
	for i, h := range pl.Hosts {
		names = append(names, h.Name+" ("+pl.Scopes[i].String()+")")
	}
	fmt.Fprintf(io.Out, "preset %s for %s\n", pl.Preset, strings.Join(names, ", "))
	if len(lines) == 0 {
		fmt.Fprintln(io.Out, "nothing to change: this project is set up so already")
		return
	}
	fmt.Fprintln(io.Out, "files:")
	for _, l := range lines {
		note := ""
		if strings.HasSuffix(l.Path, "/") {
			note = "  (backups and undo records for 'atreides uninstall')"
		}
		fmt.Fprintf(io.Out, "  %-6s  %s%s\n", l.Action, l.Path, note)
	}
	if !withDiff {
		return
	}
	for _, c := range changes {
		if backupOf(env, pl, c.Path) == "" {
			fmt.Fprint(io.Out, "\n"+initplan.Diff(env, c))
		}
	}
	fmt.Fprintln(io.Out)
}

// printApplied prints install's reports and what became of the preset.
func printApplied(io *command.IO, env host.Env, pl *initplan.Plan, a initplan.Applied) error {
	if err := printReports(io, a.Reports, false); err != nil {
		return err
	}
	file := initplan.Shown(env, config.DefaultPaths(env.ProjectDir).Project)
	if a.Trust.Trusted {
		fmt.Fprintf(io.Out, "preset %s set in %s (trusted)\n", pl.Preset, file)
		return nil
	}
	fmt.Fprintf(io.Out, "preset %s set in %s; not trusted, since trust would also let in %s: review them with 'atreides trust' (until then a preset below the one your own configuration sets is not in force)\n", pl.Preset, file, strings.Join(a.Trust.Others, ", "))
	return nil
}

// presetLines say in a line what each preset gives, for the question.
var presetLines = []string{
	"the guard and audit log only: silent unless it blocks",
	"guard + todos and stop gate, strikes, compaction memory, nested rules, output cuts",
	"everything: session context, phases, roster agents, slash commands, ...",
}

// maxTries bounds the questions asked again after an answer that means
// nothing.
const maxTries = 3

// askPreset asks for the preset, def the answer to an empty line; a
// number or a name answers.
func askPreset(q *command.Prompter, def config.Preset) (config.Preset, error) {
	fmt.Fprintln(q.Out.Out, "Which preset?")
	for i, p := range config.Presets() {
		fmt.Fprintf(q.Out.Out, "  %d) %-9s %s\n", i+1, p, presetLines[i])
	}
	for range maxTries {
		s, err := q.Line(fmt.Sprintf("Preset [%s]: ", def))
		if err != nil {
			return "", err
		}
		if s == "" {
			return def, nil
		}
		if n, err := strconv.Atoi(s); err == nil && n >= 1 && n <= len(config.Presets()) {
			return config.Presets()[n-1], nil
		}
		if p, err := initplan.ParsePreset(s); err == nil {
			return p, nil
		}
		fmt.Fprintf(q.Out.Out, "%q is none of them: answer 1, 2, 3 or a name\n", s)
	}
	return "", command.Usagef("no preset chosen: nothing changed")
}

// askHosts asks which of the hosts seen to install into; an empty line is
// all of them.
func askHosts(q *command.Prompter, seen []*host.Host) ([]*host.Host, error) {
	fmt.Fprintln(q.Out.Out, "Hosts seen on this machine:")
	for _, h := range seen {
		fmt.Fprintf(q.Out.Out, "  %-9s %s\n", h.Name, h.Display)
	}
	for range maxTries {
		s, err := q.Line("Install into (names, or empty for all) [all]: ")
		if err != nil {
			return nil, err
		}
		if s == "" || strings.EqualFold(s, "all") {
			return seen, nil
		}
		hs, bad := chooseHosts(seen, s)
		if bad == "" && len(hs) > 0 {
			return hs, nil
		}
		fmt.Fprintf(q.Out.Out, "%q is not one of them: answer with names from the list\n", bad)
	}
	return nil, command.Usagef("no host chosen: nothing changed")
}

// chooseHosts are the hosts of seen named in s (by spaces or commas), in
// seen's order, or the first name that is none of them.
func chooseHosts(seen []*host.Host, s string) ([]*host.Host, string) {
	names := strings.FieldsFunc(s, func(r rune) bool { return r == ',' || r == ' ' })
	for _, n := range names {
		if !slices.ContainsFunc(seen, func(h *host.Host) bool { return h.Name == n }) {
			return nil, n
		}
	}
	var out []*host.Host
	for _, h := range seen {
		if slices.Contains(names, h.Name) {
			out = append(out, h)
		}
	}
	return out, ""
}
