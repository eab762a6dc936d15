package hook

import (
	"io"
	"runtime/debug"

	"github.com/atreides-dev/atreides/internal/config"
)

// Process is what the runtime takes from the program it runs in: its
// streams and environment, and two things the command line owns.
type Process struct {
	In       io.Reader
	Out, Err io.Writer
	// Getenv and Getwd are swappable for tests.
	Getenv func(string) string
	Getwd  func() (string, error)
	// Export writes the session's export document of the project at
	// root (the export command's writer); the runtime calls it at a
	// session's end when export.on_session_end asks for it. nil writes
	// none.
	Export func(root string, c *config.Config, session string) error
	// InstallProblems are what doctor finds wrong with the host's
	// installation for the project at root, told to the agent at session
	// start. nil finds none.
	InstallProblems func(root, host string) []string
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
