// Command atreides-mcp serves atreides's agent tools over MCP on stdio.
// It is a separate program from atreides so that the hook binary, started
// once per hook event, does not pay the MCP SDK's and net/http's package
// init; 'atreides mcp' runs it when it is installed next to atreides.
package main

import (
	"context"
	"fmt"
	"os"
	"runtime/debug"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	mcpserver "github.com/atreides-dev/atreides/internal/mcp"
	"github.com/atreides-dev/atreides/internal/project"
)

func main() {
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "atreides-mcp:", err)
		os.Exit(1)
	}
	root := project.Root(os.Getenv("CLAUDE_PROJECT_DIR"), cwd)
	version := "devel"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		version = bi.Main.Version
	}
	srv := mcpserver.New(root, os.Getenv, version)
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "atreides-mcp:", err)
		os.Exit(1)
	}
}
