package work

import (
	"fmt"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

func NewAnchorCmd(io *command.IO) *cobra.Command {
	return command.NewGroupCmd("anchor <subcommand>",
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

// priorityPaint is how an anchor's priority is painted: the urgent ones
// stand out.
func priorityPaint(st command.Style, priority string) func(string) string {
	switch priority {
	case "critical":
		return func(s string) string { return st.Paint(command.SGRRed, s) }
	case "high":
		return func(s string) string { return st.Paint(command.SGRYellow, s) }
	}
	return nil
}

func printAnchors(io *command.IO, views []view.ProjectAnchor, indent string) {
	st := command.StyleOf(io)
	for _, v := range views {
		stale := ""
		if v.Stale {
			stale = ", stale"
		}
		priority := v.Priority
		if paint := priorityPaint(st, priority); paint != nil {
			priority = paint(priority)
		}
		fmt.Fprintf(io.Out, "%s%s [%s] %s: %s %s\n", indent, st.Bold(fmt.Sprintf("#%d", v.ID)), priority, v.Kind, command.OneLine(v.Text, 100), st.Dim("("+v.Age+stale+")"))
	}
}
