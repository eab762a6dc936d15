package claude

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/host/codex"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/install/hooktest"
	"github.com/atreides-dev/atreides/internal/install/installtest"
)

// settingsIn writes content (nil: no file) as <dir>/.claude/settings.json.
func settingsIn(t *testing.T, content *string, mode fs.FileMode) string {
	t.Helper()
	p := SettingsPath(install.ScopeProject, t.TempDir(), "")
	installtest.WriteFile(t, p, content, mode)
	return p
}

func TestClaudeSettingsPath(t *testing.T) {
	tests := []struct {
		scope install.Scope
		want  string
	}{
		{install.ScopeProject, "/p/.claude/settings.json"},
		{install.ScopeLocal, "/p/.claude/settings.local.json"},
		{install.ScopeUser, "/h/.claude/settings.json"},
		{install.Scope(9), ""},
	}
	for _, tt := range tests {
		if got := SettingsPath(tt.scope, "/p", "/h"); got != tt.want {
			t.Errorf("%v: got %q want %q", tt.scope, got, tt.want)
		}
	}
}

// The events install registers, by default or on request, are the ones
// the adapter handles.
func TestClaudeEventsMatchAdapter(t *testing.T) {
	codec.CheckHandles(t, slices.Concat(DefaultEvents, optionalEvents), "Bash")
	if len(kinds()) != len(DefaultEvents)+len(optionalEvents) {
		t.Errorf("the adapter handles %d events, install %d", len(kinds()), len(DefaultEvents)+len(optionalEvents))
	}
}

func TestInstallUninstallClaude(t *testing.T) {
	tests := []struct {
		name    string
		content *string // nil: no file
	}{
		{"missing file", nil},
		{"empty file", installtest.Ptr("")},
		{"whitespace file", installtest.Ptr("\n  \n")},
		{"empty object", installtest.Ptr("{}\n")},
		{"empty object no newline", installtest.Ptr("{}")},
		{"sample 01 (python indent=1)", installtest.Ptr(installtest.Sample(t, "sample-01-indent1.json"))},
		{"sample 03 (one group per line)", installtest.Ptr(installtest.Sample(t, "sample-03-mixed.json"))},
		{"sample 10 (compact)", installtest.Ptr(installtest.Sample(t, "sample-10-compact.json"))},
		{"user file with own hooks, env, permissions, statusLine", installtest.Ptr(installtest.Sample(t, "user-rich.json"))},
		{"only permissions, 4 spaces", installtest.Ptr("{\n    \"permissions\": {\n        \"allow\": [\n            \"Bash(go test *)\"\n        ]\n    }\n}\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := settingsIn(t, tt.content, 0o640)
			backups := t.TempDir()
			r, err := Install(InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin, BackupDir: backups})
			if err != nil {
				t.Fatalf("install: %v", err)
			}
			if r.Action != install.ActionInstalled || !slices.Equal(r.Added, DefaultEvents) || len(r.Updated)+len(r.Removed) != 0 {
				t.Errorf("report = %+v", r)
			}
			if r.Created != (tt.content == nil) {
				t.Errorf("Created = %v", r.Created)
			}
			first := installtest.ReadFile(t, path)
			for _, ev := range DefaultEvents {
				if n := hooktest.CountOurs(t, Host, first)[ev]; n != 1 {
					t.Errorf("%s has %d handlers of ours", ev, n)
				}
			}
			fi, _ := os.Stat(path)
			wantMode := fs.FileMode(0o640)
			if tt.content == nil {
				wantMode = 0o644
			}
			if fi.Mode().Perm() != wantMode {
				t.Errorf("mode %v, want %v", fi.Mode().Perm(), wantMode)
			}
			if tt.content != nil {
				if filepath.Dir(r.Backup) != backups {
					t.Errorf("backup %q not in %s", r.Backup, backups)
				} else if b := installtest.ReadFile(t, r.Backup); string(b) != *tt.content {
					t.Errorf("backup content differs")
				}
				if bi, err := os.Stat(r.Backup); err != nil || bi.Mode().Perm() != 0o600 {
					t.Errorf("backup mode: %v %v", bi, err)
				}
			} else if r.Backup != "" {
				t.Errorf("backup %q for a new file", r.Backup)
			}
			installtest.NoTempFiles(t, filepath.Dir(path))

			// Idempotent: same bytes, not even rewritten.
			before, _ := os.Stat(path)
			r2, err := Install(InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin, BackupDir: backups})
			if err != nil {
				t.Fatalf("second install: %v", err)
			}
			if r2.Action != install.ActionUnchanged || r2.Backup != "" || len(r2.Added)+len(r2.Updated) != 0 {
				t.Errorf("second report = %+v", r2)
			}
			if got := installtest.ReadFile(t, path); string(got) != string(first) {
				t.Errorf("second install changed the file")
			}
			if after, _ := os.Stat(path); !after.ModTime().Equal(before.ModTime()) {
				t.Errorf("second install rewrote the file")
			}

			u, err := Uninstall(path, backups)
			if err != nil {
				t.Fatalf("uninstall: %v", err)
			}
			if removed := slices.Sorted(slices.Values(u.Removed)); u.Action != install.ActionRemoved || !slices.Equal(removed, slices.Sorted(slices.Values(DefaultEvents))) {
				t.Errorf("uninstall report = %+v", u)
			}
			if tt.content == nil {
				if _, err := os.Lstat(filepath.Dir(path)); err == nil {
					t.Errorf("uninstall left %s, which install created", filepath.Dir(path))
				}
				return
			}
			if got := installtest.ReadFile(t, path); string(got) != *tt.content {
				t.Errorf("uninstall did not restore the original bytes\n got: %q\nwant: %q", got, *tt.content)
			}
			installtest.NoTempFiles(t, filepath.Dir(path))

			u2, err := Uninstall(path, backups)
			if err != nil || u2.Action != install.ActionNothingToDo || u2.Backup != "" {
				t.Errorf("second uninstall = %+v, %v", u2, err)
			}
		})
	}
}

