package cli

import (
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/spf13/cobra"
)

func newAnchorCmd(io *IO) *cobra.Command {
	return newGroupCmd("anchor <subcommand>",
		"keep decisions, constraints and facts across compaction: add, list, rm",
		`Anchors are decisions, constraints and facts that must survive context
compaction: after a compaction atreides re-injects them, critical first,
then by priority and freshness, within the memory budget. Anchors older
than session.memory.stale_hours are marked stale.

A prompt starting with "remember:", "decision:" or "constraint:" also
makes an anchor.`,
		newAnchorAddCmd(io),
		newAnchorListCmd(io),
		newAnchorRmCmd(io),
	)
}

// anchorView is an anchor with its staleness, for list and status; it is
// also the anchor of --json (docs/json.md).
type anchorView struct {
	ID       int       `json:"id"`
	Kind     string    `json:"kind"`
	Priority string    `json:"priority"`
	Text     string    `json:"text"`
	Session  string    `json:"session"`
	Created  time.Time `json:"created"`
	Stale    bool      `json:"stale"`
	Age      string    `json:"age"`
}

// anchorStaleAfter is the age at which an anchor of the project at root
// is stale: session.memory.stale_hours, or its default.
func anchorStaleAfter(root string) time.Duration { return hook.NewSettings(root).Session().StaleAfter }

func anchorViewOf(a state.Anchor, staleAfter time.Duration, now time.Time) anchorView {
	d := now.Sub(a.Created)
	return anchorView{ID: a.ID, Kind: a.Kind, Priority: a.Priority, Text: a.Text, Session: a.Session, Created: a.Created,
		Stale: d > staleAfter, Age: shortAge(d)}
}

func anchorViews(as []state.Anchor, staleAfter time.Duration, now time.Time) []anchorView {
	out := make([]anchorView, 0, len(as))
	for _, a := range as {
		out = append(out, anchorViewOf(a, staleAfter, now))
	}
	return out
}

func printAnchors(io *IO, views []anchorView, indent string) {
	st := styleOf(io)
	for _, v := range views {
		stale := ""
		if v.Stale {
			stale = ", stale"
		}
		priority := v.Priority
		switch priority {
		case "critical":
			priority = st.paint(sgrRed, priority)
		case "high":
			priority = st.paint(sgrYellow, priority)
		}
		fmt.Fprintf(io.Out, "%s%s [%s] %s: %s %s\n", indent, st.bold(fmt.Sprintf("#%d", v.ID)), priority, v.Kind, oneLine(v.Text, 100), st.dim("("+v.Age+stale+")"))
	}
}

func shortAge(d time.Duration) string {
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}
