package command

import (
	"os"

	"golang.org/x/term"
)

// StdinTerminal reports whether the command's stdin is a terminal: a
// person's (package actor); an agent's shell tool gives none.
func StdinTerminal(io *IO) bool {
	f, ok := io.In.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
