package mcpserver

import (
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/agenttools"
)

// TestPendingRepliesAfterInputCloses: a client that writes its requests
// and closes its end (`printf … | atreides mcp`, or a host that shuts
// down its writer first) still gets the answer of a call that was
// running when the input ended. On main the reply was dropped: the
// connection closed on EOF and the late write failed.
func TestPendingRepliesAfterInputCloses(t *testing.T) {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".atreides"), 0o755)
	release := make(chan struct{})
	slow := agenttools.Tool{Name: "slow", Description: "answers when released", Schema: json.RawMessage(`{"type":"object"}`),
		Call: func(ctx context.Context, _ *agenttools.Env, _ json.RawMessage) (string, error) {
			select {
			case <-release:
			case <-ctx.Done():
				return "", ctx.Err()
			}
			return "slow answer", nil
		}}
	srv := newServer(root, "claude", func(string) string { return "" }, "test", []agenttools.Tool{slow})
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"slow","arguments":{}}}`,
	}, "\n") + "\n"
	pr, pw := io.Pipe()
	out := &lockedBuffer{}
	done := make(chan error, 1)
	go func() { done <- srv.Run(context.Background(), &LineTransport{In: pr, Out: out}) }()
	go func() {
		_, _ = io.WriteString(pw, in)
		_ = pw.Close() // the input ends while call 2 runs
		time.Sleep(100 * time.Millisecond)
		close(release)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not end within 30 s of its input closing")
	}
	if !strings.Contains(out.String(), `"id":2`) || !strings.Contains(out.String(), "slow answer") {
		t.Errorf("the reply to call 2 is missing:\n%s", out.String())
	}
}

// lockedBuffer is an output the server's writers share.
type lockedBuffer struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
