package codex

import (
	"path/filepath"
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
	hooktest.CheckRefusals(t, dir, []hooktest.Refusal{
		{Name: "codex unknown event", Err: hooktest.Err(Install(InstallOptions{HooksPath: filepath.Join(dir, "h.json"), BinaryPath: installtest.Bin, Events: []string{"Interrupt"}})), Want: `"Interrupt"`},
		{Name: "codex no path", Err: hooktest.Err(Install(InstallOptions{BinaryPath: installtest.Bin})), Want: "no hooks path"},
	})
}