func TestInstallClaudeHandlerShape(t *testing.T) {
	path := settingsIn(t, installtest.Ptr(installtest.Sample(t, "user-rich.json")), 0o644)
	if _, err := Install(InstallOptions{SettingsPath: path, BinaryPath: "/home/me/my tools/atreides", TimeoutSeconds: 7}); err != nil {
		t.Fatal(err)
	}
	data := installtest.ReadFile(t, path)
	judged := "^(Agent|Bash|Edit|Glob|Grep|LS|MultiEdit|NotebookEdit|Read|Task|TaskCreate|TaskUpdate|TodoWrite|WebFetch|WebSearch|Write)$|^mcp__"
	wantMatcher := map[string]string{"PreToolUse": judged, "PermissionRequest": judged, "PostToolUse": "*", "PostToolUseFailure": "*"}
	hooktest.CheckShape(t, data, hooktest.Shape{
		Host: Host, Events: DefaultEvents,
		Matcher: func(ev string) string { return wantMatcher[ev] },
		Handler: func(string) map[string]any {
			return map[string]any{"type": "command", "command": "'/home/me/my tools/atreides' hook claude --timeout 7", "timeout": 7.0}
		},
	})
	var s struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	// The user's PreToolUse group is still first, untouched.
	if pre := s.Hooks["PreToolUse"]; len(pre) != 2 || *pre[0].Matcher != "Bash" {
		t.Errorf("user PreToolUse group moved: %+v", pre)
	}
	if len(s.Hooks["Notification"]) != 0 {
		t.Errorf("Notification touched: %+v", s.Hooks["Notification"])
	}
}

func TestInstallClaudeUpdatesInPlace(t *testing.T) {
	path := settingsIn(t, installtest.Ptr(installtest.Sample(t, "user-rich.json")), 0o644)
	backups := t.TempDir()
	if _, err := Install(InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin, BackupDir: backups}); err != nil {
		t.Fatal(err)
	}
	newBin := "/usr/local/lib/atreides v2/atreides"
	r, err := Install(InstallOptions{SettingsPath: path, BinaryPath: newBin, BackupDir: backups})
	if err != nil {
		t.Fatal(err)
	}
	if r.Action != install.ActionUpdated || !slices.Equal(r.Updated, DefaultEvents) || len(r.Added) != 0 {
		t.Errorf("report %+v", r)
	}
	data := installtest.ReadFile(t, path)
	if strings.Contains(string(data), installtest.Bin) {
		t.Error("old binary path still present")
	}
	for ev, n := range hooktest.CountOurs(t, Host, data) {
		if slices.Contains(DefaultEvents, ev) && n != 1 {
			t.Errorf("%s: %d handlers of ours", ev, n)
		}
	}
	// The backup holds the state before this install.
	if b := installtest.ReadFile(t, r.Backup); !strings.Contains(string(b), installtest.Bin) {
		t.Error("backup is not the previous content")
	}
	st, err := Inspect(path)
	if err != nil || len(st.Binaries) != 1 || st.Binaries[0].Command != newBin {
		t.Errorf("inspect after update: %+v %v", st, err)
	}
}

