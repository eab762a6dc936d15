package command

import "io"

// IO is where a command reads and writes.
type IO struct {
	In       io.Reader
	Out, Err io.Writer
	// Getenv and Getwd are swappable for tests.
	Getenv func(string) string
	Getwd  func() (string, error)
	// Color reports whether Out takes colour (style.go); nil means no.
	Color func() bool
}
