package session

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
	// Call says how the host's lead agent starts the agent of an id: a
	// format whose %[1]s is the id, e.g. `the Agent tool with
	// subagent_type "%[1]s"`. Empty: the host cannot start the roster's
	// agents, and none is named.
	Call string
	// Native are the agents the host has itself under the roster's ids:
	// atreides installs no agent of such an id there, so it is not named.
	Native []string
	// Compact is the command the user types to compact the agent's
	// context ("" when unknown).
	Compact string
}

// CallOf is how the host starts the agent id ("" when it cannot).
func (f HostFacts) CallOf(id string) string {
	if f.Call == "" || slices.Contains(f.Native, id) {
		return ""
	}
	return fmt.Sprintf(f.Call, id)
}

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
