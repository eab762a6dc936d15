// Package agenttools holds the tools atreides gives the agent (selecting an
// intent, todos, the session's status, background tasks): their names,
// input schemas and behaviour, with no MCP or host protocol in them, so
// that one implementation serves every host. internal/mcp serves them
// over MCP (cmd/atreides-mcp); `atreides serve` relays them to the
// OpenCode plugin, which registers them as plugin tools.
//
// It must stay free of the MCP SDK and net/http: serve is the hook
// binary.
package agenttools
