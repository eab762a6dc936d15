package policy

import (
	"os"

	"github.com/atreides-dev/atreides/internal/guard"
)

// Hosts is what the guard must know of the agent hosts: the files that
// register atreides with them and their programs. The wiring site builds
// it from the host registry (internal/host/all); policy imports no host
// or install package.
type Hosts struct {
	// Files lists the files whose contents decide whether a host runs
	// atreides, for the project at root and the user's home; getenv reads
	// the variables that move them (guard.Request.HostSettings).
	Files func(root, home string, getenv func(string) string) []string
	// Plugins lists the directories where the hosts keep atreides's
	// installed plugins and extensions, for the user's home
	// (guard.Request.Plugins).
	Plugins func(home string, getenv func(string) string) []string
	// Agents are the agent hosts' programs (guard.Request.Agents).
	Agents guard.AgentCLIs
	// Vars are the variables by which the hosts mark their agents'
	// commands (guard.Request.HostVars).
	Vars []string
}

// Apply fills what the guard must know of the hosts into a request of the
// process's environment. The hosts' files and atreides's plugin
// directories are listed when the guard first reads them
// (guard.Request.Hosts): a command that writes nothing never needs them.
func (h Hosts) Apply(r *guard.Request) {
	r.Hosts = h.fill
	r.Agents = h.Agents
	r.HostVars = h.Vars
}

// fill lists the hosts' files and atreides's plugin directories for r.
func (h Hosts) fill(r *guard.Request) {
	if h.Files != nil {
		r.HostSettings = h.Files(r.ProjectRoot, r.Home, os.Getenv)
	}
	r.Plugins = nil
	if h.Plugins != nil {
		r.Plugins = h.Plugins(r.Home, os.Getenv)
	}
	self := r.Binary()
	if d := PackageDir(self); d != "" {
		r.Plugins = append(r.Plugins, d)
	}
	r.Plugins = append(r.Plugins, NpmPackageDirs(self)...)
	if d := StableBinDir(r.Home, os.Getenv); d != "" {
		r.Plugins = append(r.Plugins, d)
	}
}