func TestInstallClaudeMergeCases(t *testing.T) {
	ours := func(bin string) string {
		return `{"type": "command", "command": "` + bin + ` hook claude", "timeout": 10}`
	}
	tests := []struct {
		name    string
		in      string
		opts    InstallOptions
		action  install.Action
		check   func(t *testing.T, doc *install.Node)
		added   []string
		updated []string
		removed []string
	}{
		{
			name:   "our handler shares a group with the user's: updated in place, matcher kept",
			in:     `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}, ` + ours("/old/atreides") + `]}]}}`,
			opts:   InstallOptions{Events: []string{"PreToolUse"}},
			action: install.ActionUpdated, updated: []string{"PreToolUse"},
			check: func(t *testing.T, doc *install.Node) {
				groups := doc.Get("hooks").Get("PreToolUse").Elems()
				if len(groups) != 1 {
					t.Fatalf("groups: %d", len(groups))
				}
				if m, _ := groups[0].Get("matcher").Str(); m != "Bash" {
					t.Errorf("user matcher changed to %q", m)
				}
				hs := groups[0].Get("hooks").Elems()
				if c, _ := hs[1].Get("command").Str(); len(hs) != 2 || c != installtest.Bin+" hook claude --timeout 10" {
					t.Errorf("handlers: %s", groups[0].Encode(install.Format{}))
				}
			},
		},
		{
			name:   "duplicates of ours collapse to the first; emptied group dropped; user group kept",
			in:     `{"hooks": {"Stop": [{"hooks": [` + ours(installtest.Bin) + `]}, {"hooks": [{"type":"command","command":"say hi"}]}, {"hooks": [` + ours("'/x y/atreides'") + `]}]}}`,
			opts:   InstallOptions{Events: []string{"Stop"}},
			action: install.ActionUpdated, updated: []string{"Stop"},
			check: func(t *testing.T, doc *install.Node) {
				groups := doc.Get("hooks").Get("Stop").Elems()
				if len(groups) != 2 {
					t.Fatalf("want 2 groups, got %s", doc.Encode(install.Format{}))
				}
				if c, _ := groups[1].Get("hooks").Elems()[0].Get("command").Str(); c != "say hi" {
					t.Errorf("user group lost: %q", c)
				}
			},
		},
		{
			name:   "stale matcher on our own group is corrected",
			in:     `{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [` + ours(installtest.Bin) + `]}]}}`,
			opts:   InstallOptions{Events: []string{"PostToolUse"}},
			action: install.ActionUpdated, updated: []string{"PostToolUse"},
			check: func(t *testing.T, doc *install.Node) {
				if m, _ := doc.Get("hooks").Get("PostToolUse").Elems()[0].Get("matcher").Str(); m != "*" {
					t.Errorf("matcher %q", m)
				}
			},
		},
		{
			name:   "events no longer wanted lose our handler, user's handlers stay",
			in:     `{"hooks": {"Notification": [{"hooks": [` + ours(installtest.Bin) + `]}], "Stop": [{"hooks": [` + ours(installtest.Bin) + `, {"type":"command","command":"say hi"}]}]}}`,
			opts:   InstallOptions{Events: []string{"SessionEnd"}},
			action: install.ActionUpdated, added: []string{"SessionEnd"}, removed: []string{"Notification", "Stop"},
			check: func(t *testing.T, doc *install.Node) {
				h := doc.Get("hooks")
				if h.Get("Notification") != nil {
					t.Error("emptied Notification kept")
				}
				if len(h.Get("Stop").Elems()) != 1 {
					t.Error("user Stop handler lost")
				}
			},
		},
		{
			name:   "extra keys the user added to our handler are kept",
			in:     `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/old/atreides hook claude", "statusMessage": "guarding"}]}]}}`,
			opts:   InstallOptions{Events: []string{"Stop"}},
			action: install.ActionUpdated, updated: []string{"Stop"},
			check: func(t *testing.T, doc *install.Node) {
				h := doc.Get("hooks").Get("Stop").Elems()[0].Get("hooks").Elems()[0]
				want := `{"type": "command", "command": "` + installtest.Bin + ` hook claude --timeout 10", "statusMessage": "guarding", "timeout": 10}`
				w, _ := install.Parse([]byte(want))
				if !install.Equal(h, w) {
					t.Errorf("got %s", h.Encode(install.Format{}))
				}
			},
		},
		{
			name:   "user-empty event list gets our group; other user-empty containers stay",
			in:     `{"hooks": {"Stop": [], "PreCompact": [{"hooks": []}]}}`,
			opts:   InstallOptions{Events: []string{"Stop"}},
			action: install.ActionInstalled, added: []string{"Stop"},
			check: func(t *testing.T, doc *install.Node) {
				if len(doc.Get("hooks").Get("PreCompact").Elems()) != 1 {
					t.Error("user's empty group removed")
				}
			},
		},
		{
			name:   "look-alikes are not ours",
			in:     `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/bin/atreides-dev hook claude"}, {"type": "command", "command": "/bin/atreides hook gemini"}, {"type": "command", "command": "/bin/atreides", "args": ["hook", "claude"]}, {"type": "http", "command": "/bin/atreides hook claude"}]}]}}`,
			opts:   InstallOptions{Events: []string{"Stop"}},
			action: install.ActionInstalled, added: []string{"Stop"},
			check: func(t *testing.T, doc *install.Node) {
				groups := doc.Get("hooks").Get("Stop").Elems()
				if len(groups) != 2 || len(groups[0].Get("hooks").Elems()) != 4 {
					t.Errorf("got %s", doc.Encode(install.Format{}))
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := settingsIn(t, &tt.in, 0o644)
			tt.opts.SettingsPath, tt.opts.BinaryPath = path, installtest.Bin
			r, err := Install(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.Action != tt.action || !slices.Equal(r.Added, tt.added) || !slices.Equal(r.Updated, tt.updated) || !slices.Equal(r.Removed, tt.removed) {
				t.Errorf("report %+v", r)
			}
			doc, err := install.Parse(installtest.ReadFile(t, path))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, doc)
			if r2, err := Install(tt.opts); err != nil || r2.Action != install.ActionUnchanged {
				t.Errorf("not idempotent: %+v %v", r2, err)
			}
		})
	}
}

func TestClaudeRefusesBadFiles(t *testing.T) {
	tests := []struct {
		name, in string
		want     []string // substrings of the error
	}{
		{"trailing comma (sample 08)", installtest.Sample(t, "sample-08-trailing-comma.json"), []string{"settings.json:1:114:", "trailing comma"}},
		{"comment", "{\n  // atreides\n  \"hooks\": {}\n}\n", []string{"settings.json:2:3:", "comments"}},
		{"top-level array", `[{"hooks": {}}]`, []string{"top-level value is a JSON array"}},
		{"hooks is a list", `{"hooks": []}`, []string{`"hooks" is a JSON array`}},
		{"event is an object", `{"hooks": {"Stop": {"hooks": []}}}`, []string{"hooks.Stop is a JSON object"}},
		{"duplicate hooks key", `{"hooks": {}, "hooks": {}}`, []string{`"hooks" appears 2 times`}},
		{"duplicate event", `{"hooks": {"Stop": [], "Stop": []}}`, []string{`"Stop" appears more than once`}},
	}
	for _, tt := range tests {
		for _, op := range []string{"install", "uninstall"} {
			if op == "uninstall" && strings.Contains(tt.name, "event is an object") {
				continue // uninstall leaves a malformed event alone: it cannot hold our handler
			}
			t.Run(op+"/"+tt.name, func(t *testing.T) {
				path := settingsIn(t, &tt.in, 0o600)
				var err error
				if op == "install" {
					_, err = Install(InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin})
				} else {
					_, err = Uninstall(path, "")
				}
				if err == nil {
					t.Fatal("want an error")
				}
				for _, w := range tt.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("error %q does not contain %q", err, w)
					}
				}
				if !strings.Contains(err.Error(), path) || !strings.Contains(err.Error(), "untouched") {
					t.Errorf("error %q should name the file and say it is untouched", err)
				}
				if got := installtest.ReadFile(t, path); string(got) != tt.in {
					t.Error("file modified")
				}
				ents, _ := os.ReadDir(filepath.Dir(path))
				if len(ents) != 1 {
					t.Errorf("extra files: %v", ents)
				}
				st, err := Inspect(path)
				if err != nil || st.Parses || !st.Exists || st.Problem == "" {
					t.Errorf("inspect = %+v, %v", st, err)
				}
			})
		}
	}
}

