package command

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"

	"golang.org/x/term"
)

// Prompter asks questions at the terminal: one reader for every answer,
// so that none is lost to another question's buffering.
type Prompter struct {
	in  *bufio.Reader
	Out *IO
}

// NewPrompter asks on io's terminal.
func NewPrompter(io *IO) *Prompter {
	return &Prompter{in: bufio.NewReader(io.In), Out: io}
}

// Interactive reports whether a command may ask: its stdin and stdout
// are terminals.
func Interactive(io *IO) bool {
	out, ok := io.Out.(*os.File)
	return StdinTerminal(io) && ok && term.IsTerminal(int(out.Fd()))
}

// ErrNoAnswer is the answer of a terminal closed before one was given.
var ErrNoAnswer = errors.New("no answer (the terminal closed): nothing changed")

// Line asks question and reads one answer, trimmed.
func (q *Prompter) Line(question string) (string, error) {
	fmt.Fprint(q.Out.Out, question)
	s, err := q.in.ReadString('\n')
	if err != nil && s == "" {
		fmt.Fprintln(q.Out.Out)
		return "", ErrNoAnswer
	}
	return strings.TrimSpace(s), nil
}

// Yes asks a yes-or-no question whose default is no.
func (q *Prompter) Yes(question string) bool {
	s, err := q.Line(question)
	if err != nil {
		return false
	}
	switch strings.ToLower(s) {
	case "y", "yes":
		return true
	}
	return false
}
