package govern

import (
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

// intentListOptions are the flags of 'atreides intent list'.
type intentListOptions struct {
	asJSON bool
}

func newIntentListCmd(io *command.IO) *cobra.Command {
	o := &intentListOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "intents, their status and holder",
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON")
	return cmd
}

func (o *intentListOptions) run(io *command.IO) error {
	_, f, err := loadIntents(io)
	if err != nil {
		return err
	}
	p, _ := command.ReadProject(io)
	rows := make([]view.HeldIntent, 0, len(f.Intents))
	for _, in := range f.Intents {
		rows = append(rows, view.IntentOf(in, p))
	}
	if o.asJSON {
		return command.PrintJSON(io, rows)
	}
	if len(rows) == 0 {
		fmt.Fprintln(io.Out, "no intents (add one with 'atreides intent add')")
		return nil
	}
	st := command.StyleOf(io)
	tb := command.NewTable(io, io.Out, "id", "status", "title", "scope", "held").Flex(2, 3)
	for _, r := range rows {
		held := ""
		if r.Since != nil { // the project was read, and the intent is held
			from := governance.From(p, govstate.Key.Read(p).Lock(r.ID).Origin)
			held = fmt.Sprintf("by %s%s since %s", r.Holder, from, r.Since.UTC().Format(time.RFC3339))
		}
		tb.AddPainted(r.ID, st.Bold).AddPainted(r.Status, st.Verdict).Add(r.Title).Add(strings.Join(r.Scope, ", ")).Add(held).EndRow()
	}
	return tb.Render()
}
