package all

import (
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/lazy"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/host/cline"
	"github.com/atreides-dev/atreides/internal/host/codex"
	"github.com/atreides-dev/atreides/internal/host/copilot"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/host/kilo"
	"github.com/atreides-dev/atreides/internal/host/opencode"
	"github.com/atreides-dev/atreides/internal/host/qwen"
	"github.com/atreides-dev/atreides/internal/policy"
)

// FromEnv recognises the host that started this process by its markers:
// "" when none is recognised or the markers of several are set (a
// background task's headless CLI inherits its launcher's).
func FromEnv(getenv func(string) string) string {
	found := ""
	for _, h := range table {
		if slices.ContainsFunc(h.Markers, func(m host.Marker) bool { return m.Set(getenv) }) {
			if found != "" {
				return ""
			}
			found = h.Name
		}
	}
	return found
}

// The registry's derived lists are built once per process, on first use
// (the table never changes); callers share them and must not change them.
var (
	// agentCLIs are the programs of every agent host the guard knows:
	// the supported hosts' and, after them, those of hosts atreides has
	// no adapter for, whose unguarded starts are refused all the same.
	agentCLIs = lazy.Value[guard.AgentCLIs]{New: func() guard.AgentCLIs {
		out := make(guard.AgentCLIs, 0, len(table)+len(otherAgents))
		for _, h := range table {
			out = append(out, h.CLI)
		}
		return append(out, otherAgents...)
	}}
	facts = lazy.Value[map[string]*event.HostFacts]{New: func() map[string]*event.HostFacts {
		out := make(map[string]*event.HostFacts, len(table))
		for _, h := range table {
			out[h.Name] = h.Facts
		}
		return out
	}}
	agentVars = lazy.Value[[]string]{New: func() []string {
		var out []string
		for _, h := range table {
			out = append(out, h.AgentVars...)
		}
		return out
	}}
	sessionVars = lazy.Value[[]string]{New: func() []string {
		var out []string
		for _, h := range table {
			if h.SessionVar != "" {
				out = append(out, h.SessionVar)
			}
		}
		return out
	}}
	skillDirs = lazy.Value[[]string]{New: func() []string {
		var out []string
		for _, h := range table {
			for _, d := range h.Facts.SkillDirs {
				if !slices.Contains(out, d) {
					out = append(out, d)
				}
			}
		}
		return out
	}}
)

// AgentVars are the variables by which every host marks its agent's
// commands (Host.AgentVars), for package actor and the guard.
func AgentVars() []string { return agentVars.Get() }

// SessionVars are the variables in which hosts name the session of their
// agent's commands (Host.SessionVar), for package actor.
func SessionVars() []string { return sessionVars.Get() }

// hookFiles lists every host's hook files (Host.HookFiles) for the
// project at root and the user's home, once each; getenv reads the
// variables that move them. The guard asks before an agent writes any of
// them (policy.Hosts, internal/guard/selfguard.go).
func hookFiles(root, home string, getenv func(string) string) []string {
	env := host.Env{ProjectDir: root, Home: home, Getenv: getenv}
	// Room for every host's files of a project and a home (70 today),
	// so that the list is not copied as it grows: a hook makes it for
	// every tool call.
	out := make([]string, 0, 96)
	for _, h := range table {
		for _, p := range h.HookFiles(env) {
			if p != "" && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}

// pluginDirs lists every host's folders of atreides's installed plugins
// and extensions (Host.Plugins) under the user's home.
func pluginDirs(home string, getenv func(string) string) []string {
	env := host.Env{Home: home, Getenv: getenv}
	var out []string
	for _, h := range table {
		if h.Plugins != nil && home != "" {
			out = append(out, h.Plugins(env)...)
		}
	}
	return out
}

// Guard is what the guard must know of the agent hosts (policy.Hosts),
// for every wiring site that judges commands: the hook runtime, the
// command line and the MCP server.
func Guard() policy.Hosts {
	return policy.Hosts{Files: hookFiles, Plugins: pluginDirs, Agents: agentCLIs.Get(), Vars: AgentVars()}
}

// otherAgents are the agent CLIs of hosts atreides has no adapter for.
var otherAgents = []guard.AgentCLI{
	{Display: "Cursor Agent", Names: []string{"cursor-agent"}, Off: []string{"--force", "-f"}},
	{Display: "Amp", Names: []string{"amp"}, Off: []string{"--dangerously-allow-all"}},
}

// All is every supported host, in the order they are listed to users.
func All() []*host.Host { return table }

var table = []*host.Host{&claude.Entry, &gemini.Entry, &codex.Entry, &opencode.Entry, &copilot.Entry, &qwen.Entry, &cline.Entry, &kilo.Entry}

// Via is every host that reaches atreides by t, in the order of All.
func Via(t host.Transport) []*host.Host {
	var out []*host.Host
	for _, h := range table {
		if h.Via == t {
			out = append(out, h)
		}
	}
	return out
}

// ByName finds a host by name.
func ByName(name string) (*host.Host, bool) {
	i := slices.IndexFunc(table, func(h *host.Host) bool { return h.Name == name })
	if i < 0 {
		return nil, false
	}
	return table[i], true
}

// Names lists the hosts' names, comma-separated, for messages.
func Names() string {
	names := make([]string, len(table))
	for i, h := range table {
		names[i] = h.Name
	}
	return strings.Join(names, ", ")
}

// Facts are every host's facts, by name, for the tools that serve a host
// other than an event's (agenttools.Env.Hosts).
func Facts() map[string]*event.HostFacts { return facts.Get() }

// SkillDirs are every host's own skill folders, for loading a skill by
// name whichever host runs (.atreides/skills comes first; see
// agents.LoadSkills).
func SkillDirs() []string { return skillDirs.Get() }
