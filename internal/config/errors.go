package config

import (
	"cmp"
	"slices"
	"strconv"
	"strings"
)

// FieldError is one problem in a config file. File is empty for a problem
// in the built-in defaults; Line and Col are 1-based, 0 when unknown; Key
// is the printable path of the offending value, empty for a syntax error.
type FieldError struct {
	File      string
	Line, Col int
	Key       string
	Msg       string
}

// Error returns "file:line:col: key: msg", the form editors and terminals
// turn into links.
func (e FieldError) Error() string {
	var b strings.Builder
	if e.File == "" {
		b.WriteString("built-in defaults")
	} else {
		b.WriteString(e.File)
	}
	if e.Line > 0 {
		b.WriteString(":" + strconv.Itoa(e.Line))
		if e.Col > 0 {
			b.WriteString(":" + strconv.Itoa(e.Col))
		}
	}
	b.WriteString(": ")
	if e.Key != "" {
		b.WriteString(e.Key + ": ")
	}
	b.WriteString(e.Msg)
	return b.String()
}

// ValidationError lists every problem found in one config file, in file
// order. A file with problems contributes nothing to the merged config.
type ValidationError struct {
	Errs []FieldError
}

// Error returns one line per problem.
func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Errs))
	for i, fe := range e.Errs {
		lines[i] = fe.Error()
	}
	return strings.Join(lines, "\n")
}

func (e *ValidationError) sort() {
	slices.SortStableFunc(e.Errs, func(a, b FieldError) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}
