package govern

import (
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// intentRequestsOptions are the flags of 'atreides intent requests'.
type intentRequestsOptions struct {
	asJSON bool
}

func newIntentRequestsCmd(io *command.IO) *cobra.Command {
	o := &intentRequestsOptions{}
	cmd := &cobra.Command{
		Use:   "requests",
		Short: "scope expansions agents asked for",
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON")
	return cmd
}

func (o *intentRequestsOptions) run(io *command.IO) error {
	p, err := command.ReadProject(io)
	if err != nil {
		return err
	}
	if o.asJSON {
		reqs := make([]view.ScopeRequest, 0, len(govstate.Key.Read(p).Expansions))
		for _, r := range govstate.Key.Read(p).Expansions {
			reqs = append(reqs, view.ScopeRequestOf(r))
		}
		return command.PrintJSON(io, reqs)
	}
	if len(govstate.Key.Read(p).Expansions) == 0 {
		fmt.Fprintln(io.Out, "no scope expansion requests")
		return nil
	}
	st := command.StyleOf(io)
	root, _ := command.CwdRoot(io) // found already, by ReadProject
	idLen := command.SessionShortLen(io, root)
	tb := command.NewTable(io, io.Out, "id", "status", "intent", "session", "paths", "reason").Flex(4, 5)
	for _, r := range govstate.Key.Read(p).Expansions {
		tb.AddPainted(command.NumberCell(io, r.ID), st.Bold).AddPainted(r.Status, st.Verdict).Add(r.Intent)
		tb.Add(command.IDCell(io, r.Session, idLen) + governance.From(p, r.Origin)).Add(strings.Join(r.Paths, ",")).Add(r.Reason).EndRow()
	}
	if err := tb.Render(); err != nil {
		return err
	}
	if !command.IsTTY(io) {
		return nil // piped: the rows alone, for scripts
	}
	for _, r := range govstate.Key.Read(p).Expansions {
		if r.Status == govstate.Pending {
			fmt.Fprintln(io.Out, "decide a pending request: atreides intent approve ID, or atreides intent deny ID")
			break
		}
	}
	return nil
}
