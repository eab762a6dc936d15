package command

import "github.com/atreides-dev/atreides/internal/hook"

// IO is where a command reads and writes: the process's streams and
// environment as the hook runtime takes them (hook.Process, so 'hook' and
// 'serve' hand it over as it is), and whether Out takes colour.
type IO struct {
	hook.Process
	// Color reports whether Out takes colour (style.go); nil means no.
	Color func() bool
	// Term reports whether Out is a terminal and its width (table.go);
	// nil means it is not one.
	Term func() (bool, int)
}
