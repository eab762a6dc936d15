package agents

import "strings"

// NamePrefix is what every agent atreides installs is called by on a
// host: "atreides-" and the roster id ("atreides-explore"). The roster's
// ids stay short and host-neutral in the configuration; the host sees the
// prefixed name, so no agent of atreides ever has the name of one of the
// host's own (Claude Code's Explore and Plan, OpenCode's build, plan and
// explore, ...). One prefix on every host, since every host takes a name
// of lowercase letters, digits and dashes (ValidName) and none has agent
// namespaces of its own. The full word, not a shorter tag, because the
// model reads the name in the host's agent list and should know whose
// agent it is.
const NamePrefix = "atreides-"

// HostName is the name the host knows the agent of a roster id by. An id
// that already carries the prefix (a project's agent named so) is kept.
func HostName(id string) string {
	if strings.HasPrefix(id, NamePrefix) {
		return id
	}
	return NamePrefix + id
}

// HostName is the name the host knows the agent by ([HostName]).
func (a Agent) HostName() string { return HostName(a.ID) }

// PluginNamespace is what Claude Code puts before the name of an agent
// that atreides's plugin provides ("atreides:atreides-stilgar"; 2.1.332
// names a plugin's agents <plugin>:<name>).
const PluginNamespace = "atreides:"

// IDOf is the roster id a name coming back from a host stands for: the
// name less the plugin's namespace and the prefix. A bare name (an agent
// file of an install from before the prefix) is returned as it is.
func IDOf(name string) string {
	name = strings.TrimPrefix(name, PluginNamespace)
	if id, ok := strings.CutPrefix(name, NamePrefix); ok && id != "" {
		return id
	}
	return name
}
