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

const usage = `Usage: atreides-mcp

Serve atreides's agent tools over MCP on stdin and stdout, for the
project of the current directory (or $CLAUDE_PROJECT_DIR). Agent hosts
start it from .mcp.json or their MCP settings; it takes no arguments.

  -h, --help     print this help
      --version  print the version
`

func main() {
	// Arguments are answered before stdin is touched: a person typing
	// 'atreides-mcp --help' must not be left waiting on an MCP handshake.
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case "-h", "--help", "help":
			fmt.Print(usage)
			return
		case "--version", "version":
			fmt.Println("atreides-mcp", version())
			return
		}
		fmt.Fprintf(os.Stderr, "atreides-mcp: unexpected argument %q\n%s", os.Args[1], usage)
		os.Exit(2)
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "atreides-mcp:", err)
		os.Exit(1)
	}
	root := project.Root(os.Getenv("CLAUDE_PROJECT_DIR"), cwd)
	srv := mcpserver.New(root, os.Getenv, version())
	if err := srv.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		fmt.Fprintln(os.Stderr, "atreides-mcp:", err)
		os.Exit(1)
	}
}

// version is the module version, or "devel" for a build from a checkout.
func version() string {
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "devel"
}
