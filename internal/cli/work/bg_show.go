package work

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

// bgShowOptions are the arguments of 'atreides bg show'.
type bgShowOptions struct {
	id     string
	asJSON bool
}

func newBgShowCmd(io *command.IO) *cobra.Command {
	o := &bgShowOptions{}
	cmd := &cobra.Command{
		Use: "show <id>", Short: "show a background task and its result (an id, its number or its start)", Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.id = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print JSON for scripts")
	return cmd
}

func (o *bgShowOptions) run(io *command.IO) error {
	views, err := bgList(io)
	if err != nil {
		return err
	}
	ids, err := bgIDs(views, []string{o.id})
	if err != nil {
		return err
	}
	for _, v := range views {
		if v.ID != ids[0] {
			continue
		}
		if o.asJSON {
			return command.PrintJSON(io, v)
		}
		printBg(io, v, "")
		root, _ := command.CwdRoot(io)
		if res := background.ResultOf(root, v.ID, v.Summary); res != "" {
			fmt.Fprintf(io.Out, "\n%s\n", res)
		}
		fmt.Fprintf(io.Out, "\n%s\n", command.StyleOf(io).Dim("output: "+v.Output))
		return nil
	}
	return fmt.Errorf("no background task %s", o.id)
}
