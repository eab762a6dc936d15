// Command atreides-mcp serves atreides's agent tools over MCP on stdio.
// It is a separate program from atreides so that the hook binary, started
// once per hook event, does not pay the MCP SDK's and net/http's package
// init; 'atreides mcp' runs it when it is installed next to atreides.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/atreides-dev/atreides/internal/buildinfo"

	mcpserver "github.com/atreides-dev/atreides/internal/mcp"
	"github.com/atreides-dev/atreides/internal/project"
	// A team's project keeps its state in PostgreSQL (see atreides-team).
	_ "github.com/atreides-dev/atreides/internal/store/pgstore"
)

const usage = `Usage: atreides-mcp

Serve atreides's agent tools over MCP on stdin and stdout, for the
project of the current directory (or $CLAUDE_PROJECT_DIR). Agent hosts
start it from .mcp.json or their MCP settings.

      --host NAME  the host that starts it (claude, gemini, codex, opencode),
                   which decides how messages name the tools; without it the
                   host is recognised by its environment where it can be
  -h, --help       print this help
      --version    print the version
`

func main() {
	// Arguments are answered before stdin is touched: a person typing
	// 'atreides-mcp --help' must not be left waiting on an MCP handshake.
	host := ""
	for args := os.Args[1:]; len(args) > 0; args = args[1:] {
		switch args[0] {
		case "-h", "--help", "help":
			fmt.Print(usage)
			return
		case "--version", "version":
			fmt.Println(buildinfo.SummaryOf("atreides-mcp"))
			return
		case "--host":
			if len(args) > 1 {
				host, args = args[1], args[1:]
				continue
			}
		}
		fmt.Fprintf(os.Stderr, "atreides-mcp: unexpected argument %q\n%s", args[0], usage)
		os.Exit(2)
	}
	if host == "" {
		host = mcpserver.HostFromEnv(os.Getenv)
	}
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintln(os.Stderr, "atreides-mcp:", err)
		os.Exit(1)
	}
	root := project.Root(os.Getenv("CLAUDE_PROJECT_DIR"), cwd)
	if root == "" {
		// Started outside any project: the tools have no state to work on.
		if root, err = project.ForCommand(cwd); err != nil {
			fmt.Fprintln(os.Stderr, "atreides-mcp:", err)
			os.Exit(1)
		}
	}
	srv := mcpserver.New(root, host, os.Getenv, buildinfo.Version())
	if err := srv.Run(context.Background(), &mcpserver.LineTransport{In: os.Stdin, Out: os.Stdout}); err != nil {
		fmt.Fprintln(os.Stderr, "atreides-mcp:", err)
		os.Exit(1)
	}
}
