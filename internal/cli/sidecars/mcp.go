package sidecars

import (
	"os/exec"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/companion"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/spf13/cobra"
)

const mcpAbout = `Serve atreides's agent tools over MCP on stdin/stdout (select_active_intent,
list_intents, request_scope_expansion, todo_add, todo_update, todo_list,
session_status, task_create, task_update_status, task_claim, task_ready,
error_record, phase_done, and the background tools). Runs the atreides-mcp program installed next to atreides,
passing it every argument (--host NAME: the host that starts it).`

// mcpOptions are the arguments 'atreides mcp' passes on to atreides-mcp.
type mcpOptions struct {
	args []string
}

func NewMCPCmd(io *command.IO) *cobra.Command {
	o := &mcpOptions{}
	return &cobra.Command{
		Use:   "mcp",
		Short: "serve the agent's tools over MCP (runs atreides-mcp)",
		Long:  mcpAbout,
		Args:  cobra.ArbitraryArgs,
		// Every argument, --host included, is atreides-mcp's.
		DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			o.args = args
			return o.run(io)
		},
	}
}

func (o *mcpOptions) run(io *command.IO) error {
	bin, err := companion.Ensure(guard.MCPBinary, "./cmd/atreides-mcp", io.Err)
	if err != nil {
		return err
	}
	cmd := exec.Command(bin, o.args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = io.In, io.Out, io.Err
	return command.RunExit(bin, cmd.Run())
}
