package e2e

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/host/claude"
	"github.com/atreides-dev/atreides/internal/slash"
	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
)

// bundle is where a pinned host's built-in commands and agents can be
// read back from its package under test/e2e/hosts/node_modules, and how.
// Each extraction is the one its host's builtin.go names as its source;
// nil: the bundle does not make that list checkable (said there).
type bundle struct {
	host  string
	files []string // globs under node_modules; "**" is a whole tree
	// commands and agents read the names the bundle defines.
	commands, agents func(data []byte) []string
}

// Patterns of the bundles, each beginning with a literal so that the
// regexp package scans a binary of hundreds of MB quickly.
var (
	claudeCommandRes = []*regexp.Regexp{
		regexp.MustCompile(`type:"(?:local|local-jsx|prompt)",name:"([a-z][a-z0-9-]*)"`),
		regexp.MustCompile(`name:"([a-z][a-z0-9-]*)",type:"(?:local|local-jsx|prompt)"`),
		regexp.MustCompile(`\(\{name:"([a-z][a-z0-9-]*)",(?:readsOtherSessions|menuDescription|aliases|description)`),
		regexp.MustCompile(`pluginCommand:"([a-z][a-z0-9-]*)"`),
	}
	claudeAliasRe  = regexp.MustCompile(`type:"(?:local|local-jsx|prompt)",name:"([a-z-]*)",aliases:\[([^\]]*)\]`)
	claudeAgentRe  = regexp.MustCompile(`agentType:"([A-Za-z-]+)"[^}]{0,600}source:"built-in"`)
	quotedRe       = regexp.MustCompile(`"([a-z-]+)"`)
	builtinKind    = []byte(`kind: "built-in"`)
	objectNameRe   = regexp.MustCompile(`\n\s*name: "([a-z][a-z0-9:_-]*)"`)
	slashRe        = regexp.MustCompile(`slash:\{name:"([a-z-]+)"(?:,aliases:\[([^\]]*)\])?`)
	slashNameRe    = regexp.MustCompile(`slashName:"([a-z-]+)"(?:,slashAliases:\[([^\]]*)\])?`)
	serverCmdRe    = regexp.MustCompile(`=\{INIT:"init",([^}]*)\}`)
	nativeAgentRe  = regexp.MustCompile(`:\{name:"([a-z-]+)",(?:description|permission|mode):`)
	clineKeyRe     = regexp.MustCompile(`key:"/([a-z-]+)"`)
	clineCommandRe = regexp.MustCompile(`\{name:"([a-z-]+)",description:"[^"]*"(?:,preserveInput:!0)?\}`)
)

// groups is the first group of every match of each re, and every quoted
// name in the second group where there is one (a list of aliases).
func groups(data []byte, res ...*regexp.Regexp) []string {
	var out []string
	for _, re := range res {
		for _, m := range re.FindAllSubmatch(data, -1) {
			out = append(out, string(m[1]))
			if len(m) > 2 {
				for _, q := range quotedRe.FindAllSubmatch(m[2], -1) {
					out = append(out, string(q[1]))
				}
			}
		}
	}
	return out
}

// builtinObjects are the names of the command objects of kind "built-in"
// in a Gemini CLI or Qwen Code bundle: the last name: line before each,
// subcommands included.
func builtinObjects(data []byte) []string {
	var out []string
	for i := 0; ; {
		j := bytes.Index(data[i:], builtinKind)
		if j < 0 {
			return out
		}
		end := i + j
		ms := objectNameRe.FindAllSubmatch(data[max(0, end-1500):end], -1)
		if len(ms) > 0 {
			out = append(out, string(ms[len(ms)-1][1]))
		}
		i = end + len(builtinKind)
	}
}

// openCodeCommands are an OpenCode-based TUI's slash names and aliases
// and its server's commands.
func openCodeCommands(data []byte) []string {
	out := groups(data, slashRe, slashNameRe)
	if m := serverCmdRe.FindSubmatch(data); m != nil {
		out = append(out, "init")
		for _, q := range quotedRe.FindAllSubmatch(m[1], -1) {
			out = append(out, string(q[1]))
		}
	}
	return out
}

var bundles = []bundle{
	{host: "claude", files: []string{"@anthropic-ai/claude-code/bin/claude.exe"},
		commands: func(d []byte) []string {
			return append(groups(d, claudeCommandRes...), groups(d, claudeAliasRe)...)
		},
		agents: func(d []byte) []string { return groups(d, claudeAgentRe) }},
	{host: "gemini", files: []string{"@google/gemini-cli/bundle/*.js"}, commands: builtinObjects},
	{host: "qwen", files: []string{"@qwen-code/qwen-code/**"}, commands: builtinObjects},
	{host: "opencode", files: []string{"opencode-linux-x64/bin/opencode"}, commands: openCodeCommands,
		agents: func(d []byte) []string { return groups(d, nativeAgentRe) }},
	{host: "kilo", files: []string{"@kilocode/cli-linux-x64/bin/kilo"}, commands: openCodeCommands,
		agents: func(d []byte) []string { return groups(d, nativeAgentRe) }},
	{host: "cline", files: []string{"cline/bin/.cline"},
		commands: func(d []byte) []string { return groups(d, clineKeyRe, clineCommandRe) }},
	// Codex's compiled bundle keeps its strings without delimiters, and
	// Copilot's npm package holds a loader only: their lists are read by
	// hand (their builtin.go says from where); the names atreides installs
	// are still looked for in their bundles below.
	{host: "codex", files: []string{"@openai/codex-linux-x64/vendor/*/bin/codex"}},
	{host: "copilot", files: []string{"@github/copilot-linux-x64/copilot"}},
}

