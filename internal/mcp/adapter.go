package mcpserver

import (
	"context"
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/atreides-dev/atreides/internal/agenttools"
)

// AddTools serves atreides's agent tools (package agenttools) over MCP,
// each with its own JSON Schema. A tool's error is a tool result marked
// as an error, which the model reads and can act on, not a protocol
// error; env gives each call who is calling.
func AddTools(srv *mcp.Server, env func() *agenttools.Env, tools []agenttools.Tool) {
	for _, t := range tools {
		srv.AddTool(&mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: t.Schema},
			func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				args := req.Params.Arguments
				if len(args) == 0 {
					args = json.RawMessage(`{}`)
				}
				out, err := t.Call(ctx, env(), args)
				if err != nil {
					return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: err.Error()}}}, nil
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: out}}}, nil
			})
	}
}
