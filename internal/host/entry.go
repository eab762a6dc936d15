package host

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/slash"
)

// Transport is how a host reaches atreides.
type Transport int

const (
	// Hook: the host starts `atreides hook <name>` for every event.
	Hook Transport = iota
	// Serve: a plugin inside the host talks to `atreides serve --stdio`.
	Serve
)

// Host is one agent host.
type Host struct {
	Name    string // on the command line, in state and hook commands: "claude"
	Display string // for people: "Claude Code"
	Adapter Adapter
	// Facts are what handlers know of the host; the adapter attaches them
	// to its events. Lacks names the facts (fields) the host has none of,
	// on purpose: every other one must be set (TestFactsComplete).
	Facts *event.HostFacts
	Lacks []string
	Via   Transport
	// Scopes are the settings scopes the host has, the default first.
	Scopes []install.Scope
	// Path is the file install writes for a scope.
	Path func(env Env, scope install.Scope) string
	// Install and Uninstall change the file of o.Scope (and what goes with
	// it, such as Claude Code's .mcp.json).
	Install   func(env Env, o Options) (install.Report, error)
	Uninstall func(env Env, scope install.Scope) (install.Report, error)
	// Inspect reports what is installed in a file returned by Path.
	Inspect func(path string) (install.Status, error)
	// HookFiles are the files whose contents decide whether the host runs
	// atreides: the settings files install writes the hooks to (every
	// scope), the files beside them that can switch the hooks off, plugin
	// directories (ending in "/": everything under them). Nothing of a
	// scope whose base (the project, the home) is unknown.
	HookFiles func(env Env) []string
	// Plugins are the directories (each ending in "/") where the host
	// keeps atreides's plugin or extension once installed with its own
	// command (internal/hostpack lays them out): the guard denies writes
	// under them. Nil: the host takes atreides only through install.
	Plugins func(env Env) []string
	// Programs are the host's executables, and ConfigDirs its directories:
	// either one present means the host is on this machine (Seen).
	Programs   []string
	ConfigDirs func(env Env) []string
	// CLI is the host's program as the guard judges it: its names, and
	// how it is started with atreides left out.
	CLI guard.AgentCLI
	// Markers are the environment variables the host sets in the
	// processes it starts (its MCP servers'): any one set says the host
	// started the process. None: the host sets none of its own.
	Markers []Marker
	// AgentVars are the environment variables the host sets in every
	// command its agent runs (its shell tool's): any one set marks the
	// command as an agent's, not a person's (package actor), and the guard
	// refuses a command that sets, unsets or clears one (it would pass for
	// the user's). A name ending in "*" stands for every variable whose
	// name begins with the rest; actor reads the rest itself. None: the
	// host marks its commands with none.
	AgentVars []string
	// SessionVar is the environment variable in which the host names, in
	// every command its agent runs, the session the command runs in (one
	// of AgentVars): package actor lets such a command act for that
	// session alone. "": the host names none.
	SessionVar string
	// MCPConfig are the files in which the host's MCP servers are
	// configured ([Host.MCPServers]), so that a language's declared tools
	// can be checked; none: atreides does not know where they are.
	MCPConfig []MCPSource
	// Agents is how the host takes atreides's agent roster.
	Agents AgentFacts
	// Commands is how the host takes atreides's slash commands.
	Commands CommandFacts
	// Start is what `atreides install NAME` does, in a few words, for
	// atreides's help ("register the hooks in .claude/settings.json").
	// Writes is what install writes, by scope, for install's help: lines
	// of at most 67 columns (the help indents them by 12, to column 79).
	Start, Writes string
	// Doctor adds the host's own checks, given what Inspect found in each
	// scope's file (indexed like Scopes).
	Doctor func(env Env, found []install.Status) []Check
}

// AgentFacts are what atreides knows of a host's agents (checked against
// the pinned version).
type AgentFacts struct {
	// Builtin are the host's own agents at the pinned version, as the host
	// names them; each host's entry says where its list came from. No
	// agent atreides installs has one of these names (agents.HostName;
	// TestNoShadowing in internal/host/all), and install skips one that
	// would, with a line in its report, rather than shadow the host's.
	Builtin []string
	// Dir is the agent directory of a scope; nil: the agents do not go
	// into files (OpenCode's plugin injects them).
	Dir  func(env Env, scope install.Scope) string
	Form install.AgentForm
	// InlineSkills is set when the host has no event on which a subagent's
	// skills can reach it: they are written into its prompt instead.
	InlineSkills bool
}

