package intent

import (
	"fmt"
	"strconv"
	"strings"
)

// summaryLine is one line of an intent's summary and how long it is kept
// when the summary must be cut: the line of the highest keep goes last.
type summaryLine struct {
	text string
	keep int
	head bool // a list's title, which goes with its last item
}

// What is kept longest when a summary is cut: the title, then the scope
// (where the agent may write), then the acceptance criteria (what done
// means: an agent that lost them after a compaction declares victory
// early), then the goal, and the constraints and the owner first out.
const (
	keepOwner = iota
	keepConstraint
	keepGoal
	keepAcceptance
	keepScope
	keepTitle
)

// SummaryWithin is Summary cut to max bytes (0: not cut) by whole lines,
// dropping the least kept first and, within a kind, the last first, and
// saying what was left out. Lines keep their order.
func (in *Intent) SummaryWithin(max int) string {
	lines := in.summaryLines()
	out := joinLines(lines)
	if max <= 0 || len(out) <= max {
		return out
	}
	note := func(n int) string {
		return fmt.Sprintf("(%d line(s) left out to fit; all of it: `atreides intent show %s`)", n, in.ID)
	}
	dropped := 0
	for len(out)+len(note(dropped+1))+1 > max {
		i := leastKept(lines)
		if i < 0 {
			break
		}
		lines = append(lines[:i], lines[i+1:]...)
		dropped++
		if i > 0 && lines[i-1].head && (i == len(lines) || lines[i].keep != lines[i-1].keep) {
			lines = append(lines[:i-1], lines[i:]...) // its last item went
			dropped++
		}
		out = joinLines(lines)
	}
	return out + "\n" + note(dropped)
}

// leastKept is the index of the line to drop next, -1 when only the
// title is left.
func leastKept(lines []summaryLine) int {
	best := -1
	for i, l := range lines {
		if l.keep == keepTitle {
			continue
		}
		if best < 0 || l.keep <= lines[best].keep {
			best = i
		}
	}
	return best
}

func (in *Intent) summaryLines() []summaryLine {
	lines := []summaryLine{{fmt.Sprintf("Intent %s: %s", in.ID, in.Title), keepTitle, false}}
	if in.Goal != "" {
		lines = append(lines, summaryLine{"Goal: " + in.Goal, keepGoal, false})
	}
	lines = append(lines, summaryLine{"Owned scope (you may write only here): " + strings.Join(in.Scope, ", "), keepScope, false})
	list := func(title string, items []string, keep int) {
		if len(items) == 0 {
			return
		}
		lines = append(lines, summaryLine{title + ":", keep, true})
		for i, s := range items {
			lines = append(lines, summaryLine{"  " + strconv.Itoa(i+1) + ". " + s, keep, false})
		}
	}
	list("Constraints", in.Constraints, keepConstraint)
	list("Acceptance criteria", in.Acceptance, keepAcceptance)
	if in.Owner != "" {
		lines = append(lines, summaryLine{"Owner: " + in.Owner, keepOwner, false})
	}
	return lines
}

func joinLines(lines []summaryLine) string {
	var b strings.Builder
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(l.text)
	}
	return b.String()
}
