package cli

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

const anchorUsage = `anchor <add|list|rm> [args]

Anchors are decisions, constraints and facts that must survive context
compaction: after a compaction atreides re-injects them, critical first,
then by priority and freshness, within the memory budget. Anchors older
than session.memory.stale_hours are marked stale.

  atreides anchor add [--priority critical|high|medium|low] [--kind decision|constraint|fact] TEXT...
  atreides anchor list [--json]
  atreides anchor rm ID...

A prompt starting with "remember:", "decision:" or "constraint:" also
makes an anchor.`

func runAnchor(io *IO, args []string) error {
	if len(args) == 0 {
		return usagef("missing subcommand (add, list, rm)")
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "add":
		return anchorAdd(io, rest)
	case "list", "ls":
		return anchorList(io, rest)
	case "rm", "remove":
		return anchorRemove(io, rest)
	case "-h", "--help", "help":
		fmt.Fprintf(io.Err, "Usage: %s\n", anchorUsage)
		return nil
	}
	return usagef("unknown subcommand %q (add, list, rm)", sub)
}

func anchorAdd(io *IO, args []string) error {
	fs := newFlags(anchorUsage, io)
	priority := fs.String("priority", "medium", "critical, high, medium or low")
	kind := fs.String("kind", "fact", "decision, constraint or fact")
	if err := parse(fs, args); err != nil {
		return err
	}
	text := strings.TrimSpace(strings.Join(fs.Args(), " "))
	if text == "" {
		return usagef("anchor add needs text")
	}
	if _, err := state.ParsePriority(*priority); err != nil {
		return usagef("%v", err)
	}
	if _, err := state.ParseKind(*kind); err != nil {
		return usagef("%v", err)
	}
	var added state.Anchor
	err := updateProject(io, func(p *state.Project) error {
		a, err := p.AddAnchor(*kind, *priority, text, "", time.Now().UTC())
		added = a
		return err
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "added anchor #%d (%s %s): %s\n", added.ID, added.Priority, added.Kind, added.Text)
	return nil
}

func anchorList(io *IO, args []string) error {
	fs := newFlags(anchorUsage, io)
	asJSON := fs.Bool("json", false, "print JSON for scripts")
	if err := parse(fs, args); err != nil {
		return err
	}
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	p, err := loadProject(store.Open(project.StateDir(root)))
	if err != nil {
		return err
	}
	staleAfter := newSettings(root).session().StaleAfter
	views := anchorViews(p.Anchors, staleAfter, time.Now())
	if *asJSON {
		enc := json.NewEncoder(io.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(views)
	}
	if len(views) == 0 {
		fmt.Fprintln(io.Out, "no anchors")
		return nil
	}
	printAnchors(io, views, "")
	return nil
}

func anchorRemove(io *IO, args []string) error {
	if len(args) == 0 {
		return usagef("anchor rm needs at least one anchor id")
	}
	ids := make([]int, 0, len(args))
	for _, a := range args {
		id, err := strconv.Atoi(strings.TrimPrefix(a, "#"))
		if err != nil {
			return usagef("%q is not an anchor id", a)
		}
		ids = append(ids, id)
	}
	err := updateProject(io, func(p *state.Project) error {
		for _, id := range ids {
			if err := p.RemoveAnchor(id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	for _, id := range ids {
		fmt.Fprintf(io.Out, "anchor #%d: removed\n", id)
	}
	return nil
}

// anchorView is an anchor with its staleness, for list and status.
type anchorView struct {
	state.Anchor
	Stale bool   `json:"stale"`
	Age   string `json:"age"`
}

func anchorViews(as []state.Anchor, staleAfter time.Duration, now time.Time) []anchorView {
	out := make([]anchorView, 0, len(as))
	for _, a := range as {
		d := now.Sub(a.Created)
		out = append(out, anchorView{Anchor: a, Stale: d > staleAfter, Age: shortAge(d)})
	}
	return out
}

func printAnchors(io *IO, views []anchorView, indent string) {
	for _, v := range views {
		stale := ""
		if v.Stale {
			stale = ", stale"
		}
		fmt.Fprintf(io.Out, "%s#%d [%s] %s: %s (%s%s)\n", indent, v.ID, v.Priority, v.Kind, oneLine(v.Text, 100), v.Age, stale)
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
