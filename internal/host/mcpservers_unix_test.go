//go:build unix

package host

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestMCPServersFIFO: the project's MCP file is the agent's to make; a
// FIFO in its place is an error naming it, not an open that waits for a
// writer (delegate_task and 'task route' read it).
func TestMCPServersFIFO(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, ".mcp.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatalf("mkfifo: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "user.json"), []byte(`{"mcpServers":{"gopls":{}}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	h := &Host{MCPConfig: []MCPSource{
		{Path: func(env Env) string { return Under(env.ProjectDir, ".mcp.json") }, Key: "mcpServers"},
		{Path: func(env Env) string { return Under(env.ProjectDir, "user.json") }, Key: "mcpServers"},
	}}
	type answer struct {
		names []string
		err   error
	}
	done := make(chan answer, 1)
	go func() {
		names, _, err := h.MCPServers(Env{ProjectDir: dir})
		done <- answer{names, err}
	}()
	select {
	case a := <-done:
		if a.err == nil || !strings.Contains(a.err.Error(), fifo) {
			t.Errorf("a FIFO's error = %v, want one naming %s", a.err, fifo)
		}
		if len(a.names) != 1 || a.names[0] != "gopls" {
			t.Errorf("servers = %v, want the other file's [gopls]", a.names)
		}
	case <-time.After(10 * time.Second):
		// Unblock the open so the goroutine ends with the test.
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
		t.Fatal("reading the MCP servers waits on a FIFO in the project's .mcp.json")
	}
}
