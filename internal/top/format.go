package top

import (
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/sanitize"
	"github.com/charmbracelet/x/ansi"
)

// cell is s cut to w-1 columns and padded to w, its line breaks and tabs made
// spaces so a row stays a row (its own spacing kept: a cell may be a
// row's cells).
func cell(s string, w int) string {
	s = sanitize.Printable(strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		return r
	}, s))
	// One column stays blank, so that a cut cell never runs into the next.
	if ansi.StringWidth(s) > w-1 {
		s = ansi.Truncate(s, max(1, w-1), "…")
	}
	return s + strings.Repeat(" ", max(0, w-ansi.StringWidth(s)))
}

// oneLine folds a multi-line text (a command with a heredoc) onto one
// line, so a row stays a row, its other control characters escaped: the
// text is data (a title an agent wrote), never a command to the terminal.
func oneLine(s string) string {
	return sanitize.Printable(strings.Join(strings.Fields(s), " "))
}

// age is how long ago t was, in the largest whole unit: 3s, 4m, 2h, 5d.
func age(now, t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := max(0, now.Sub(t))
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	}
	return fmt.Sprintf("%dd", int(d.Hours()/24))
}

// clock is t's time of day in loc, with the date (month-day, the order
// of no locale in particular but unambiguous) when it is not today's.
func clock(now, t time.Time, loc *time.Location) string {
	if t.IsZero() {
		return "-"
	}
	t, now = t.In(loc), now.In(loc)
	if t.YearDay() == now.YearDay() && t.Year() == now.Year() {
		return t.Format("15:04:05")
	}
	return t.Format("01-02 15:04")
}

// contains: any of fields holds the filter, ignoring case.
func contains(filter string, fields ...string) bool {
	if filter == "" {
		return true
	}
	f := strings.ToLower(filter)
	for _, s := range fields {
		if strings.Contains(strings.ToLower(s), f) {
			return true
		}
	}
	return false
}

// relative shows the project's paths relative to its root: the rows are
// about one project, and its absolute path would fill them.
func relative(root, s string) string {
	if root == "" || root == "/" {
		return s
	}
	return strings.ReplaceAll(s, root+"/", "")
}

// plural is n and the noun, with an s unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// clockWidth is the width of a column of times: wider when one of them
// is not today's and so carries its date.
func clockWidth(now time.Time, loc *time.Location, times []time.Time) int {
	w := 9
	for _, t := range times {
		w = max(w, len(clock(now, t, loc))+1)
	}
	return w
}

// wrap breaks s into lines of at most w columns, at most n of them (the
// last cut with an ellipsis when more is left).
func wrap(s string, w, n int) []string {
	lines := strings.Split(ansi.Wrap(s, max(10, w), ""), "\n")
	if len(lines) > n {
		lines = lines[:n]
		lines[n-1] = ansi.Truncate(lines[n-1]+" …", max(10, w), "…")
	}
	return lines
}
