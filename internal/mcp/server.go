// Package mcpserver serves atreides's agent tools (package agenttools) over
// MCP (stdio) with the official Go SDK; the tools' behaviour, schemas and
// session binding live in agenttools, so that the OpenCode plugin gets the
// same tools through `atreides serve`.
//
// It reads stdio itself (LineTransport): a line that is not one JSON-RPC
// message (not JSON, a batch, nested deeper than MaxDepth, longer than
// MaxLine) is answered with a JSON-RPC error and the next line is served,
// where the SDK's transport ends the session on the first such line.
//
// It is linked only into cmd/atreides-mcp, never into the hook binary: the
// SDK and net/http would add about 1.6 ms of package init to every hook
// call (see TestHookBinaryDoesNotLinkMCP).
package mcpserver

import (
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/atreides-dev/atreides/internal/agenttools"
	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
)

// New builds the MCP server for the project at root. host is the host that
// started the server (from `atreides-mcp --host <name>`, which install
// writes), "" when unknown: it decides how messages name the tools.
func New(root, host string, getenv func(string) string, version string) *mcp.Server {
	return newServer(root, host, getenv, version, agenttools.All())
}

// defaultHost is the host a caller is taken for when neither the server
// nor the session's record names one: Claude Code, the host whose MCP
// server knows its session.
const defaultHost = claude.Host

// newServer is New serving the given tools.
func newServer(root, host string, getenv func(string) string, version string, tools []agenttools.Tool) *mcp.Server {
	st := fleet.Open(root)
	log := project.NewLog(project.StateDir(root))
	st.OnRecover = func(msg string) { log.Logf("state store: %s", msg) }
	env := func() *agenttools.Env {
		// The session the environment names (Claude Code's), else the one
		// the host process's hooks bound this server to: read per call, as
		// a /clear starts another session in the same process.
		sess := ""
		if id, _ := state.EnvSession(getenv); id == "" {
			sess = background.BoundCaller(root)
		}
		return &agenttools.Env{
			Root: root, Store: st, Host: host, Session: sess, Named: true, Now: time.Now, Getenv: getenv, Logf: log.Logf,
			Hosts: all.Facts(), DefaultHost: defaultHost, Guard: all.Guard(), SkillDirs: all.SkillDirs(),
		}
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "atreides", Version: version}, nil)
	AddTools(srv, env, tools)
	return srv
}

// HostFromEnv recognises the host that started the server by what it puts
// in the server's environment (each host's markers in the registry);
// ATREIDES_HOST wins. Codex 0.169.0 gives its servers a fixed allowlist of
// variables, none its own, hence the --host flag install writes for it.
// "" when none is recognised or the markers disagree (a background task's
// headless CLI inherits its launcher's): the tools then take the host
// from the calling session.
func HostFromEnv(getenv func(string) string) string {
	if h := getenv("ATREIDES_HOST"); h != "" {
		return h
	}
	return all.FromEnv(getenv)
}
