package install

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"
)

// MCPServerName is the name atreides's MCP server is registered under; the
// agent sees its tools as mcp__atreides__<tool>.
const MCPServerName = "atreides"

// MCPBinary is the MCP server program, which must sit next to atreides:
// `atreides mcp` runs it (it is separate so hooks never link the MCP SDK).
const MCPBinary = "atreides-mcp"

// ClaudeMCPPath is the project's .mcp.json, which Claude Code reads for
// project MCP servers.
//
// Verified with Claude Code 2.1.330 against the fake model server (see
// test/e2e/governance_test.go): a -p run starts the servers of .mcp.json
// with no approval setting (no enabledMcpjsonServers or
// enableAllProjectMcpServers needed; the init event lists the server with
// source "project"), and honours disabledMcpjsonServers. It does not read
// mcpServers from .claude/settings.json or settings.local.json; --mcp-config
// works but is per run. The tools are deferred (named in a system reminder,
// loaded through ToolSearch) but callable. Calling them still needs
// permission, and an allow rule for mcp__atreides in the committed
// .claude/settings.json is ignored (settings.local.json and the user's
// settings are honoured); atreides's PreToolUse hook therefore allows its
// own tools when governance is on (internal/governance). Interactive
// sessions ask once to approve a project server [docs].
func ClaudeMCPPath(projectDir string) string { return filepath.Join(projectDir, ".mcp.json") }

// InstallClaudeMCP registers `<bin> mcp` as the "atreides" server in a
// .mcp.json, keeping every other server and key as it was. It registers
// nothing when atreides-mcp is missing next to bin, and says so: a server
// that cannot start is worse than none.
func InstallClaudeMCP(path, bin, backupDir string) (Report, error) {
	r := Report{Host: "claude", Path: path}
	if err := checkBinaryPath(bin); err != nil {
		return r, err
	}
	if p := MCPBinaryProblem(bin); p != "" {
		r.Action = ActionUnchanged
		r.Notes = append(r.Notes, "MCP tools not registered: "+p)
		return r, nil
	}
	f, err := loadSettings(path, false, backupDir)
	if err != nil {
		return r, err
	}
	r.Created = !f.exists
	servers, err := mcpServers(f.doc, true)
	if err != nil {
		return r, &ShapeError{Path: path, Msg: err.Error()}
	}
	want := NewObject(
		Member{Key: "command", Value: NewString(bin)},
		Member{Key: "args", Value: NewArray(NewString("mcp"))},
	)
	old := servers.Get(MCPServerName)
	switch {
	case old != nil && Equal(old, want):
		r.Action = ActionUnchanged
		return r, nil
	case old != nil && !isOurMCPServer(old):
		return r, &ShapeError{Path: path, Msg: fmt.Sprintf("an MCP server named %q that atreides did not write is already there", MCPServerName)}
	case old != nil:
		r.Action, r.Updated = ActionUpdated, []string{"mcpServers." + MCPServerName}
	default:
		r.Action, r.Added = ActionInstalled, []string{"mcpServers." + MCPServerName}
	}
	servers.Set(MCPServerName, want)
	if r.Backup, err = f.saveInstall(old == nil); err != nil {
		return r, err
	}
	r.Notes = append(r.Notes, "interactive Claude Code sessions ask once to approve the project's MCP server \"atreides\"")
	return r, nil
}

// UninstallClaudeMCP removes the "atreides" server if atreides wrote it,
// and the mcpServers object if that leaves it empty.
func UninstallClaudeMCP(path, backupDir string) (Report, error) {
	r := Report{Host: "claude", Path: path, Action: ActionNothingToDo}
	f, err := loadSettings(path, false, backupDir)
	if err != nil || !f.exists {
		return r, err
	}
	servers, err := mcpServers(f.doc, false)
	if err != nil {
		return r, &ShapeError{Path: path, Msg: err.Error()}
	}
	if servers == nil || !isOurMCPServer(servers.Get(MCPServerName)) {
		return r, nil
	}
	servers.Delete(MCPServerName)
	if len(servers.Members()) == 0 {
		f.doc.Delete("mcpServers")
	}
	r.Action, r.Removed = ActionRemoved, []string{"mcpServers." + MCPServerName}
	if r.Backup, err = f.saveUninstall(); err != nil {
		return r, err
	}
	return r, nil
}

// InspectClaudeMCP reports whether the project's .mcp.json registers our
// server and whether the program it names (and atreides-mcp beside it) can
// run.
func InspectClaudeMCP(path string) (registered bool, problem string, err error) {
	f, err := loadSettings(path, false, "")
	if err != nil {
		return false, err.Error(), nil
	}
	servers, err := mcpServers(f.doc, false)
	if err != nil {
		return false, err.Error(), nil
	}
	s := servers.Get(MCPServerName)
	if s == nil || !isOurMCPServer(s) {
		return false, "", nil
	}
	bin, _ := s.Get("command").Str()
	if p := BinaryProblem(bin); p != "" {
		return true, "MCP server: " + p, nil
	}
	if p := MCPBinaryProblem(bin); p != "" {
		return true, p, nil
	}
	return true, "", nil
}

// MCPBinaryProblem says why atreides-mcp next to bin cannot run ("" when
// it can); a bare atreides is the one on PATH.
func MCPBinaryProblem(bin string) string {
	if bin == PortableBinary {
		p, err := exec.LookPath(bin)
		if err != nil {
			return "atreides is not on PATH, and .mcp.json names it without a path"
		}
		bin = p
	}
	mcpBin := filepath.Join(filepath.Dir(bin), MCPBinary)
	if runtime.GOOS == "windows" {
		mcpBin += ".exe"
	}
	if p := checkExecutable(mcpBin); p != "" {
		return fmt.Sprintf("%s %s (build it next to atreides with 'go install ./cmd/...')", mcpBin, p)
	}
	return ""
}

// mcpServers returns the document's mcpServers object, creating it when
// asked; nil when absent and not created.
func mcpServers(doc *Node, create bool) (*Node, error) {
	if doc.Kind() != KindObject {
		return nil, fmt.Errorf("the top level is a %s, not an object", doc.Kind())
	}
	s := doc.Get("mcpServers")
	switch {
	case s == nil && create:
		s = NewObject()
		doc.Set("mcpServers", s)
	case s != nil && s.Kind() != KindObject:
		return nil, fmt.Errorf("mcpServers is a %s, not an object", s.Kind())
	}
	return s, nil
}

// isOurMCPServer recognises what InstallClaudeMCP writes: a command whose
// program is named atreides, run with the single argument "mcp".
func isOurMCPServer(s *Node) bool {
	if s == nil || s.Kind() != KindObject {
		return false
	}
	cmd, _ := s.Get("command").Str()
	args := s.Get("args")
	if !isAtreidesName(baseName(cmd)) || args == nil || len(args.Elems()) != 1 {
		return false
	}
	a, _ := args.Elems()[0].Str()
	return a == "mcp"
}
