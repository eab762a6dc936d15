package hook

import (
	"io"
	"runtime/debug"
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

// version is set at build time with -ldflags "-X .../internal/hook.version=v1.2.3".
var version = ""

// Version returns the atreides version: the link-time value, else the
// module version, else "devel". It is written into trace records and
// told to a plugin's hello.
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