func TestInstallClaudeOptionErrors(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	tests := []struct {
		name string
		opts InstallOptions
	}{
		{"no path", InstallOptions{BinaryPath: installtest.Bin}},
		{"relative binary", InstallOptions{SettingsPath: path, BinaryPath: "bin/atreides"}},
		{"binary not named atreides", InstallOptions{SettingsPath: path, BinaryPath: "/usr/bin/guard"}},
		{"negative timeout", InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin, TimeoutSeconds: -1}},
		{"unknown event", InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin, Events: []string{"FileChanged"}}},
		{"no events", InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin, Events: []string{}}},
	}
	for _, tt := range tests {
		if _, err := Install(tt.opts); err == nil {
			t.Errorf("%s: want an error", tt.name)
		}
	}
	if _, err := os.Stat(path); !errors.Is(err, fs.ErrNotExist) {
		t.Error("a failed install created the file")
	}
}

func TestUninstallClaudeNothingToDo(t *testing.T) {
	tests := []struct {
		name    string
		content *string
	}{
		{"missing file", nil},
		{"empty file", installtest.Ptr("")},
		{"no hooks", installtest.Ptr(`{"env": {"A": "1"}}`)},
		{"user hooks only (compact, must stay compact)", installtest.Ptr(installtest.Sample(t, "sample-10-compact.json"))},
		{"user left hooks empty", installtest.Ptr("{\n  \"hooks\": {}\n}\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := settingsIn(t, tt.content, 0o644)
			r, err := Uninstall(path, "")
			if err != nil || r.Action != install.ActionNothingToDo || r.Backup != "" || len(r.Removed) != 0 {
				t.Fatalf("got %+v, %v", r, err)
			}
			if tt.content == nil {
				if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, fs.ErrNotExist) {
					t.Error("uninstall created .claude/")
				}
				return
			}
			if got := installtest.ReadFile(t, path); string(got) != *tt.content {
				t.Error("file changed")
			}
			installtest.NoTempFiles(t, filepath.Dir(path))
		})
	}
}

