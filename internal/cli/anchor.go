package cli

import (
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/view"
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

// anchorStaleAfter is the age at which an anchor of the project at root
// is stale: session.memory.stale_hours, or its default.
func anchorStaleAfter(root string) time.Duration { return hook.NewSettings(root).Session().StaleAfter }

func printAnchors(io *IO, views []view.ProjectAnchor, indent string) {
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
