// Command mcpdump is a stdio MCP server with one tool, dump, whose result
// is one text block of 1500 numbered lines (72,000 bytes): a large MCP
// output for the output-cut scenario.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"strings"
)

type request struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		ProtocolVersion string `json:"protocolVersion"`
	} `json:"params"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 16<<20)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var r request
		if json.Unmarshal(in.Bytes(), &r) != nil || r.ID == nil {
			continue // a notification
		}
		var result any = map[string]any{}
		switch r.Method {
		case "initialize":
			result = map[string]any{
				"protocolVersion": r.Params.ProtocolVersion,
				"capabilities":    map[string]any{"tools": map[string]any{}},
				"serverInfo":      map[string]any{"name": "dump", "version": "1"},
			}
		case "tools/list":
			result = map[string]any{"tools": []any{map[string]any{
				"name": "dump", "description": "Dump the records.",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{}},
			}}}
		case "tools/call":
			var b strings.Builder
			for i := range 1500 {
				fmt.Fprintf(&b, "record %05d of the dump with some padding text\n", i)
			}
			result = map[string]any{"content": []any{map[string]any{"type": "text", "text": b.String()}}}
		}
		if err := out.Encode(map[string]any{"jsonrpc": "2.0", "id": r.ID, "result": result}); err != nil {
			os.Exit(1)
		}
	}
}
