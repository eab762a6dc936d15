package all

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/host"
)

// Calling is the host whose agent runs this process, by the variables
// the hosts mark their agents' commands with (Host.AgentVars; a name
// ending in "*" matches every variable it begins); nil when none is set
// (a person's terminal, a script). environ is the process's environment
// (os.Environ). Used where a command acts for its caller's host without
// being told (a language's tools checked in that host's configuration).
func Calling(environ []string) *host.Host {
	set := func(v string) bool {
		prefix, wild := strings.CutSuffix(v, "*")
		for _, kv := range environ {
			k, val, _ := strings.Cut(kv, "=")
			if val != "" && (k == v || wild && strings.HasPrefix(k, prefix)) {
				return true
			}
		}
		return false
	}
	for _, h := range table {
		for _, v := range h.AgentVars {
			if set(v) {
				return h
			}
		}
	}
	return nil
}

// MCPServers are the MCP servers the host of the name has configured
// for the project at root and the user's home (Host.MCPServers); known
// is false for a host atreides does not know, or whose MCP
// configuration it does not read.
func MCPServers(name, root, home string, getenv func(string) string) (names []string, known bool, err error) {
	h, ok := ByName(name)
	if !ok {
		return nil, false, nil
	}
	return h.MCPServers(host.Env{ProjectDir: root, Home: home, Getenv: getenv})
}