// bundleFiles are the files of a bundle's globs; "dir/**" is every .js
// file under dir outside nested node_modules.
func bundleFiles(root string, globs []string) ([]string, error) {
	var out []string
	for _, g := range globs {
		if dir, ok := strings.CutSuffix(g, "/**"); ok {
			err := filepath.WalkDir(filepath.Join(root, dir), func(p string, d fs.DirEntry, err error) error {
				switch {
				case err != nil:
					return err
				case d.IsDir() && d.Name() == "node_modules":
					return filepath.SkipDir
				case !d.IsDir() && strings.HasSuffix(p, ".js"):
					out = append(out, p)
				}
				return nil
			})
			if err != nil {
				return nil, err
			}
			continue
		}
		m, err := filepath.Glob(filepath.Join(root, g))
		if err != nil {
			return nil, err
		}
		out = append(out, m...)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no file matches %v under %s (run scripts/install-hosts)", globs, root)
	}
	return out, nil
}

// installedNames are every slash command and agent name atreides installs
// with the built-in configuration.
func installedNames(t *testing.T) []string {
	t.Helper()
	cmds, err := slash.All()
	if err != nil {
		t.Fatal(err)
	}
	roster, err := agents.FromConfig(config.Builtin().Agents)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, c := range cmds {
		out = append(out, c.HostName())
	}
	for _, a := range roster {
		out = append(out, a.HostName())
	}
	return out
}

// TestBuiltinsMatchBundles (issue 35): each pinned host's built-in
// commands and agents, read again from its bundle where the bundle makes
// that possible, are all in the host's lists (a version bump that adds
// one fails here, and TestNoShadowing then holds atreides's names against
// it), each extraction finds something (a pattern that stopped matching
// is not a silent pass), and no bundle holds a name atreides installs as
// a quoted string.
func TestBuiltinsMatchBundles(t *testing.T) {
	root := filepath.Join(repoRoot, "test", "e2e", "hosts", "node_modules")
	if _, err := os.Stat(root); err != nil {
		missing(t, fmt.Errorf("the pinned hosts are not installed: %w", err))
	}
	ours := installedNames(t)
	for _, b := range bundles {
		t.Run(b.host, func(t *testing.T) {
			h, ok := all.ByName(b.host)
			if !ok {
				t.Fatalf("no host %s", b.host)
			}
			files, err := bundleFiles(root, b.files)
			if err != nil {
				missing(t, err)
			}
			var cmds, agts []string
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if b.commands != nil {
					cmds = append(cmds, b.commands(data)...)
				}
				if b.agents != nil {
					agts = append(agts, b.agents(data)...)
				}
				for _, n := range ours {
					if bytes.Contains(data, []byte(`"`+n+`"`)) {
						t.Errorf("%s holds %q, a name atreides installs", f, n)
					}
				}
			}
			checkListed(t, b.host+" commands", b.commands != nil, cmds, h.Commands.Builtin)
			checkListed(t, b.host+" agents", b.agents != nil, agts, h.Agents.Builtin)
		})
	}
}

// checkListed fails on a name found in the bundle that the list lacks,
// and on an extraction that found nothing.
func checkListed(t *testing.T, what string, checked bool, found, list []string) {
	t.Helper()
	if !checked {
		return
	}
	if len(found) == 0 {
		t.Errorf("%s: the bundle yielded none: its pattern no longer matches", what)
	}
	slices.Sort(found)
	var unlisted []string
	for _, n := range slices.Compact(found) {
		if !host.IsBuiltin(list, n) {
			unlisted = append(unlisted, n)
		}
	}
	if len(unlisted) > 0 {
		t.Errorf("%s: the pinned bundle has built-ins the host's list (builtin.go) lacks: %s", what, strings.Join(unlisted, " "))
	}
}

// TestClaudeSeesAtreidesNames: after install, the pinned Claude Code
// lists atreides's commands and agents under the names atreides gives
// them (its init message's slash_commands and agents: /at-plan,
// atreides-explore), not its bare ones; and every other name it lists is
// in its built-in lists, so a built-in a new version adds fails here too.
func TestClaudeSeesAtreidesNames(t *testing.T) {
	requireAtreides(t)
	p := NewProject(t, fa.Script{Steps: []fa.Step{fa.Text("Hello.")}})
	p.InstallAtreides()
	res := p.RunClaude("say hello", RunOpts{})
	var init map[string]any
	for _, e := range res.Events {
		if e["type"] == "system" && e["subtype"] == "init" {
			init = e
			break
		}
	}
	if init == nil {
		t.Fatal("claude printed no init message")
	}
	h, _ := all.ByName(claude.Host)
	roster, err := agents.FromConfig(config.Builtin().Agents)
	if err != nil {
		t.Fatal(err)
	}
	ours := installedNames(t)
	check := func(key string, builtin []string, want func(string) bool) {
		raw, _ := init[key].([]any)
		listed := map[string]bool{}
		for _, v := range raw {
			n, _ := v.(string)
			listed[n] = true
			if !slices.Contains(ours, n) && !host.IsBuiltin(builtin, n) && !strings.HasPrefix(n, "__") {
				t.Errorf("%s: %q is neither atreides's nor in Claude Code's built-in list (builtin.go)", key, n)
			}
		}
		for _, n := range ours {
			if want(n) && !listed[n] {
				t.Errorf("%s lacks %q: %v", key, n, raw)
			}
		}
	}
	check("slash_commands", h.Commands.Builtin, func(n string) bool { return strings.HasPrefix(n, slash.NamePrefix) })
	// The lead agent is the session's identity: it gets no file.
	check("agents", h.Agents.Builtin, func(n string) bool {
		return slices.ContainsFunc(roster.Subagents(), func(a agents.Agent) bool { return a.HostName() == n })
	})
}
