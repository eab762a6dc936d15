package session

import (
	"os"
	"path/filepath"
)

// HostFacts is what the session handlers must know of the host an event
// comes from. The hosts registry (internal/hosts) holds them for every
// host and the command line passes them in [Options.Hosts]; a host with
// no facts names no agents and reads no instruction file of its own.
type HostFacts struct {
	// Instructions are project files, relative to the root, that the host
	// reads itself: when the rules file is missing and one of these is
	// there, the project has rules and atreides adds none.
	Instructions []string
	// Agents maps a role (see roleOrder) to the name the host gives the
	// built-in agent that fills it, as it must be passed to the host's
	// delegation tool. A role without an agent on the host is never named.
	Agents map[string]string
	// Compact is the command the user types to compact the agent's
	// context ("" when unknown).
	Compact string
}

// roleOrder is the order roles are named in.
var roleOrder = []string{"oracle", "explore", "librarian", "build", "plan"}

// host returns the facts of the named host.
func (o Options) host(name string) HostFacts {
	if o.Hosts == nil {
		return HostFacts{}
	}
	return o.Hosts(name)
}

// hostInstructions returns the first instruction file of the host that
// exists at the project root, or "".
func hostInstructions(f HostFacts, root string) string {
	for _, name := range f.Instructions {
		if fi, err := os.Stat(filepath.Join(root, filepath.FromSlash(name))); err == nil && fi.Mode().IsRegular() {
			return name
		}
	}
	return ""
}
