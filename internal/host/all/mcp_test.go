package all

import (
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/host/codex"
	"github.com/atreides-dev/atreides/internal/host/copilot"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/host/kilo"
	"github.com/atreides-dev/atreides/internal/host/opencode"
	"github.com/atreides-dev/atreides/internal/host/qwen"
)

func put(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestMCPServers: each host's MCP servers are read from the files it
// keeps them in, the project's and the user's, comments and all; a host
// whose configuration atreides does not read says so (known false).
func TestMCPServers(t *testing.T) {
	for _, tc := range []struct {
		host    string
		project map[string]string
		home    map[string]string
		want    []string
	}{
		{claude.Host, map[string]string{".mcp.json": `{"mcpServers": {"lean-lsp": {}, "atreides": {}}}`},
			map[string]string{".claude.json": `{"projects": {}, "mcpServers": {"search": {}}}`}, []string{"atreides", "lean-lsp", "search"}},
		{gemini.Host, map[string]string{".gemini/settings.json": "{\n// mine\n\"mcpServers\": {\"lean-lsp\": {},},\n}"}, nil, []string{"lean-lsp"}},
		{copilot.Host, nil, map[string]string{".copilot/mcp-config.json": `{"mcpServers": {"atreides": {}, "lean-lsp": {}}}`}, []string{"atreides", "lean-lsp"}},
		{opencode.Host, map[string]string{"opencode.jsonc": `{"mcp": {"lean-lsp": {"type": "local"}}, // mine` + "\n}"},
			map[string]string{".config/opencode/opencode.json": `{"mcp": {"db": {}}}`}, []string{"db", "lean-lsp"}},
		{qwen.Host, nil, map[string]string{".qwen/settings.json": `{"mcpServers": {"db": {}}}`}, []string{"db"}},
		{codex.Host, map[string]string{".codex/config.toml": "[mcp_servers.lean-lsp]\ncommand = \"x\"\n"},
			map[string]string{".codex/config.toml": "model = \"m\"\n[mcp_servers.atreides]\ncommand = \"a\"\n"}, []string{"atreides", "lean-lsp"}},
	} {
		root, home := t.TempDir(), t.TempDir()
		for p, text := range tc.project {
			put(t, filepath.Join(root, p), text)
		}
		for p, text := range tc.home {
			put(t, filepath.Join(home, p), text)
		}
		got, known, err := MCPServers(tc.host, root, home, func(string) string { return "" })
		if err != nil || !known || !slices.Equal(got, tc.want) {
			t.Errorf("%s: %q %v %v, want %q", tc.host, got, known, err, tc.want)
		}
		if got, known, err := MCPServers(tc.host, t.TempDir(), t.TempDir(), func(string) string { return "" }); len(got) != 0 || !known || err != nil {
			t.Errorf("%s, no files: %q %v %v", tc.host, got, known, err)
		}
	}
	root := t.TempDir()
	put(t, filepath.Join(root, ".mcp.json"), "{not json")
	if _, _, err := MCPServers(claude.Host, root, "", func(string) string { return "" }); err == nil {
		t.Error("a broken .mcp.json: no error")
	}
	if _, known, _ := MCPServers(kilo.Host, root, "", func(string) string { return "" }); known {
		t.Error("kilo: known, but atreides reads no MCP configuration of it")
	}
	if _, known, _ := MCPServers("nosuch", root, "", nil); known {
		t.Error("an unknown host is known")
	}
}

// TestCalling: the calling host is found by its agent's marks, a
// wildcard mark included; none when no mark is set.
func TestCalling(t *testing.T) {
	if h := Calling([]string{"PATH=/bin", "CLAUDECODE=1"}); h == nil || h.Name != claude.Host {
		t.Errorf("claude: %v", h)
	}
	if h := Calling([]string{"CODEX_SANDBOX_X=seatbelt"}); h == nil || h.Name != codex.Host {
		t.Errorf("codex: %v", h)
	}
	if h := Calling([]string{"PATH=/bin", "CLAUDECODE="}); h != nil {
		t.Errorf("none: %v", h.Name)
	}
}
