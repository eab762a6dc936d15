package host

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMCPServersTooLarge: a configuration file over the bound is an
// error saying so, not a truncated text's parse error.
func TestMCPServersTooLarge(t *testing.T) {
	dir := t.TempDir()
	big := append([]byte(`{"mcpServers":{"a":{}},"pad":"`), bytes.Repeat([]byte("x"), maxMCPFile)...)
	if err := os.WriteFile(filepath.Join(dir, "big.json"), append(big, `"}`...), 0o644); err != nil {
		t.Fatal(err)
	}
	h := &Host{MCPConfig: []MCPSource{{Path: func(env Env) string { return Under(env.ProjectDir, "big.json") }, Key: "mcpServers"}}}
	_, known, err := h.MCPServers(Env{ProjectDir: dir})
	if !known || err == nil || !strings.Contains(err.Error(), "is over 4 MB") {
		t.Errorf("known %v, err %v; want an error saying the file is over the bound", known, err)
	}
}