// CommandFacts are how a host takes slash commands (checked against the
// pinned version): the folder of a scope, and the file format with its
// spelling of the user's arguments (install.CommandForm.Args).
type CommandFacts struct {
	// Builtin are the host's own slash commands at the pinned version,
	// without the slash, held to the same rule as AgentFacts.Builtin.
	Builtin []string
	// Dir is the command directory of a scope; nil: atreides installs no
	// commands for the host (see the entry for why).
	Dir  func(env Env, scope install.Scope) string
	Form install.CommandForm
}

// Env is the machine and project install and doctor work on.
type Env struct {
	ProjectDir string
	Home       string
	Getenv     func(string) string
	LookPath   func(string) (string, error)
	// Governance is set when the project's configuration turns governance
	// on (doctor's checks weigh a missing MCP registration by it).
	Governance bool
}

// EnvAt is this machine and the project at root as install, uninstall
// and doctor see them, with the environment read through getenv.
func EnvAt(getenv func(string) string, root string) Env {
	home, _ := os.UserHomeDir()
	return Env{ProjectDir: root, Home: home, Getenv: getenv, LookPath: exec.LookPath}
}

// Var is the environment variable name, "" when e reads no environment
// (a zero Env, as tests build).
func (e Env) Var(name string) string {
	if e.Getenv == nil {
		return ""
	}
	return e.Getenv(name)
}

// BackupDir is where install keeps backups for a file of the scope.
func (e Env) BackupDir(scope install.Scope) string {
	return install.BackupDir(scope, e.ProjectDir, e.Home, e.Getenv("XDG_STATE_HOME"))
}

// Options are one install's choices.
type Options struct {
	Scope install.Scope
	// Binary is what the hooks run: install.PortableBinary, or an absolute
	// path (see BinaryFor).
	Binary         string
	TimeoutSeconds int  // 0: install.DefaultTimeoutSeconds
	Offline        bool // OpenCode: mark its dependency install as done
	// Roster is the agents to install (none: no agent files are written,
	// and those of an earlier install are removed).
	Roster agents.Roster
	// SkillDirs are the hosts' own skill folders (SkillDirs), searched
	// after .atreides/skills for the skills written into an agent's
	// prompt; the caller passes them, since the table's entries cannot
	// read the table they are part of.
	SkillDirs []string
	// Skip are the parts besides the hooks this install leaves out, and
	// removes where an earlier install wrote them (a project's preset,
	// config.Preset); none, the zero value, is a whole install.
	Skip Part
}

// Part is a part of an install besides the hooks, which every install
// writes. A host without one (OpenCode's agents come through its plugin)
// has nothing to leave out.
type Part uint8

// The parts.
const (
	PartMCP      Part = 1 << iota // the MCP server: the agent's tools
	PartAgents                    // the roster's agent files
	PartCommands                  // the slash command files
)

// Has reports whether the install writes part p.
func (o *Options) Has(p Part) bool { return o.Skip&p == 0 }

// LeaveOut removes the agent and command files that o leaves out (and an
// earlier install wrote), folding what it did into rep. A host whose MCP
// server shares the hooks' settings file calls it before writing the
// hooks, then removes the server: removing it from a file still as
// install left it gives back the file's bytes from before the install
// and removes the directories install created once they are empty, so
// the files in them must be gone first; the hooks' install then starts a
// new undo record.
func LeaveOut(env Env, rep *install.Report, host, toolPrefix string, a AgentFacts, c CommandFacts, o *Options) error {
	if !o.Has(PartAgents) {
		if err := WithAgents(env, rep, host, a, o.Scope, nil); err != nil {
			return err
		}
	}
	if !o.Has(PartCommands) {
		return WithCommands(env, rep, host, toolPrefix, c, o.Scope, false)
	}
	return nil
}

// AgentsOf is o for [WithAgents]: o when the install writes the agent
// files, else nil, which removes those of an earlier install.
func AgentsOf(o *Options) *Options {
	if !o.Has(PartAgents) {
		return nil
	}
	return o
}

// Marker is an environment variable a host sets: to Value, or to
// anything not empty when Value is "".
type Marker struct{ Name, Value string }

// Set reports whether the marker is in the environment.
func (m Marker) Set(getenv func(string) string) bool {
	v := getenv(m.Name)
	return v != "" && (m.Value == "" || v == m.Value)
}

// Check is one line of doctor's report.
type Check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok | problem | note
	Detail string `json:"detail"`
}

