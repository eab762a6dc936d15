package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/atreides-dev/atreides/internal/agenttools"
)

// TestAddTools: a tool's schema reaches the client as written, its
// arguments reach the tool raw, and its error comes back as a tool error.
func TestAddTools(t *testing.T) {
	echo := agenttools.Tool{
		Name: "echo", Description: "say it back",
		Schema: json.RawMessage(`{"type":"object","properties":{"say":{"type":"string"}},"required":["say"]}`),
		Call: func(_ context.Context, env *agenttools.Env, args json.RawMessage) (string, error) {
			var in struct{ Say string }
			if err := json.Unmarshal(args, &in); err != nil {
				return "", err
			}
			if in.Say == "" {
				return "", errors.New("nothing to say")
			}
			return env.Host + ":" + in.Say, nil
		},
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "t"}, nil)
	AddTools(srv, func() *agenttools.Env { return &agenttools.Env{Host: "claude"} }, []agenttools.Tool{echo})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	if _, err := srv.Connect(ctx, st, nil); err != nil {
		t.Fatal(err)
	}
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	list, err := cs.ListTools(ctx, nil)
	if err != nil || len(list.Tools) != 1 {
		t.Fatalf("tools: %v %v", list, err)
	}
	if b, _ := json.Marshal(list.Tools[0].InputSchema); string(b) != `{"properties":{"say":{"type":"string"}},"required":["say"],"type":"object"}` {
		t.Errorf("schema = %s", b)
	}
	if got, isErr := call(t, cs, "echo", map[string]any{"say": "hi"}); got != "claude:hi" || isErr {
		t.Errorf("echo = %q %v", got, isErr)
	}
	if got, isErr := call(t, cs, "echo", map[string]any{"say": ""}); got != "nothing to say" || !isErr {
		t.Errorf("empty echo = %q %v", got, isErr)
	}
}
