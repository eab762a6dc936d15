package opencode

import "github.com/atreides-dev/atreides/internal/event"

// Flavor is one host of the OpenCode family: OpenCode itself, or a fork
// that loads the same plugin file and speaks the same plugin API (Kilo
// Code). Its events differ only in the host they name and the facts they
// carry; its install differs in where the plugin goes (the caller's
// directories) and in the npm package the host installs into each config
// directory at start (DepsPackage, for the offline marker).
type Flavor struct {
	Name        string
	Facts       *event.HostFacts
	DepsPackage string
}

// OpenCode is OpenCode's own flavor, the one every zero Flavor stands for.
func OpenCode() Flavor {
	return Flavor{Name: Host, Facts: &Facts, DepsPackage: "@opencode-ai/plugin"}
}

// or is f, or OpenCode's flavor when f is the zero value.
func (f Flavor) or() Flavor {
	if f.Name == "" {
		return OpenCode()
	}
	return f
}
