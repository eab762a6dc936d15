package view

// Every binary that reads records links the list of every feature's state
// key through here (the read model is in all of them: the hook binary,
// the MCP server, the dashboard): without it a record of an older encoding,
// decoded in full, would lose the groups of features no handler had used
// yet. Its one line of package init hands the list to package state.
import _ "github.com/atreides-dev/atreides/internal/statekeys"
