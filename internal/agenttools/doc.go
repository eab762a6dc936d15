// Package agenttools holds the tools atreides gives the agent (selecting an
// intent, todos, the session's status, background tasks): their names,
// input schemas and behaviour, with no MCP or host protocol in them, so
// that one implementation serves every host. internal/mcp serves them
// over MCP (cmd/atreides-mcp); `atreides serve` relays them to the
// OpenCode plugin, which registers them as plugin tools.
//
// The agent is the caller, so its arguments are input, not authority:
// every argument has a size cap in its schema, checked before the tool
// runs (caps.go), and a write that would grow a state record past the
// store's limit fails with the store's error, leaving the record as it
// was. A session acts only on its own: background_output,
// background_cancel and a resume refuse another session's task.
//
// It must stay free of the MCP SDK and net/http: serve is the hook
// binary.
package agenttools
