package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/atreides-dev/atreides/internal/install"
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

func newMCPCmd(io *IO) *cobra.Command {
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

func (o *mcpOptions) run(io *IO) error {
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("cannot find the atreides binary: %w", err)
	}
	if r, err := filepath.EvalSymlinks(self); err == nil {
		self = r
	}
	name := install.MCPBinary
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	bin := filepath.Join(filepath.Dir(self), name)
	if _, err := os.Stat(bin); err != nil {
		return fmt.Errorf("%s is not installed next to %s; build it with 'go build -o %s ./cmd/atreides-mcp' (it is a separate program so hooks stay fast)", name, self, bin)
	}
	cmd := exec.Command(bin, o.args...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = io.In, io.Out, io.Err
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return exitStatus(ee.ExitCode())
		}
		return fmt.Errorf("run %s: %w", bin, err)
	}
	return nil
}