// Check statuses.
const (
	OK      = "ok"
	Problem = "problem"
	Note    = "note"
)

// DefaultScope is the scope used when none is asked for.
func (h *Host) DefaultScope() install.Scope { return h.Scopes[0] }

// HasScope reports whether the host has a settings file of the scope.
func (h *Host) HasScope(s install.Scope) bool { return slices.Contains(h.Scopes, s) }

// Seen reports whether the host is on this machine: one of its programs on
// PATH, or one of its configuration directories present.
func (h *Host) Seen(env Env) bool {
	for _, p := range h.Programs {
		if _, err := env.LookPath(p); err == nil {
			return true
		}
	}
	for _, d := range h.ConfigDirs(env) {
		if fi, err := os.Stat(d); err == nil && fi.IsDir() {
			return true
		}
	}
	return false
}

// BinaryFor is the binary a file of the scope names: atreides through
// PATH in a project file, which is committed and so must work on every
// machine; this machine's binary (self, or pinned when given) in a local
// or user file. Pinning a project file is refused.
func BinaryFor(scope install.Scope, self, pinned string) (string, error) {
	if scope == install.ScopeProject {
		if pinned != "" {
			return "", errors.New("--bin pins this machine's path, but the project's settings are committed and shared: install with --local or --user to pin a binary")
		}
		return install.PortableBinary, nil
	}
	if pinned != "" {
		return pinned, nil
	}
	return self, nil
}

// FileCheck is doctor's verdict on one settings file of a host.
func (h *Host) FileCheck(scope install.Scope, st install.Status) Check {
	name := h.Name + " " + scope.String()
	switch {
	case !st.Exists:
		return Check{name, OK, st.Path + ": no file"}
	case !st.Parses:
		return Check{name, Problem, st.Problem}
	case len(st.Events) == 0:
		return Check{name, OK, st.Path + ": no atreides hooks"}
	}
	var problems []string
	if len(st.Missing) > 0 {
		problems = append(problems, "events without atreides: "+strings.Join(st.Missing, ", ")+" (run 'atreides install "+h.Name+"' again)")
	}
	if len(st.Duplicated) > 0 {
		problems = append(problems, "atreides registered twice for: "+strings.Join(st.Duplicated, ", "))
	}
	for _, b := range st.Binaries {
		switch {
		case b.Executable:
		case b.Command == install.PortableBinary && b.Resolved == "":
			problems = append(problems, fmt.Sprintf("atreides is not on PATH: these hooks name it without a path, so %s cannot run them and goes on without atreides; put the directory holding atreides on PATH (check the PATH %s is started with), or pin this machine's binary with 'atreides install %s --local' or '--user'", h.Display, h.Display, h.Name))
		default:
			problems = append(problems, fmt.Sprintf("hook binary %s: %s (the hooks fail open until it is fixed: %s runs on without them)", b.Command, b.Problem, h.Display))
		}
	}
	if len(problems) > 0 {
		return Check{name, Problem, st.Path + ": " + strings.Join(problems, "; ")}
	}
	bins := make([]string, 0, len(st.Binaries))
	for _, b := range st.Binaries {
		bin := b.Command
		if b.Resolved != "" && b.Resolved != b.Command {
			bin += " (" + b.Resolved + ")"
		}
		bins = append(bins, bin)
	}
	return Check{name, OK, fmt.Sprintf("%s: %d events, binary %s", st.Path, len(st.Events), strings.Join(bins, ", "))}
}

// DisabledCheck is doctor's line on the files that switch the host name's
// hooks off (install.Status.Disabled): a problem when atreides is
// installed in any of them, since the host merges such switches across
// its files; a note otherwise; nil when none does.
func DisabledCheck(name string, found []install.Status) []Check {
	var disabled []string
	installed := false
	for _, st := range found {
		if st.Disabled != "" {
			disabled = append(disabled, st.Path+": "+st.Disabled)
		}
		installed = installed || len(st.Events) > 0
	}
	if len(disabled) == 0 {
		return nil
	}
	status := Note
	if installed {
		status = Problem
	}
	return []Check{{Name: name + " hooks", Status: status, Detail: strings.Join(disabled, "; ")}}
}

// UserConfig is the directory of a host's user settings under home.
func UserConfig(env Env, dir string) []string {
	if env.Home == "" {
		return nil
	}
	return []string{filepath.Join(env.Home, dir)}
}

