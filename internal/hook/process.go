package hook

import (
	"io"

	"github.com/atreides-dev/atreides/internal/buildinfo"
)

// Process is what the runtime takes from the program it runs in: its
// streams and environment.
type Process struct {
	In       io.Reader
	Out, Err io.Writer
	// Getenv and Getwd are swappable for tests.
	Getenv func(string) string
	Getwd  func() (string, error)
}

// settings are the settings of root for this process's runtime.
func (p *Process) settings(root string) *Settings {
	s := NewSettings(root)
	s.proc = p
	return s
}

// Version returns the atreides version (package buildinfo): the
// release build's stamp, else the module version, else "devel". It is
// written into trace records and told to a plugin's hello.
func Version() string { return buildinfo.Version() }
