package install

import (
	"encoding/json"
	"errors"
	"github.com/atreides-dev/atreides/internal/guard"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const testBin = "/opt/atreides/bin/atreides"

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func testdata(t *testing.T, name string) string {
	return string(readFile(t, filepath.Join("testdata", name)))
}

// settingsIn writes content (nil: no file) as <dir>/.claude/settings.json.
func settingsIn(t *testing.T, content *string, mode fs.FileMode) string {
	t.Helper()
	p := ClaudeSettingsPath(ScopeProject, t.TempDir(), "")
	if content != nil {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(*content), mode); err != nil {
			t.Fatal(err)
		}
		if err := os.Chmod(p, mode); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

func ptr(s string) *string { return &s }

// noTempFiles fails if a temp file was left next to the settings.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temp file left behind: %s", e.Name())
		}
	}
}

// oursPerEvent counts our handlers per event and checks ours is the last
// group of each list.
func oursPerEvent(t *testing.T, data []byte) map[string]int {
	t.Helper()
	doc, err := Parse(data)
	if err != nil {
		t.Fatalf("written settings do not parse: %v", err)
	}
	out := map[string]int{}
	for _, m := range doc.Get("hooks").Members() {
		out[m.Key] = countOurs(m.Value, isClaudeHandler)
	}
	return out
}

func TestClaudeSettingsPath(t *testing.T) {
	tests := []struct {
		scope Scope
		want  string
	}{
		{ScopeProject, "/p/.claude/settings.json"},
		{ScopeLocal, "/p/.claude/settings.local.json"},
		{ScopeUser, "/h/.claude/settings.json"},
		{Scope(9), ""},
	}
	for _, tt := range tests {
		if got := ClaudeSettingsPath(tt.scope, "/p", "/h"); got != tt.want {
			t.Errorf("%v: got %q want %q", tt.scope, got, tt.want)
		}
		if s, err := ParseScope(tt.scope.String()); tt.want != "" && (err != nil || s != tt.scope) {
			t.Errorf("ParseScope(%v) = %v, %v", tt.scope, s, err)
		}
	}
}

func TestInstallUninstallClaude(t *testing.T) {
	tests := []struct {
		name    string
		content *string // nil: no file
	}{
		{"missing file", nil},
		{"empty file", ptr("")},
		{"whitespace file", ptr("\n  \n")},
		{"empty object", ptr("{}\n")},
		{"empty object no newline", ptr("{}")},
		{"sample 01 (python indent=1)", ptr(testdata(t, "sample-01-indent1.json"))},
		{"sample 03 (one group per line)", ptr(testdata(t, "sample-03-mixed.json"))},
		{"sample 10 (compact)", ptr(testdata(t, "sample-10-compact.json"))},
		{"user file with own hooks, env, permissions, statusLine", ptr(testdata(t, "user-rich.json"))},
		{"only permissions, 4 spaces", ptr("{\n    \"permissions\": {\n        \"allow\": [\n            \"Bash(go test *)\"\n        ]\n    }\n}\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := settingsIn(t, tt.content, 0o640)
			backups := t.TempDir()
			r, err := InstallClaude(ClaudeOptions{SettingsPath: path, BinaryPath: testBin, BackupDir: backups})
			if err != nil {
				t.Fatalf("install: %v", err)
			}
			if r.Action != ActionInstalled || !slices.Equal(r.Added, DefaultClaudeEvents) || len(r.Updated)+len(r.Removed) != 0 {
				t.Errorf("report = %+v", r)
			}
			if r.Created != (tt.content == nil) {
				t.Errorf("Created = %v", r.Created)
			}
			first := readFile(t, path)
			for _, ev := range DefaultClaudeEvents {
				if n := oursPerEvent(t, first)[ev]; n != 1 {
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
				} else if b := readFile(t, r.Backup); string(b) != *tt.content {
					t.Errorf("backup content differs")
				}
				if bi, err := os.Stat(r.Backup); err != nil || bi.Mode().Perm() != 0o600 {
					t.Errorf("backup mode: %v %v", bi, err)
				}
			} else if r.Backup != "" {
				t.Errorf("backup %q for a new file", r.Backup)
			}
			noTempFiles(t, filepath.Dir(path))

			// Idempotent: same bytes, not even rewritten.
			before, _ := os.Stat(path)
			r2, err := InstallClaude(ClaudeOptions{SettingsPath: path, BinaryPath: testBin, BackupDir: backups})
			if err != nil {
				t.Fatalf("second install: %v", err)
			}
			if r2.Action != ActionUnchanged || r2.Backup != "" || len(r2.Added)+len(r2.Updated) != 0 {
				t.Errorf("second report = %+v", r2)
			}
			if got := readFile(t, path); string(got) != string(first) {
				t.Errorf("second install changed the file")
			}
			if after, _ := os.Stat(path); !after.ModTime().Equal(before.ModTime()) {
				t.Errorf("second install rewrote the file")
			}

			u, err := UninstallClaude(path, backups)
			if err != nil {
				t.Fatalf("uninstall: %v", err)
			}
			if removed := slices.Sorted(slices.Values(u.Removed)); u.Action != ActionRemoved || !slices.Equal(removed, slices.Sorted(slices.Values(DefaultClaudeEvents))) {
				t.Errorf("uninstall report = %+v", u)
			}
			if tt.content == nil {
				if _, err := os.Lstat(filepath.Dir(path)); err == nil {
					t.Errorf("uninstall left %s, which install created", filepath.Dir(path))
				}
				return
			}
			if got := readFile(t, path); string(got) != *tt.content {
				t.Errorf("uninstall did not restore the original bytes\n got: %q\nwant: %q", got, *tt.content)
			}
			noTempFiles(t, filepath.Dir(path))

			u2, err := UninstallClaude(path, backups)
			if err != nil || u2.Action != ActionNothingToDo || u2.Backup != "" {
				t.Errorf("second uninstall = %+v, %v", u2, err)
			}
		})
	}
}