// InstructionsFile is where `install --agents-md` puts the managed section
// for this host: the project's AGENTS.md when there is one (atreides's
// session context carries it to every host, and Codex and OpenCode read it
// themselves); else the host's own instructions file when the project has
// it (CLAUDE.md, GEMINI.md), so a project that keeps its rules there gets
// no second file; else a new AGENTS.md.
func (h *Host) InstructionsFile(env Env) string {
	agents := filepath.Join(env.ProjectDir, "AGENTS.md")
	if exists(agents) {
		return agents
	}
	for _, name := range h.Facts.Instructions {
		if own := filepath.Join(env.ProjectDir, filepath.FromSlash(name)); exists(own) {
			return own
		}
	}
	return agents
}

// DotDir is the folder sub of a host's dot directory (".claude") for a
// scope: in the user's home for the user scope, else in the project.
func DotDir(env Env, scope install.Scope, dot, sub string) string {
	base := env.ProjectDir
	if scope == install.ScopeUser {
		base = env.Home
	}
	return filepath.Join(base, dot, sub)
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// WithAgents installs (o's roster) or removes (o nil) the agent files of
// the host for a scope and folds what it did into the hooks' report.
func WithAgents(env Env, rep *install.Report, host string, f AgentFacts, scope install.Scope, o *Options) error {
	if f.Dir == nil {
		return nil
	}
	dir := f.Dir(env, scope)
	var a install.Report
	var err error
	if o != nil {
		a, err = install.InstallAgents(install.AgentsOptions{
			Dir: dir, Form: f.Form, Roster: withoutBuiltin(o.Roster, f.Builtin, rep), BackupDir: env.BackupDir(scope),
			Prompt: agentPrompt(env, f, o.SkillDirs, rep),
		})
	} else {
		a, err = install.UninstallAgents(dir, host, f.Form.Ext, env.BackupDir(scope))
	}
	if err != nil {
		return fmt.Errorf("agents in %s: %w", dir, err)
	}
	foldFiles(rep, dir, "agents", a)
	return nil
}

// withoutBuiltin is the roster less the agents whose names on the host
// are those of the host's own agents (builtin), each left out with a note
// in rep: a file of ours would shadow the host's agent. With the prefix
// none is; a project's agent could be.
func withoutBuiltin(r agents.Roster, builtin []string, rep *install.Report) agents.Roster {
	out := make(agents.Roster, 0, len(r))
	for _, a := range r {
		if IsBuiltin(builtin, a.HostName()) {
			rep.Notes = append(rep.Notes, fmt.Sprintf("skipped the agent %s: the host has an agent of that name", a.HostName()))
			continue
		}
		out = append(out, a)
	}
	return out
}

// IsBuiltin reports whether name is one of a host's built-in names,
// whatever the case: hosts differ in whether they tell Plan from plan,
// and a file system may not.
func IsBuiltin(builtin []string, name string) bool {
	return slices.ContainsFunc(builtin, func(b string) bool { return strings.EqualFold(b, name) })
}

// agentPrompt is an agent's prompt as the host installs it: with its
// skills written in when the host cannot inject them at run time (found
// in .atreides/skills, then in dirs). A skill that cannot be read is left
// out, with a warning in rep.
func agentPrompt(env Env, f AgentFacts, dirs []string, rep *install.Report) func(a agents.Agent) string {
	if !f.InlineSkills {
		return nil
	}
	return func(a agents.Agent) string {
		skills, err := agents.LoadSkills(env.ProjectDir, a.Skills, dirs...)
		if err != nil {
			rep.Warnings = append(rep.Warnings, fmt.Sprintf("agent %s: %v; installed without it", a.ID, err))
		}
		return agents.Prompt(a, skills)
	}
}

// WithCommands installs (add) or removes atreides's slash command files
// of the host for a scope and folds what it did into rep. toolPrefix is
// the host's (Facts.ToolPrefix: the host entry cannot be read from here
// without its initialization depending on itself).
func WithCommands(env Env, rep *install.Report, host, toolPrefix string, f CommandFacts, scope install.Scope, add bool) error {
	if f.Dir == nil {
		return nil
	}
	dir := f.Dir(env, scope)
	var c install.Report
	var err error
	if add {
		// A user install is for every project: the project's own
		// commands go only where the project is.
		load := func() ([]slash.Command, error) { return slash.ForProject(env.ProjectDir) }
		if scope == install.ScopeUser {
			load = slash.All
		}
		cmds, lerr := load()
		if lerr != nil {
			return lerr
		}
		cmds = slices.DeleteFunc(cmds, func(c slash.Command) bool {
			if !IsBuiltin(f.Builtin, c.HostName()) {
				return false
			}
			rep.Notes = append(rep.Notes, fmt.Sprintf("skipped the command /%s: the host has a command of that name", c.HostName()))
			return true
		})
		c, err = install.InstallCommands(install.CommandsOptions{
			Dir: dir, Form: f.Form, Commands: cmds, BackupDir: env.BackupDir(scope),
			Tool: func(tool string) string { return toolPrefix + tool },
		})
	} else {
		c, err = install.UninstallCommands(dir, host, f.Form.Ext, env.BackupDir(scope))
	}
	if err != nil {
		return fmt.Errorf("commands in %s: %w", dir, err)
	}
	foldFiles(rep, dir, "commands", c)
	return nil
}

// foldFiles adds what installing or removing a set of files of ours (a)
// did to the host's report.
func foldFiles(rep *install.Report, dir, what string, a install.Report) {
	for _, l := range []struct {
		what string
		ids  []string
	}{{"installed", a.Added}, {"updated", a.Updated}, {"removed", a.Removed}} {
		if len(l.ids) > 0 {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %s %s %s", dir, l.what, what, strings.Join(l.ids, ", ")))
		}
	}
	rep.Warnings = append(rep.Warnings, a.Warnings...)
	rep.Notes = append(rep.Notes, a.Notes...)
}

// FoldMCP adds what an MCP registration did (m) to the host's report.
func FoldMCP(rep *install.Report, m install.Report) {
	for _, l := range [][]string{m.Added, m.Updated, m.Removed} {
		for _, x := range l {
			rep.Notes = append(rep.Notes, fmt.Sprintf("%s: %s %s", m.Path, m.Action, x))
		}
	}
	rep.Notes = append(rep.Notes, m.Notes...)
	if m.Backup != "" && m.Path != rep.Path {
		rep.Notes = append(rep.Notes, "backup of the previous "+filepath.Base(m.Path)+": "+m.Backup)
	}
}

// FoldInstall adds what registering the MCP server (m) did to the report
// of installing the hooks beside it: a change to either is an update. m
// may be the removal of the server (an install without it), or nothing.
func FoldInstall(rep *install.Report, m install.Report) {
	if rep.Action == install.ActionUnchanged && (m.Action == install.ActionInstalled || m.Action == install.ActionUpdated || m.Action == install.ActionRemoved) {
		rep.Action = install.ActionUpdated
	}
	FoldMCP(rep, m)
}

// FoldUninstall adds to an uninstall's report of the hooks what removing
// the agent files and the MCP server (m) did.
func FoldUninstall(rep *install.Report, agents, m install.Report) {
	rep.Notes = append(rep.Notes, agents.Notes...)
	rep.Warnings = append(rep.Warnings, agents.Warnings...)
	if rep.Action == install.ActionNothingToDo && m.Action == install.ActionRemoved {
		rep.Action = install.ActionRemoved
	}
	FoldMCP(rep, m)
}

// MCPCheck is doctor's verdict on the MCP registration of a host in path
// (registered, problem, err from the install package's Inspect…MCP).
func MCPCheck(host, path string, reg bool, problem string, err error, governance bool) Check {
	name := host + " MCP tools"
	switch {
	case err != nil:
		return Check{name, Problem, fmt.Sprintf("%s: %v", path, err)}
	case problem != "" && reg:
		return Check{name, Problem, fmt.Sprintf("%s: %s (the agent's intent and todo tools cannot start)", path, problem)}
	case problem != "":
		return Check{name, Problem, fmt.Sprintf("%s: %s", path, problem)}
	case !reg && governance:
		return Check{name, Note, fmt.Sprintf("%s: not registered (governance is enabled: without these tools the agent cannot select an intent, so its writes are blocked; run 'atreides install %s')", path, host)}
	case !reg:
		return Check{name, OK, path + ": not registered"}
	}
	return Check{name, OK, path + ": atreides registered"}
}

// ProjectRoster is the agent roster install writes for the project at
// root: the configuration's, or the built-in one when the configuration
// cannot be read (install has warned). An agent the configuration leaves
// incomplete stops the install: writing the rest would leave the user
// guessing which is missing.
func ProjectRoster(root string) (agents.Roster, error) {
	c, _ := config.LoadOrBuiltin(config.DefaultPaths(root))
	r, err := agents.FromConfig(c.Agents)
	if err != nil {
		return nil, fmt.Errorf("the agent roster: %w", err)
	}
	return r, nil
}
