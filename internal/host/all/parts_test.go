package all

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// lean leaves out every part besides the hooks (the guard preset's
// install).
const lean = host.PartMCP | host.PartAgents | host.PartCommands

// scratchEnv is an empty project and home under a new directory (root).
func scratchEnv(t *testing.T) (env host.Env, root string) {
	root = t.TempDir()
	env = host.Env{ProjectDir: filepath.Join(root, "proj"), Home: filepath.Join(root, "home"), Getenv: func(string) string { return "" }, LookPath: exec.LookPath}
	for _, d := range []string{env.ProjectDir, env.Home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return env, root
}

// relTree is tree with paths relative to root (and root in contents
// replaced), so that two scratch machines' trees compare.
func relTree(t *testing.T, env host.Env, root string) map[string]string {
	out := map[string]string{}
	for p, c := range tree(t, env, env.ProjectDir, env.Home) {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			t.Fatal(err)
		}
		out[rel] = strings.ReplaceAll(c, root, "<root>")
	}
	return out
}

// TestInstallParts: for every host and scope, an install that leaves the
// parts out writes the same files whether it comes first or after a
// whole install (which it then undoes: no agent, command or MCP entry
// stays), is idempotent, goes back to the whole install's files exactly,
// and uninstall leaves the tree as it was.
func TestInstallParts(t *testing.T) {
	self := fakeBin(t)
	roster, err := agents.FromConfig(config.Builtin().Agents)
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range All() {
		for _, scope := range h.Scopes {
			for _, skip := range []host.Part{lean, host.PartAgents | host.PartCommands} {
				t.Run(fmt.Sprintf("%s/%s/skip%d", h.Name, scope, skip), func(t *testing.T) {
					installParts(t, h, scope, self, roster, skip)
				})
			}
		}
	}
}

func installParts(t *testing.T, h *host.Host, scope install.Scope, self string, roster agents.Roster, skip host.Part) {
	bin, err := host.BinaryFor(scope, self, "")
	if err != nil {
		t.Fatal(err)
	}
	whole := host.Options{Scope: scope, Binary: bin, Roster: roster, SkillDirs: SkillDirs()}
	part := whole
	part.Skip = skip

	fresh, froot := scratchEnv(t)
	if _, err := h.Install(fresh, part); err != nil {
		t.Fatalf("lean install: %v", err)
	}
	want := relTree(t, fresh, froot)

	env, root := scratchEnv(t)
	before := relTree(t, env, root)
	if _, err := h.Install(env, whole); err != nil {
		t.Fatalf("install: %v", err)
	}
	full := relTree(t, env, root)
	if _, err := h.Install(env, part); err != nil {
		t.Fatalf("lean install after a whole one: %v", err)
	}
	if got := relTree(t, env, root); !mapsEqual(got, want) {
		t.Errorf("lean install after a whole one\n got: %q\nwant: %q", keys(got), keys(want))
	}
	if skip&host.PartMCP != 0 {
		for p, c := range want {
			if strings.Contains(c, "mcpServers") || strings.Contains(c, "mcp_servers") {
				t.Errorf("%s: an MCP server left after a lean install:\n%s", p, c)
			}
		}
	}
	if r, err := h.Install(env, part); err != nil || r.Action != install.ActionUnchanged {
		t.Errorf("second lean install: %+v, %v", r, err)
	}
	if _, err := h.Install(env, whole); err != nil {
		t.Fatal(err)
	}
	if got := relTree(t, env, root); !mapsEqual(got, full) {
		t.Errorf("whole install after a lean one\n got: %q\nwant: %q", keys(got), keys(full))
	}
	if _, err := h.Uninstall(env, scope); err != nil {
		t.Fatal(err)
	}
	if got := relTree(t, env, root); !mapsEqual(got, before) {
		t.Errorf("uninstall did not restore the tree: %q", keys(got))
	}
}

func keys(m map[string]string) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	return out
}
