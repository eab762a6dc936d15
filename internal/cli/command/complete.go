package command

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/spf13/cobra"
)

// Dynamic completion: the values a shell offers for an argument or a
// flag that names something the project holds (sessions here; todo and
// task numbers beside their commands, in package work). Each is read as the list
// commands read it, never creating state, and a failure offers nothing:
// a completion has no place to say why.

// Completer answers a shell's completion of one argument or flag value.
type Completer func(io *IO) []string

// CompleteWith is a cobra completion function offering what c finds, as
// "value<TAB>description", and no file names.
func CompleteWith(io *IO, c Completer) cobra.CompletionFunc {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, cobra.ShellCompDirective) {
		return c(io), cobra.ShellCompDirectiveNoFileComp
	}
}

// SessionCompletions are the project's sessions by short id, the most
// recent first, each described by its host and the time of its last
// event.
func SessionCompletions(io *IO) []string {
	root, err := CwdRoot(io)
	if err != nil {
		return nil
	}
	refs, err := Sessions(context.Background(), root)
	if err != nil {
		return nil
	}
	slices.SortStableFunc(refs, func(a, b SessionRef) int { return b.Updated.Compare(a.Updated) })
	ids := make([]string, len(refs))
	for i, r := range refs {
		ids[i] = r.ID
	}
	n := state.ShortLen(ids)
	out := make([]string, 0, len(refs))
	for _, r := range refs {
		out = append(out, fmt.Sprintf("%s\t%s, last event %s", state.ShortID(r.ID, n), r.Host, r.Updated.Local().Format(time.DateTime)))
	}
	return out
}
