package codex

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/host/hosttest"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/install/hooktest"
	"github.com/atreides-dev/atreides/internal/install/installtest"
)

func TestCodexPaths(t *testing.T) {
	if got := Home("", "/h"); got != "/h/.codex" {
		t.Errorf("Home = %q", got)
	}
	if got := Home("/elsewhere", "/h"); got != "/elsewhere" {
		t.Errorf("Home with $CODEX_HOME = %q", got)
	}
	for sc, want := range map[install.Scope]string{
		install.ScopeUser:    "/h/.codex/hooks.json",
		install.ScopeProject: "/p/.codex/hooks.json",
		install.ScopeLocal:   "",
	} {
		if got := HooksPath(sc, "/p", "/h/.codex"); got != want {
			t.Errorf("%v: %q, want %q", sc, got, want)
		}
	}
}

func TestCodexEventsAndToolsMatchAdapter(t *testing.T) {
	codec.CheckHandles(t, DefaultEvents, "Bash")
	hosttest.CheckJudged(t, append(judgedTools, "mcp__github__create_issue"), NormalizeTool)
	// Rust's regex crate and RE2 agree here.
	hosttest.CheckMatcher(t, judgedMatcher(), map[string]bool{
		"Bash": true, "apply_patch": true, "spawn_agent": true, "mcp__github__create_issue": true,
		"BashOutput": false, "xapply_patch": false, "web_search": false, "view_image": false, "mcp_x": false,
	})
}

func TestInstallCodexHandlerShape(t *testing.T) {
	for _, tc := range []struct {
		timeout, wantDefault, wantEnd int
	}{
		{0, 10, 3},
		{2, 2, 2},
		{60, 60, 3},
	} {
		path := HooksPath(install.ScopeUser, "", t.TempDir())
		if _, err := Install(InstallOptions{HooksPath: path, BinaryPath: installtest.Bin, TimeoutSeconds: tc.timeout}); err != nil {
			t.Fatal(err)
		}
		hooktest.CheckShape(t, installtest.ReadFile(t, path), hooktest.Shape{
			Host: Host, Events: DefaultEvents, Fresh: true,
			Matcher: func(ev string) string {
				switch ev {
				case "PreToolUse", "PermissionRequest":
					return judgedMatcher()
				case "PostToolUse":
					return "*"
				}
				return ""
			},
			Handler: func(ev string) map[string]any {
				want := tc.wantDefault
				if ev == "SessionEnd" {
					want = tc.wantEnd
				}
				return map[string]any{"type": "command", "command": installtest.Bin + " hook codex --timeout " + fmt.Sprint(want), "timeout": float64(want)}
			},
		})
	}
}

// Install says how to trust the hooks (and the project) and never touches
// config.toml: the notes are the only way the user learns hooks are off.
func TestInstallCodexTrustNotes(t *testing.T) {
	dir := t.TempDir()
	user, err := Install(InstallOptions{HooksPath: HooksPath(install.ScopeUser, "", dir+"/home/.codex"), BinaryPath: installtest.Bin, Scope: install.ScopeUser})
	if err != nil {
		t.Fatal(err)
	}
	notes := strings.Join(user.Notes, "\n")
	for _, w := range []string{"/hooks", "--dangerously-bypass-hook-trust", "silently skips"} {
		if !strings.Contains(notes, w) {
			t.Errorf("user notes miss %q:\n%s", w, notes)
		}
	}
	if strings.Contains(notes, "trust_level") {
		t.Errorf("user scope notes mention project trust:\n%s", notes)
	}
	proj, err := Install(InstallOptions{HooksPath: HooksPath(install.ScopeProject, dir+"/proj", ""), BinaryPath: installtest.Bin, Scope: install.ScopeProject, ProjectDir: dir + "/proj"})
	if err != nil {
		t.Fatal(err)
	}
	notes = strings.Join(proj.Notes, "\n")
	if !strings.Contains(notes, `[projects."`+dir+`/proj"] trust_level = "trusted"`) || !strings.Contains(notes, "/hooks") {
		t.Errorf("project notes:\n%s", notes)
	}
	// Unchanged installs still say it: trust is the step people miss.
	again, err := Install(InstallOptions{HooksPath: HooksPath(install.ScopeUser, "", dir+"/home/.codex"), BinaryPath: installtest.Bin, Scope: install.ScopeUser})
	if err != nil || again.Action != install.ActionUnchanged || len(again.Notes) == 0 {
		t.Errorf("second install = %+v, %v", again, err)
	}
	b, _ := json.Marshal(again)
	if !strings.Contains(string(b), `"notes":[`) {
		t.Errorf("--json report lacks notes: %s", b)
	}
	if !strings.Contains(again.String(), "\n  note: ") {
		t.Errorf("text report lacks notes: %s", again)
	}
}
