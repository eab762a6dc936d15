package readme

import (
	"os"
	"path/filepath"
	"strings"
)

// check is what a block is meant to have done, recognised by a command
// the block runs.
type check struct {
	name       string // the channel, for the subtest's name
	marker     string // a block that contains this is checked
	needsHosts bool   // the pinned host CLIs must be on PATH
	check      func(s *scratch, version string)
}

// checks are the effects the README promises, per channel.
var checks = []check{
	{name: "npm", marker: "npm install -g @atreides-dev/atreides", check: atreidesOnPath},
	{name: "npx", marker: "npx -y @atreides-dev/atreides init", needsHosts: true, check: projectHasHooks},
	{name: "claude-plugin", marker: "claude plugin install atreides@atreides", needsHosts: true, check: claudeListsPlugin},
	{name: "gemini-extension", marker: "gemini extensions install", needsHosts: true, check: geminiListsExtension},
	{name: "release-archive", marker: "tar -x", check: programsSideBySide},
}

// checksFor is every check whose marker the block contains.
func checksFor(b block) []check {
	var out []check
	for _, c := range checks {
		if strings.Contains(b.script(), c.marker) {
			out = append(out, c)
		}
	}
	return out
}

// atreidesOnPath: `atreides version` on the user's PATH answers with the
// release's version.
func atreidesOnPath(s *scratch, version string) {
	s.t.Helper()
	if out := s.cmd("atreides", "version"); !strings.Contains(out, version) {
		s.t.Fatalf("atreides version = %q, want the release's %s", out, version)
	}
}

// programsSideBySide: atreides answers on PATH, and the folder it really
// lives in (through the link) holds all five programs, so the companions
// are found.
func programsSideBySide(s *scratch, version string) {
	s.t.Helper()
	atreidesOnPath(s, version)
	p, err := s.lookPath("atreides")
	if err != nil {
		s.t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		s.t.Fatal(err)
	}
	for _, prog := range []string{"atreides-mcp", "atreides-ui", "atreides-otel", "atreides-team"} {
		if _, err := os.Stat(filepath.Join(filepath.Dir(real), prog)); err != nil {
			s.t.Errorf("%s is not beside %s: %v", prog, real, err)
		}
	}
}

// projectHasHooks: the project's Claude Code settings run the atreides hook.
func projectHasHooks(s *scratch, _ string) {
	s.t.Helper()
	data, err := os.ReadFile(filepath.Join(s.project, ".claude", "settings.json"))
	if err != nil {
		s.t.Fatalf("the project has no Claude Code settings: %v", err)
	}
	if !strings.Contains(string(data), "atreides hook claude") {
		s.t.Fatalf(".claude/settings.json does not run the atreides hook:\n%s", data)
	}
}

// claudeListsPlugin: `claude plugin list` lists atreides from the atreides
// marketplace.
func claudeListsPlugin(s *scratch, _ string) {
	s.t.Helper()
	if out := s.cmd("claude", "plugin", "list"); !strings.Contains(out, "atreides@atreides") {
		s.t.Fatalf("claude plugin list does not list atreides@atreides:\n%s", out)
	}
}

// geminiListsExtension: `gemini extensions list` lists atreides.
func geminiListsExtension(s *scratch, _ string) {
	s.t.Helper()
	if out := s.cmd("gemini", "extensions", "list"); !strings.Contains(out, "atreides") {
		s.t.Fatalf("gemini extensions list does not list atreides:\n%s", out)
	}
}
