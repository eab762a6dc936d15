package cli

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
)

// MCPBinary is the MCP server's program, built from ./cmd/atreides-mcp and
// installed next to atreides. It is a separate program so that the hook
// binary links neither the MCP SDK nor net/http (their package init would
// cost every hook call about 1.6 ms).
const MCPBinary = "atreides-mcp"

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
	name := MCPBinary
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
