package rulefiles

import (
	"context"
	"fmt"
	"github.com/atreides-dev/atreides/internal/config"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/store"
)

type testEnv struct{ logs []string }

func (e *testEnv) Logf(f string, a ...any) { e.logs = append(e.logs, fmt.Sprintf(f, a...)) }
func (e *testEnv) Now() time.Time          { return time.Unix(0, 0) }

// projectDir writes files (relative path: content) below a fresh root.
func projectDir(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for rel, content := range files {
		write(t, root, rel, content)
	}
	return root
}

func write(t testing.TB, root, rel, content string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// step is one hook process: a tool call and what its answer carries.
type step struct {
	host, tool string // host "" is gemini; tool "" is read
	path       string // relative to the root, or absolute
	cwd        string // relative to the root
	agent      string
	cmd        string            // a shell command (the tool is then shell)
	failed     bool              // the call failed
	edit       map[string]string // files written before the step
	want       []string          // markers in the carried context, in order
	none       []string          // markers that must not be there
}

// run plays the steps, each in a fresh engine and store on the same
// directory (one hook process each), and checks what each carried.
func run(t *testing.T, root string, o Options, steps []step) *testEnv {
	t.Helper()
	env := &testEnv{}
	dir := filepath.Join(t.TempDir(), ".atreides")
	for i, s := range steps {
		for rel, content := range s.edit {
			write(t, root, rel, content)
		}
		host, tool := s.host, event.ToolName(s.tool)
		if host == "" {
			host = "gemini"
		}
		if tool == "" {
			tool = event.Read
		}
		p := s.path
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		ev := &event.Event{Kind: event.PostTool, Host: host, Facts: testHosts[host], SessionID: "s", AgentID: s.agent,
			ProjectDir: root, Cwd: filepath.Join(root, s.cwd), ContextCap: 10000,
			Tool: event.Tool{Name: tool, Paths: []string{p}}, Time: time.Unix(int64(i), 0), Failed: s.failed}
		if s.cmd != "" {
			ev.Tool = event.Tool{Name: event.Shell, Command: s.cmd}
		}
		e := engine.New(engine.StoreLoader{Store: store.Open(dir)}, env, Handler(func() Options { return o }))
		got := e.Run(context.Background(), ev).ContextText()
		at := 0
		for _, w := range s.want {
			j := strings.Index(got[at:], w)
			if j < 0 {
				t.Errorf("step %d (%s %s): %q missing or out of order in:\n%s", i, s.host, s.path, w, got)
				break
			}
			at += j + len(w)
		}
		for _, w := range s.none {
			if strings.Contains(got, w) {
				t.Errorf("step %d (%s %s): %q should not be carried:\n%s", i, s.host, s.path, w, got)
			}
		}
		if len(s.want) == 0 && got != "" && s.none == nil {
			t.Errorf("step %d (%s %s): carried %q, want nothing", i, s.host, s.path, got)
		}
	}
	return env
}

var nested = map[string]string{
	"AGENTS.md":             "ROOT-RULES",
	"pkg/AGENTS.md":         "PKG-RULES",
	"pkg/a/AGENTS.md":       "PKGA-RULES",
	"pkg/a/x.go":            "package a",
	"pkg/a/y.go":            "package a",
	"pkg/b/z.go":            "package b",
	"pkg/a/deep/d/e.go":     "package d",
	"pkg/a/deep/AGENTS.md":  "DEEP-RULES",
	"other/AGENTS.md":       "OTHER-RULES",
	"other/CLAUDE.md":       "CLAUDE-RULES",
	"other/README.md":       "OTHER-README",
	"README.md":             "ROOT-README",
	"docs/guide/README.md":  "GUIDE-README",
	"docs/guide/install.md": "install",
}

func TestNested(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		opts  func(*Options)
		steps []step
	}{
		{name: "root first, once each, across processes", steps: []step{
			{path: "pkg/a/x.go", want: []string{"PKG-RULES", "PKGA-RULES"}, none: []string{"ROOT-RULES"}},
			{path: "pkg/a/y.go"},
			{path: "pkg/b/z.go"},
			{path: "pkg/a/deep/d/e.go", want: []string{"DEEP-RULES"}, none: []string{"PKG-RULES", "PKGA-RULES"}},
			{path: "pkg/a/x.go", tool: "edit"},
		}},
		{name: "a changed file comes again, alone", steps: []step{
			{path: "pkg/a/x.go", want: []string{"PKG-RULES", "PKGA-RULES"}},
			{path: "pkg/a/x.go", edit: map[string]string{"pkg/AGENTS.md": "PKG-RULES-V2"}, want: []string{"PKG-RULES-V2"}, none: []string{"PKGA-RULES"}},
			{path: "pkg/a/y.go"},
		}},
		{name: "each agent has its own context", steps: []step{
			{path: "pkg/a/x.go", agent: "sub", want: []string{"PKG-RULES", "PKGA-RULES"}},
			{path: "pkg/a/x.go", want: []string{"PKG-RULES", "PKGA-RULES"}},
			{path: "pkg/a/x.go", agent: "sub"},
		}},
		{name: "written and edited files bring their rules too", steps: []step{
			{path: "pkg/b/new.go", tool: "write", want: []string{"PKG-RULES"}},
			{path: "pkg/a/x.go", tool: "edit", want: []string{"PKGA-RULES"}, none: []string{"PKG-RULES"}},
		}},
		{name: "other tools, outside paths and the root's files bring nothing", steps: []step{
			{path: "pkg/a/x.go", tool: "shell"},
			{path: "pkg/a/x.go", tool: "search"},
			{path: "/etc/hostname"},
			{path: "README.md"},
		}},
		{name: "CLAUDE.md is never injected, README only when asked", steps: []step{
			{path: "other/x.go", want: []string{"OTHER-RULES"}, none: []string{"CLAUDE-RULES", "README"}},
		}},
		{name: "readme option", opts: func(o *Options) { o.Readme = true }, steps: []step{
			{path: "docs/guide/install.md", want: []string{"ROOT-README", "GUIDE-README"}},
			{path: "other/x.go", want: []string{"OTHER-RULES", "OTHER-README"}, none: []string{"ROOT-README"}},
		}},
		{name: "claude without CLAUDE.md loads nested AGENTS.md itself", steps: []step{
			{host: "claude", path: "pkg/a/x.go"},
		}},
		{name: "claude with CLAUDE.md does not", files: map[string]string{"CLAUDE.md": "c"}, steps: []step{
			{host: "claude", path: "pkg/a/x.go", want: []string{"PKG-RULES", "PKGA-RULES"}},
		}},
		{name: "opencode attaches nested AGENTS.md itself, not READMEs", opts: func(o *Options) { o.Readme = true }, steps: []step{
			{host: "opencode", path: "other/x.go", want: []string{"ROOT-README", "OTHER-README"}, none: []string{"OTHER-RULES"}},
		}},
		{name: "codex read the rules down to its working directory", steps: []step{
			{host: "codex", cwd: "pkg", path: "pkg/a/x.go", want: []string{"PKGA-RULES"}, none: []string{"PKG-RULES"}},
		}},
		{name: "another rules file name is injected on every host", files: map[string]string{"pkg/RULES.md": "PKG-OWN"},
			opts: func(o *Options) { o.File = "RULES.md" }, steps: []step{
				{host: "opencode", path: "pkg/a/x.go", want: []string{"PKG-OWN"}},
				{host: "claude", path: "pkg/a/x.go", agent: "sub", want: []string{"PKG-OWN"}},
			}},
		{name: "disabled", opts: func(o *Options) { o.Enabled = false }, steps: []step{
			{path: "pkg/a/x.go"},
		}},
		// Agents read files with the shell too (Codex's model cats them):
		// a plain reader's files bring their rules once per directory,
		// also on the hosts that attach nested rules to their own read
		// tool only; a write, a failed read and other programs do not.
		{name: "shell reads bring the rules, once", steps: []step{
			{host: "codex", cmd: "cat pkg/a/x.go", want: []string{"PKG-RULES", "PKGA-RULES"}, none: []string{"ROOT-RULES"}},
			{host: "codex", cmd: "head -n 5 pkg/a/y.go"},
			{host: "codex", cmd: "sed -n 1,9p pkg/b/z.go && nl pkg/a/deep/d/e.go", want: []string{"DEEP-RULES"}, none: []string{"PKG-RULES"}},
			{host: "codex", cmd: "echo x > other/new.go"},
			{host: "codex", cmd: "go vet ./other/..."},
		}},
		{name: "shell reads on hosts that attach nested rules to their read tool", steps: []step{
			{host: "claude", cmd: "cat pkg/a/x.go", want: []string{"PKG-RULES", "PKGA-RULES"}},
			{host: "opencode", cmd: "tail other/x.go", want: []string{"OTHER-RULES"}},
			{host: "gemini", cmd: "cat pkg/b/z.go", agent: "g", want: []string{"PKG-RULES"}},
		}},
		{name: "a failed shell read brings nothing", steps: []step{
			{host: "codex", cmd: "cat pkg/a/missing.go", failed: true},
		}},
		{name: "codex shell read below its working directory", steps: []step{
			{host: "codex", cwd: "pkg", cmd: "cat a/x.go", want: []string{"PKGA-RULES"}, none: []string{"PKG-RULES"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := projectDir(t, nested)
			for rel, c := range tt.files {
				write(t, root, rel, c)
			}
			o := FromConfig(config.Builtin())
			if tt.opts != nil {
				tt.opts(&o)
			}
			run(t, root, o, tt.steps)
		})
	}
}

// TestBudget: files are taken whole, parents first; one that does not fit
// what is left becomes a note, and comes once its parents are delivered;
// one larger than the budget is never read, only noted, once.
func TestBudget(t *testing.T) {
	big := strings.Repeat("B", 700)
	root := projectDir(t, map[string]string{
		"pkg/AGENTS.md":     "PKG " + strings.Repeat("p", 300),
		"pkg/a/AGENTS.md":   "PKGA " + strings.Repeat("a", 300),
		"pkg/a/x.go":        "package a",
		"huge/AGENTS.md":    big,
		"huge/x.go":         "x",
		"huge/in/AGENTS.md": "HUGE-IN",
	})
	o := FromConfig(config.Builtin())
	o.Budget = 500
	run(t, root, o, []step{
		{path: "pkg/a/x.go", want: []string{"PKG pp", "pkg/a/AGENTS.md (rules for files under pkg/a/, 305 bytes) was left out"}, none: []string{"PKGA aa"}},
		{path: "pkg/a/x.go", want: []string{"PKGA aa"}, none: []string{"PKG pp", "left out"}},
		{path: "huge/in/x.go", want: []string{"huge/AGENTS.md (rules for files under huge/, 700 bytes) was left out", "HUGE-IN"}, none: []string{"BBB"}},
		{path: "huge/x.go"},
	})
}

// TestLinks: a rules file reached through a link, or a link in place of
// one, is skipped and logged; nothing is read outside the project.
func TestLinks(t *testing.T) {
	outside := projectDir(t, map[string]string{"AGENTS.md": "OUTSIDE-RULES", "x.go": "x", "rules/go.md": "---\npaths: ['**/*.go']\n---\nOUTSIDE-COND"})
	root := projectDir(t, map[string]string{"real/x.go": "x", "real/AGENTS.md": "REAL-RULES"})
	for link, target := range map[string]string{
		"linked":             outside,
		"real/sub/AGENTS.md": filepath.Join(outside, "AGENTS.md"),
		".atreides/rules":    filepath.Join(outside, "rules"),
	} {
		p := filepath.Join(root, link)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	env := run(t, root, FromConfig(config.Builtin()), []step{
		{path: "linked/x.go"},
		{path: "real/sub/x.go", want: []string{"REAL-RULES"}, none: []string{"OUTSIDE"}},
	})
	logs := strings.Join(env.logs, "\n")
	for _, w := range []string{"linked/AGENTS.md skipped", "real/sub/AGENTS.md skipped"} {
		if !strings.Contains(logs, w) {
			t.Errorf("log lacks %q:\n%s", w, logs)
		}
	}
}

func TestConditional(t *testing.T) {
	files := map[string]string{
		".claude/rules/go.md":          "---\npaths:\n  - \"**/*.go\"\n---\nCLAUDE-GO",
		".claude/rules/general.md":     "CLAUDE-ALWAYS",
		".cursor/rules/ts.mdc":         "---\ndescription: TS\nglobs: *.ts,*.tsx\nalwaysApply: false\n---\nCURSOR-TS",
		".cursor/rules/always.mdc":     "---\nalwaysApply: true\n---\nCURSOR-ALWAYS",
		".cursor/rules/manual.mdc":     "---\ndescription: ask for me\nalwaysApply: false\n---\nCURSOR-MANUAL",
		".atreides/rules/sql.md":       "---\nglobs: [\"db/**/*.sql\", migrations/**]\n---\nATREIDES-SQL",
		".atreides/rules/empty.md":     "---\npaths: ['**']\n---\n",
		".atreides/rules/notes.txt":    "NOT-A-RULE",
		".atreides/rules/big.md":       "---\npaths: ['**/*.go']\n---\n" + strings.Repeat("G", 5000),
		"src/main.go":                  "package main",
		"web/app.tsx":                  "x",
		"db/schema/a.sql":              "x",
		"README.txt":                   "x",
		".claude/rules/sub/ignored.md": "SUBDIR",
	}
	tests := []struct {
		name  string
		steps []step
	}{
		{name: "globs match the files touched, once each", steps: []step{
			{path: "README.txt", want: []string{"CLAUDE-ALWAYS", "CURSOR-ALWAYS"}, none: []string{"CLAUDE-GO", "CURSOR-TS", "ATREIDES-SQL", "MANUAL", "NOT-A-RULE", "SUBDIR"}},
			{path: "src/main.go", want: []string{"big.md (rules for files matching **/*.go, 5000 bytes) was left out", "CLAUDE-GO"}, none: []string{"ALWAYS", "GGGG"}},
			{path: "web/app.tsx", tool: "write", want: []string{"CURSOR-TS"}},
			{path: "db/schema/a.sql", tool: "edit", want: []string{"ATREIDES-SQL"}},
			{path: "src/main.go"},
		}},
		{name: "claude code reads .claude/rules itself", steps: []step{
			{host: "claude", path: "src/main.go", want: []string{"CURSOR-ALWAYS"}, none: []string{"CLAUDE-GO", "CLAUDE-ALWAYS"}},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			run(t, projectDir(t, files), FromConfig(config.Builtin()), tt.steps)
		})
	}
}

func TestParseRule(t *testing.T) {
	tests := []struct {
		in     string
		globs  string
		always bool
		body   string
	}{
		{"plain text", "", true, "plain text"},
		{"---\npaths: src/**/*.go, cmd/**\n---\nbody", "src/**/*.go|cmd/**", false, "body"},
		{"---\npaths:\n  - 'a/**'\n  - b/*.go\n---\n\nbody\n", "a/**|b/*.go", false, "body"},
		{"---\nglobs: *.ts\n---\nbody", "*.ts", false, "body"},
		{"---\nglobs:\nalwaysApply: true\n---\nbody", "", true, "body"},
		{"---\nalwaysApply: false\n---\nbody", "", false, "body"},
		{"---\ndescription: x\n---\nbody", "", true, "body"},
		{"---\nglobs: ./src/*.c\n---", "src/*.c", false, ""},
		{"--- \nno end\n", "", true, "--- \nno end"},
		{"\ufeff---\r\nglobs: '*.py'\r\n---\r\nbody", "*.py", false, "body"},
	}
	for _, tt := range tests {
		r := parseRule([]byte(tt.in))
		if got := strings.Join(r.globs, "|"); got != tt.globs || r.always != tt.always || r.body != tt.body {
			t.Errorf("parseRule(%q) = globs %q always %v body %q; want %q %v %q", tt.in, got, r.always, r.body, tt.globs, tt.always, tt.body)
		}
	}
}

func TestLevels(t *testing.T) {
	for in, want := range map[string]string{".": ".", "a": ".|a", "a/b/c": ".|a|a/b|a/b/c"} {
		if got := strings.Join(levels(in), "|"); got != want {
			t.Errorf("levels(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzParseRule: any bytes parse without a panic; the globs are trimmed
// and never empty, and the body is part of the file.
func FuzzParseRule(f *testing.F) {
	f.Add([]byte("---\npaths: ['**/*.go']\n---\nbody"))
	f.Add([]byte("---\nglobs: *.ts, *.tsx\nalwaysApply: true\n---\n"))
	f.Add([]byte("---\n- [\n---\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r := parseRule(data)
		for _, g := range r.globs {
			if g == "" || strings.TrimSpace(g) != g {
				t.Fatalf("glob %q", g)
			}
		}
		if !strings.Contains(string(data), r.body) {
			t.Fatalf("body %q not in the file", r.body)
		}
	})
}
