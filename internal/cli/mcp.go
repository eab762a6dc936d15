package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/atreides-dev/atreides/internal/install"
)

const mcpUsage = `mcp

Serve atreides's agent tools over MCP on stdin/stdout (select_active_intent,
list_intents, request_scope_expansion, todo_add, todo_update, todo_list,
session_status). Runs the atreides-mcp program installed next to atreides.`

func runMCP(io *IO, args []string) error {
	fs := newFlags(mcpUsage, io)
	if err := parse(fs, args); err != nil {
		return err
	}
	self, err := os.Executable()
	if err != nil {
		return fmt.Errorf("mcp: cannot find the atreides binary: %w", err)
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
		return fmt.Errorf("mcp: %s is not installed next to %s; build it with 'go build -o %s ./cmd/atreides-mcp' (it is a separate program so hooks stay fast)", name, self, bin)
	}
	cmd := exec.Command(bin, fs.Args()...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = io.In, io.Out, io.Err
	if err := cmd.Run(); err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return exitStatus(ee.ExitCode())
		}
		return fmt.Errorf("mcp: %w", err)
	}
	return nil
}
