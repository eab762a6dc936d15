package agenttodos

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/todos"
)

// The checkboxes of the agent's replies (`- [ ] update the changelog`)
// are todos of this same list, with an id of their own ("box-3"): kept
// from the reply that wrote them until a later reply checks (`- [x]`) or
// cancels (`- [-]`, `- [~]`) them, so that a reply without the list ("All
// good, finished.") does not let the stop through with work still open.
// The stop gate's bounds (blocks only for progress, a few at most) keep
// a list the agent forgot from trapping it.

// BoxPrefix starts the id of a todo taken from a checkbox; a host's own
// per-item ids are numbers, so the two never meet.
const BoxPrefix = "box-"

// MaxBoxes bounds the boxes kept; the oldest closed ones go first, then
// the oldest.
const MaxBoxes = 50

// Box is one checkbox of a reply, its text and its mark.
type Box struct {
	Text   string
	Status string // todos.Pending, Completed or todos.Cancelled
}

// IsBox reports whether t was taken from a checkbox.
func (t Todo) IsBox() bool { return strings.HasPrefix(t.ID, BoxPrefix) }

// SyncBoxes applies one reply's checkboxes: a new unchecked box is added
// with the next id, a known one takes the box's mark (a box unchecked
// again reopens). A box is known by its text (case and blanks aside) or
// by the id it is written with ("box-3 …", as the stop gate lists it).
func (g *State) SyncBoxes(boxes []Box) {
	for _, b := range boxes {
		id, text := splitID(b.Text)
		i := g.findBox(id, text)
		switch {
		case i >= 0:
			g.Agent[i].Status = b.Status
		case b.Status == todos.Pending && text != "":
			g.Agent = append(g.Agent, Todo{ID: g.nextBoxID(), Content: text, Status: todos.Pending})
		}
	}
	g.trimBoxes()
}

// splitID takes a leading box id off a box's text.
func splitID(s string) (id, text string) {
	s = strings.TrimSpace(s)
	head, rest, _ := strings.Cut(s, " ")
	if strings.HasPrefix(head, BoxPrefix) || strings.HasPrefix(head, "#"+BoxPrefix) {
		return strings.TrimPrefix(head, "#"), strings.TrimSpace(rest)
	}
	return "", s
}

func (g *State) findBox(id, text string) int {
	key := boxKey(text)
	for i, t := range g.Agent {
		if t.IsBox() && (id != "" && t.ID == id || id == "" && boxKey(t.Content) == key) {
			return i
		}
	}
	return -1
}

func boxKey(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }

func (g *State) nextBoxID() string {
	n := 0
	for _, t := range g.Agent {
		if v, err := strconv.Atoi(strings.TrimPrefix(t.ID, BoxPrefix)); t.IsBox() && err == nil && v > n {
			n = v
		}
	}
	return fmt.Sprintf("%s%d", BoxPrefix, n+1)
}

// trimBoxes keeps at most MaxBoxes boxes, dropping closed ones first.
func (g *State) trimBoxes() {
	for g.countBoxes() > MaxBoxes {
		drop := -1
		for i, t := range g.Agent {
			if t.IsBox() && (drop < 0 || !t.Open() && g.Agent[drop].Open()) {
				drop = i
			}
		}
		g.Agent = append(g.Agent[:drop], g.Agent[drop+1:]...)
	}
}

func (g *State) countBoxes() int {
	n := 0
	for _, t := range g.Agent {
		if t.IsBox() {
			n++
		}
	}
	return n
}

// Completed is a checked box's status, the word the hosts' todo tools use.
const Completed = "completed"