func TestInstallClaudeHandlerShape(t *testing.T) {
	path := settingsIn(t, ptr(testdata(t, "user-rich.json")), 0o644)
	if _, err := InstallClaude(ClaudeOptions{SettingsPath: path, BinaryPath: "/home/me/my tools/atreides", TimeoutSeconds: 7}); err != nil {
		t.Fatal(err)
	}
	var s struct {
		Hooks map[string][]struct {
			Matcher *string `json:"matcher"`
			Hooks   []struct {
				Type    string  `json:"type"`
				Command string  `json:"command"`
				Timeout float64 `json:"timeout"`
			} `json:"hooks"`
		} `json:"hooks"`
	}
	if err := json.Unmarshal(readFile(t, path), &s); err != nil {
		t.Fatal(err)
	}
	judged := "^(Agent|Bash|Edit|Glob|Grep|LS|MultiEdit|NotebookEdit|Read|Task|TaskCreate|TaskUpdate|TodoWrite|WebFetch|WebSearch|Write)$|^mcp__"
	wantMatcher := map[string]string{"PreToolUse": judged, "PermissionRequest": judged, "PostToolUse": "*", "PostToolUseFailure": "*"}
	for _, ev := range DefaultClaudeEvents {
		groups := s.Hooks[ev]
		g := groups[len(groups)-1] // ours comes last
		m := ""
		if g.Matcher != nil {
			m = *g.Matcher
		}
		if m != wantMatcher[ev] {
			t.Errorf("%s matcher %q want %q", ev, m, wantMatcher[ev])
		}
		h := g.Hooks[0]
		if len(g.Hooks) != 1 || h.Type != "command" || h.Command != "'/home/me/my tools/atreides' hook claude --timeout 7" || h.Timeout != 7 {
			t.Errorf("%s handler %+v", ev, g.Hooks)
		}
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
	path := settingsIn(t, ptr(testdata(t, "user-rich.json")), 0o644)
	backups := t.TempDir()
	if _, err := InstallClaude(ClaudeOptions{SettingsPath: path, BinaryPath: testBin, BackupDir: backups}); err != nil {
		t.Fatal(err)
	}
	newBin := "/usr/local/lib/atreides v2/atreides"
	r, err := InstallClaude(ClaudeOptions{SettingsPath: path, BinaryPath: newBin, BackupDir: backups})
	if err != nil {
		t.Fatal(err)
	}
	if r.Action != ActionUpdated || !slices.Equal(r.Updated, DefaultClaudeEvents) || len(r.Added) != 0 {
		t.Errorf("report %+v", r)
	}
	data := readFile(t, path)
	if strings.Contains(string(data), testBin) {
		t.Error("old binary path still present")
	}
	for ev, n := range oursPerEvent(t, data) {
		if slices.Contains(DefaultClaudeEvents, ev) && n != 1 {
			t.Errorf("%s: %d handlers of ours", ev, n)
		}
	}
	// The backup holds the state before this install.
	if b := readFile(t, r.Backup); !strings.Contains(string(b), testBin) {
		t.Error("backup is not the previous content")
	}
	st, err := InspectClaude(path)
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
		opts    ClaudeOptions
		action  Action
		check   func(t *testing.T, doc *Node)
		added   []string
		updated []string
		removed []string
	}{
		{
			name:   "our handler shares a group with the user's: updated in place, matcher kept",
			in:     `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "lint.sh"}, ` + ours("/old/atreides") + `]}]}}`,
			opts:   ClaudeOptions{Events: []string{"PreToolUse"}},
			action: ActionUpdated, updated: []string{"PreToolUse"},
			check: func(t *testing.T, doc *Node) {
				groups := doc.Get("hooks").Get("PreToolUse").Elems()
				if len(groups) != 1 {
					t.Fatalf("groups: %d", len(groups))
				}
				if m, _ := groups[0].Get("matcher").Str(); m != "Bash" {
					t.Errorf("user matcher changed to %q", m)
				}
				hs := groups[0].Get("hooks").Elems()
				if c, _ := hs[1].Get("command").Str(); len(hs) != 2 || c != testBin+" hook claude --timeout 10" {
					t.Errorf("handlers: %s", groups[0].Encode(Format{}))
				}
			},
		},
		{
			name:   "duplicates of ours collapse to the first; emptied group dropped; user group kept",
			in:     `{"hooks": {"Stop": [{"hooks": [` + ours(testBin) + `]}, {"hooks": [{"type":"command","command":"say hi"}]}, {"hooks": [` + ours("'/x y/atreides'") + `]}]}}`,
			opts:   ClaudeOptions{Events: []string{"Stop"}},
			action: ActionUpdated, updated: []string{"Stop"},
			check: func(t *testing.T, doc *Node) {
				groups := doc.Get("hooks").Get("Stop").Elems()
				if len(groups) != 2 {
					t.Fatalf("want 2 groups, got %s", doc.Encode(Format{}))
				}
				if c, _ := groups[1].Get("hooks").Elems()[0].Get("command").Str(); c != "say hi" {
					t.Errorf("user group lost: %q", c)
				}
			},
		},
		{
			name:   "stale matcher on our own group is corrected",
			in:     `{"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [` + ours(testBin) + `]}]}}`,
			opts:   ClaudeOptions{Events: []string{"PostToolUse"}},
			action: ActionUpdated, updated: []string{"PostToolUse"},
			check: func(t *testing.T, doc *Node) {
				if m, _ := doc.Get("hooks").Get("PostToolUse").Elems()[0].Get("matcher").Str(); m != "*" {
					t.Errorf("matcher %q", m)
				}
			},
		},
		{
			name:   "events no longer wanted lose our handler, user's handlers stay",
			in:     `{"hooks": {"Notification": [{"hooks": [` + ours(testBin) + `]}], "Stop": [{"hooks": [` + ours(testBin) + `, {"type":"command","command":"say hi"}]}]}}`,
			opts:   ClaudeOptions{Events: []string{"SessionEnd"}},
			action: ActionUpdated, added: []string{"SessionEnd"}, removed: []string{"Notification", "Stop"},
			check: func(t *testing.T, doc *Node) {
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
			opts:   ClaudeOptions{Events: []string{"Stop"}},
			action: ActionUpdated, updated: []string{"Stop"},
			check: func(t *testing.T, doc *Node) {
				h := doc.Get("hooks").Get("Stop").Elems()[0].Get("hooks").Elems()[0]
				want := `{"type": "command", "command": "` + testBin + ` hook claude --timeout 10", "statusMessage": "guarding", "timeout": 10}`
				w, _ := Parse([]byte(want))
				if !Equal(h, w) {
					t.Errorf("got %s", h.Encode(Format{}))
				}
			},
		},
		{
			name:   "user-empty event list gets our group; other user-empty containers stay",
			in:     `{"hooks": {"Stop": [], "PreCompact": [{"hooks": []}]}}`,
			opts:   ClaudeOptions{Events: []string{"Stop"}},
			action: ActionInstalled, added: []string{"Stop"},
			check: func(t *testing.T, doc *Node) {
				if len(doc.Get("hooks").Get("PreCompact").Elems()) != 1 {
					t.Error("user's empty group removed")
				}
			},
		},
		{
			name:   "look-alikes are not ours",
			in:     `{"hooks": {"Stop": [{"hooks": [{"type": "command", "command": "/bin/atreides-dev hook claude"}, {"type": "command", "command": "/bin/atreides hook gemini"}, {"type": "command", "command": "/bin/atreides", "args": ["hook", "claude"]}, {"type": "http", "command": "/bin/atreides hook claude"}]}]}}`,
			opts:   ClaudeOptions{Events: []string{"Stop"}},
			action: ActionInstalled, added: []string{"Stop"},
			check: func(t *testing.T, doc *Node) {
				groups := doc.Get("hooks").Get("Stop").Elems()
				if len(groups) != 2 || len(groups[0].Get("hooks").Elems()) != 4 {
					t.Errorf("got %s", doc.Encode(Format{}))
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := settingsIn(t, &tt.in, 0o644)
			tt.opts.SettingsPath, tt.opts.BinaryPath = path, testBin
			r, err := InstallClaude(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			if r.Action != tt.action || !slices.Equal(r.Added, tt.added) || !slices.Equal(r.Updated, tt.updated) || !slices.Equal(r.Removed, tt.removed) {
				t.Errorf("report %+v", r)
			}
			doc, err := Parse(readFile(t, path))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, doc)
			if r2, err := InstallClaude(tt.opts); err != nil || r2.Action != ActionUnchanged {
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
		{"trailing comma (sample 08)", testdata(t, "sample-08-trailing-comma.json"), []string{"settings.json:1:114:", "trailing comma"}},
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
					_, err = InstallClaude(ClaudeOptions{SettingsPath: path, BinaryPath: testBin})
				} else {
					_, err = UninstallClaude(path, "")
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
				if got := readFile(t, path); string(got) != tt.in {
					t.Error("file modified")
				}
				ents, _ := os.ReadDir(filepath.Dir(path))
				if len(ents) != 1 {
					t.Errorf("extra files: %v", ents)
				}
				st, err := InspectClaude(path)
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
		opts ClaudeOptions
	}{
		{"no path", ClaudeOptions{BinaryPath: testBin}},
		{"relative binary", ClaudeOptions{SettingsPath: path, BinaryPath: "bin/atreides"}},
		{"binary not named atreides", ClaudeOptions{SettingsPath: path, BinaryPath: "/usr/bin/guard"}},
		{"negative timeout", ClaudeOptions{SettingsPath: path, BinaryPath: testBin, TimeoutSeconds: -1}},
		{"unknown event", ClaudeOptions{SettingsPath: path, BinaryPath: testBin, Events: []string{"FileChanged"}}},
		{"no events", ClaudeOptions{SettingsPath: path, BinaryPath: testBin, Events: []string{}}},
	}
	for _, tt := range tests {
		if _, err := InstallClaude(tt.opts); err == nil {
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
		{"empty file", ptr("")},
		{"no hooks", ptr(`{"env": {"A": "1"}}`)},
		{"user hooks only (compact, must stay compact)", ptr(testdata(t, "sample-10-compact.json"))},
		{"user left hooks empty", ptr("{\n  \"hooks\": {}\n}\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := settingsIn(t, tt.content, 0o644)
			r, err := UninstallClaude(path, "")
			if err != nil || r.Action != ActionNothingToDo || r.Backup != "" || len(r.Removed) != 0 {
				t.Fatalf("got %+v, %v", r, err)
			}
			if tt.content == nil {
				if _, err := os.Stat(filepath.Dir(path)); !errors.Is(err, fs.ErrNotExist) {
					t.Error("uninstall created .claude/")
				}
				return
			}
			if got := readFile(t, path); string(got) != *tt.content {
				t.Error("file changed")
			}
			noTempFiles(t, filepath.Dir(path))
		})
	}
}

func TestInstallClaudeRefusesReadOnly(t *testing.T) {
	path := settingsIn(t, ptr("{}\n"), 0o444)
	if _, err := InstallClaude(ClaudeOptions{SettingsPath: path, BinaryPath: testBin}); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("want a read-only error, got %v", err)
	}
	if got := readFile(t, path); string(got) != "{}\n" {
		t.Error("file modified")
	}
	noTempFiles(t, filepath.Dir(path))
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
	link := ClaudeSettingsPath(ScopeUser, "", dir)
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, err := InstallClaude(ClaudeOptions{SettingsPath: link, BinaryPath: testBin}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Fatal("symlink replaced by a file")
	}
	if !strings.Contains(string(readFile(t, real)), "hook claude") {
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
		{name: "no hooks", content: ptr(`{"model": "x"}`), exists: true},
		{
			name:    "partial install, duplicated, three binaries",
			content: ptr(`{"hooks": {"Stop": [` + h(exe) + `, ` + h(exe) + `], "PreToolUse": [` + h(noexec) + `], "SessionEnd": [` + h("/nope/atreides") + `], "PostToolUse": [` + h("$HOME/bin/atreides") + `]}}`),
			exists:  true, events: []string{"Stop", "PreToolUse", "SessionEnd", "PostToolUse"},
			missing:    []string{"SessionStart", "UserPromptSubmit", "PermissionRequest", "PostToolUseFailure", "SubagentStart", "SubagentStop", "PreCompact", "PostCompact"},
			duplicated: []string{"Stop"},
			bins:       map[string]string{exe: "", noexec: "is not executable", "/nope/atreides": "does not exist", "$HOME/bin/atreides": "depends on shell expansion; cannot be checked"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := settingsIn(t, tt.content, 0o644)
			st, err := InspectClaude(path)
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
	r, err := InstallClaude(ClaudeOptions{SettingsPath: path, BinaryPath: exe})
	if err != nil || len(r.Warnings) != 0 {
		t.Fatal(r, err)
	}
	st, err := InspectClaude(path)
	if err != nil || !st.Installed() || len(st.Binaries) != 1 || !st.Binaries[0].Executable {
		t.Errorf("after install: %+v %v", st, err)
	}
	if r, _ := InstallClaude(ClaudeOptions{SettingsPath: path, BinaryPath: "/nope/atreides"}); len(r.Warnings) != 1 {
		t.Errorf("want a warning for a missing binary: %+v", r)
	}
}

func TestReportJSONAndText(t *testing.T) {
	r := Report{Host: "claude", Path: "/p/.claude/settings.json", Action: ActionInstalled, Added: []string{"Stop"}, Backup: "/p/.atreides/backups/settings.json-0123456789ab.prev"}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	// Every key, lists as [] when empty: the same shape whatever happened.
	if want := `{"host":"claude","path":"/p/.claude/settings.json","action":"installed","created":false,"added":["Stop"],"updated":[],"removed":[],"backup":"/p/.atreides/backups/settings.json-0123456789ab.prev","warnings":[],"notes":[]}`; string(b) != want {
		t.Errorf("json %s", b)
	}
	if s := r.String(); !strings.Contains(s, "installed") || !strings.Contains(s, "added: Stop") || !strings.Contains(s, "backup") {
		t.Errorf("text %q", s)
	}
	if s := (Report{Path: "x", Action: ActionUnchanged}).String(); !strings.Contains(s, "already installed") {
		t.Errorf("text %q", s)
	}
}

func TestShellWords(t *testing.T) {
	quote := []struct{ in, want string }{
		{"/usr/local/bin/atreides", "/usr/local/bin/atreides"},
		{"/home/me/my tools/atreides", "'/home/me/my tools/atreides'"},
		{"/tmp/it's/atreides", `'/tmp/it'\''s/atreides'`},
		{"/a/$HOME/atreides", "'/a/$HOME/atreides'"},
		{`C:\Users\me\atreides.exe`, `'C:\Users\me\atreides.exe'`},
	}
	for _, tt := range quote {
		got := shellQuote(tt.in)
		if got != tt.want {
			t.Errorf("shellQuote(%q) = %q want %q", tt.in, got, tt.want)
		}
		if w, dyn, ok := guard.Argv(got + " hook claude"); !ok || len(w) != 3 || w[0] != tt.in || w[1] != "hook" || dyn {
			t.Errorf("Argv(quote(%q)) = %q %v %v", tt.in, w, dyn, ok)
		}
	}
	words := []struct {
		in, word string
		dynamic  bool
		ok       bool
	}{
		{`"/a b/atreides" hook claude`, "/a b/atreides", false, true},
		{`/a\ b/atreides hook`, "/a b/atreides", false, true},
		{`"$HOME/atreides" hook`, "$HOME/atreides", true, true},
		{`~/bin/atreides hook`, "~/bin/atreides", true, true},
		{`atreides;rm -rf /`, "atreides", false, true},
		{`'unterminated`, "", false, false},
		{`   `, "", false, false},
	}
	for _, tt := range words {
		w, dyn, ok := guard.Argv(tt.in)
		first := ""
		if len(w) > 0 {
			first = w[0]
		}
		if first != tt.word || dyn != tt.dynamic || ok != tt.ok {
			t.Errorf("Argv(%q) = %q %v %v", tt.in, w, dyn, ok)
		}
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
		{"relative to the project", ClaudeSettingsPath(ScopeProject, proj, ""), "tools/atreides", bin, ""},
		{"bare name through PATH", ClaudeSettingsPath(ScopeLocal, proj, ""), "atreides", bin, ""},
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
			st, err := InspectClaude(tt.path)
			if err != nil || len(st.Binaries) != 1 {
				t.Fatalf("%+v %v", st, err)
			}
			if b := st.Binaries[0]; b.Resolved != tt.resolved || b.Problem != tt.problem || b.Executable != (tt.problem == "") {
				t.Errorf("binary %+v", b)
			}
		})
	}
}