func TestInstallClaudeRefusesReadOnly(t *testing.T) {
	path := settingsIn(t, installtest.Ptr("{}\n"), 0o444)
	if _, err := Install(InstallOptions{SettingsPath: path, BinaryPath: installtest.Bin}); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("want a read-only error, got %v", err)
	}
	if got := installtest.ReadFile(t, path); string(got) != "{}\n" {
		t.Error("file modified")
	}
	installtest.NoTempFiles(t, filepath.Dir(path))
}

func TestInstallClaudeThroughSymlink(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "dotfiles", "claude-settings.json")
	if err := os.MkdirAll(filepath.Dir(real), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(real, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := SettingsPath(install.ScopeUser, "", dir)
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Install(InstallOptions{SettingsPath: link, BinaryPath: installtest.Bin}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("symlink replaced by a file")
	}
	if !strings.Contains(string(installtest.ReadFile(t, real)), "hook claude") {
		t.Error("link target not updated")
	}
	if fi, _ := os.Stat(real); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode().Perm())
	}
}

func TestInspectClaude(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "bin", "atreides")
	noexec := filepath.Join(dir, "noexec", "atreides")
	for p, mode := range map[string]fs.FileMode{exe: 0o755, noexec: 0o644} {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), mode); err != nil {
			t.Fatal(err)
		}
	}
	h := func(cmd string) string {
		b, _ := json.Marshal(cmd + " hook claude")
		return `{"hooks": [{"type": "command", "command": ` + string(b) + `}]}`
	}
	tests := []struct {
		name       string
		content    *string
		exists     bool
		events     []string
		missing    []string
		duplicated []string
		bins       map[string]string // command -> problem ("" = executable)
	}{
		{name: "missing file"},
		{name: "no hooks", content: installtest.Ptr(`{"model": "x"}`), exists: true},
		{
			name:    "partial install, duplicated, three binaries",
			content: installtest.Ptr(`{"hooks": {"Stop": [` + h(exe) + `, ` + h(exe) + `], "PreToolUse": [` + h(noexec) + `], "SessionEnd": [` + h("/nope/atreides") + `], "PostToolUse": [` + h("$HOME/bin/atreides") + `]}}`),
			exists:  true, events: []string{"Stop", "PreToolUse", "SessionEnd", "PostToolUse"},
			missing:    []string{"SessionStart", "UserPromptSubmit", "PermissionRequest", "PostToolUseFailure", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact"},
			duplicated: []string{"Stop"},
			bins:       map[string]string{exe: "", noexec: "is not executable", "/nope/atreides": "does not exist", "$HOME/bin/atreides": "depends on shell expansion; cannot be checked"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := settingsIn(t, tt.content, 0o644)
			st, err := Inspect(path)
			if err != nil {
				t.Fatal(err)
			}
			if st.Exists != tt.exists || st.Parses != tt.exists || st.Problem != "" {
				t.Errorf("status %+v", st)
			}
			if !slices.Equal(st.Events, tt.events) || !slices.Equal(st.Missing, tt.missing) || !slices.Equal(st.Duplicated, tt.duplicated) {
				t.Errorf("events %v missing %v duplicated %v", st.Events, st.Missing, st.Duplicated)
			}
			if len(st.Binaries) != len(tt.bins) {
				t.Errorf("binaries %+v", st.Binaries)
			}
			for _, b := range st.Binaries {
				want, ok := tt.bins[b.Command]
				if !ok || b.Problem != want || b.Executable != (want == "") {
					t.Errorf("binary %+v, want problem %q", b, want)
				}
			}
			if st.Installed() {
				t.Error("Installed() on a partial install")
			}
		})
	}

	// A full install with an existing binary is Installed.
	path := settingsIn(t, nil, 0)
	r, err := Install(InstallOptions{SettingsPath: path, BinaryPath: exe})
	if err != nil || len(r.Warnings) != 0 {
		t.Fatal(r, err)
	}
	st, err := Inspect(path)
	if err != nil || !st.Installed() || len(st.Binaries) != 1 || !st.Binaries[0].Executable {
		t.Errorf("after install: %+v %v", st, err)
	}
	if r, _ := Install(InstallOptions{SettingsPath: path, BinaryPath: "/nope/atreides"}); len(r.Warnings) != 1 {
		t.Errorf("want a warning for a missing binary: %+v", r)
	}
}

