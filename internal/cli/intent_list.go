package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/spf13/cobra"
)

// intentListOptions are the flags of 'atreides intent list'.
type intentListOptions struct {
	asJSON bool
}

func newIntentListCmd(io *IO) *cobra.Command {
	o := &intentListOptions{}
	cmd := &cobra.Command{
		Use:   "list",
		Short: "intents, their status and holder",
		Args:  noArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON")
	return cmd
}

func (o *intentListOptions) run(io *IO) error {
	_, f, err := loadIntents(io)
	if err != nil {
		return err
	}
	p, _ := readProject(io)
	type row struct {
		intent.Intent
		Holder string    `json:"holder,omitempty"`
		Since  time.Time `json:"since,omitzero"`
	}
	var rows []row
	for _, in := range f.Intents {
		r := row{Intent: in}
		if p != nil {
			if l := p.Governance.Lock(in.ID); l != nil {
				r.Holder, r.Since = l.Session, l.Since
			}
		}
		rows = append(rows, r)
	}
	if o.asJSON {
		if rows == nil {
			rows = []row{}
		}
		enc := json.NewEncoder(io.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	if len(rows) == 0 {
		fmt.Fprintln(io.Out, "no intents (add one with 'atreides intent add')")
		return nil
	}
	for _, r := range rows {
		held := ""
		if r.Holder != "" {
			held = fmt.Sprintf("  [held by %s since %s]", r.Holder, r.Since.UTC().Format(time.RFC3339))
		}
		fmt.Fprintf(io.Out, "%-20s %-9s %s  (%s)%s\n", r.ID, r.Status, r.Title, strings.Join(r.Scope, ", "), held)
	}
	return nil
}
