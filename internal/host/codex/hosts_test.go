package codex

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/install/hooktest"
	"github.com/atreides-dev/atreides/internal/install/installtest"
)

// codexUnderTest is Codex's hook installer for the hosts' round-trip suite.
var codexUnderTest = hooktest.Host{
	Name:   Host,
	Events: DefaultEvents,
	Path: func(dir string) string {
		return HooksPath(install.ScopeUser, "", filepath.Join(dir, ".codex"))
	},
	Install: func(path, bin string) (install.Report, error) {
		return Install(InstallOptions{HooksPath: path, BinaryPath: bin, Scope: install.ScopeUser})
	},
	Uninstall: func(p string) (install.Report, error) { return Uninstall(p, "") },
	Inspect:   Inspect,
	UserFile: `{
    "hooks": {
        "PreToolUse": [
            {
                "matcher": "Bash",
                "hooks": [
                    {
                        "type": "command",
                        "command": "python3 ~/.codex/hooks/pre_tool_use.py",
                        "statusMessage": "Checking plan before Bash"
                    }
                ]
            }
        ],
        "Stop": [
            {
                "hooks": [
                    {
                        "type": "command",
                        "command": "/usr/bin/notify-send done",
                        "timeout": 30
                    }
                ]
            }
        ]
    }
}
`,
}

func TestInstallUninstall(t *testing.T) { hooktest.InstallUninstall(t, codexUnderTest) }

func TestRefusesBrokenJSON(t *testing.T) { hooktest.RefuseBrokenJSON(t, codexUnderTest) }

func TestOptionErrors(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		err  error
		want string
	}{
		{"codex unknown event", second(Install(InstallOptions{HooksPath: filepath.Join(dir, "h.json"), BinaryPath: installtest.Bin, Events: []string{"Interrupt"}})), `"Interrupt"`},
		{"codex no path", second(Install(InstallOptions{BinaryPath: installtest.Bin})), "no hooks path"},
	} {
		if tc.err == nil || !strings.Contains(tc.err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.name, tc.err, tc.want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files written on error: %v", ents)
	}
}

func second[T any](_ T, err error) error { return err }