func TestInspectClaudeResolvesRelativeAndPATH(t *testing.T) {
	proj := t.TempDir()
	bin := filepath.Join(proj, "tools", "atreides")
	if err := os.MkdirAll(filepath.Dir(bin), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", filepath.Dir(bin))
	tests := []struct {
		name, path, cmd, resolved, problem string
	}{
		{"relative to the project", SettingsPath(install.ScopeProject, proj, ""), "tools/atreides", bin, ""},
		{"bare name through PATH", SettingsPath(install.ScopeLocal, proj, ""), "atreides", bin, ""},
		{"relative outside .claude", filepath.Join(proj, "other.json"), "tools/atreides", "", "relative path; cannot tell which directory it is relative to"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.MkdirAll(filepath.Dir(tt.path), 0o755); err != nil {
				t.Fatal(err)
			}
			content := `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "` + tt.cmd + ` hook claude"}]}]}}`
			if err := os.WriteFile(tt.path, []byte(content), 0o644); err != nil {
				t.Fatal(err)
			}
			st, err := Inspect(tt.path)
			if err != nil || len(st.Binaries) != 1 {
				t.Fatalf("%+v %v", st, err)
			}
			if b := st.Binaries[0]; b.Resolved != tt.resolved || b.Problem != tt.problem || b.Executable != (tt.problem == "") {
				t.Errorf("binary %+v", b)
			}
		})
	}
}

// Each installer recognises only its own host's handlers: installing
// Gemini's and Codex's hooks into one file (not a real layout, but the
// strongest check) leaves the other's alone.
func TestHostsRecogniseOnlyTheirOwnHandlers(t *testing.T) {
	path := filepath.Join(t.TempDir(), "hooks.json")
	bin := "/opt/atreides/bin/atreides"
	if _, err := codex.Install(codex.InstallOptions{HooksPath: path, BinaryPath: bin}); err != nil {
		t.Fatal(err)
	}
	codexOnly := installtest.ReadFile(t, path)
	if r, err := Install(InstallOptions{SettingsPath: path, BinaryPath: bin}); err != nil || r.Action != install.ActionInstalled || len(r.Updated) != 0 {
		t.Fatalf("claude install over codex hooks = %+v, %v", r, err)
	}
	if r, err := Uninstall(path, ""); err != nil || r.Action != install.ActionRemoved {
		t.Fatalf("claude uninstall = %+v, %v", r, err)
	}
	if got := installtest.ReadFile(t, path); string(got) != string(codexOnly) {
		t.Errorf("claude install+uninstall touched codex's handlers:\n%s", got)
	}
}
