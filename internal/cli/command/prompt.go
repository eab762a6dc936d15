package command

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/atreides-dev/atreides/internal/actor"
	"golang.org/x/term"
)

// StdinTerminal reports whether the command's stdin is a terminal: a
// person's (package actor); an agent's shell tool gives none.
func StdinTerminal(io *IO) bool {
	f, ok := io.In.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// ConfirmAtTerminal is the question put to the user about a verification
// command the guard asks about, when a person runs the command (package
// actor: a terminal and no host's marks); nil otherwise (a script, an
// agent's shell, an agent's made-up terminal): then such a command is not
// run.
func ConfirmAtTerminal(io *IO) func(command string, why error) bool {
	if !actor.Person(io.Getenv, StdinTerminal(io)) {
		return nil
	}
	return func(command string, why error) bool { return Confirm(io, command, why) }
}

// Confirm asks whether to run command and reads the answer: only "y" or
// "yes" runs it.
func Confirm(io *IO, command string, why error) bool {
	fmt.Fprintf(io.Err, "the verification `%s`: %v\nrun it? [y/N] ", command, why)
	line, _ := bufio.NewReader(io.In).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}
