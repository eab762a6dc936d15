package install

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/atreides-dev/atreides/internal/guard"
)

// MCPServerName is the name atreides's MCP server is registered under; the
// agent sees its tools as mcp__atreides__<tool>.
const MCPServerName = "atreides"

// MCPFile is a JSON file with an "mcpServers" object: Claude Code's
// .mcp.json, Gemini CLI's settings.json (which also holds our hooks).
type MCPFile struct {
	Host      string
	Path      string
	BackupDir string
	// Spec is the host whose hooks share the file (nil for .mcp.json):
	// its comment rules apply, and the file's undo record is started only
	// when it holds neither our hooks nor our server.
	Spec *HookSpec
	// HostArg is written as `--host <host>` after "mcp" for a host that
	// does not show itself in the server's environment.
	HostArg bool
}

func (m MCPFile) load() (*settingsFile, error) {
	if m.Spec != nil {
		return m.Spec.load(m.Path, m.BackupDir)
	}
	return loadSettings(m.Path, false, m.BackupDir)
}

// entry is the server entry written for bin.
func (m MCPFile) entry(bin string) *Node {
	args := []*Node{NewString("mcp")}
	if m.HostArg {
		args = append(args, NewString("--host"), NewString(m.Host))
	}
	return NewObject(
		Member{Key: "command", Value: NewString(bin)},
		Member{Key: "args", Value: NewArray(args...)},
	)
}

// Install registers `<bin> mcp` as the "atreides" server, keeping every
// other server and key as it was. It registers nothing when atreides-mcp
// is missing next to bin, and says so: a server that cannot start is
// worse than none.
func (m MCPFile) Install(bin string) (Report, error) {
	r := Report{Host: m.Host, Path: m.Path}
	if err := CheckBinaryPath(bin); err != nil {
		return r, err
	}
	if p := MCPBinaryProblem(bin); p != "" {
		r.Action = ActionUnchanged
		r.Notes = append(r.Notes, "MCP tools not registered: "+p)
		return r, nil
	}
	f, err := m.load()
	if err != nil {
		return r, err
	}
	r.Created = !f.exists
	servers, err := mcpServers(f.doc, true)
	if err != nil {
		return r, &ShapeError{Path: m.Path, Msg: err.Error()}
	}
	want := m.entry(bin)
	old := servers.Get(MCPServerName)
	switch {
	case old != nil && Equal(old, want):
		r.Action = ActionUnchanged
		return r, nil
	case old != nil && !isOurMCPServer(old):
		return r, &ShapeError{Path: m.Path, Msg: fmt.Sprintf("an MCP server named %q that atreides did not write is already there", MCPServerName)}
	case old != nil:
		r.Action, r.Updated = ActionUpdated, []string{"mcpServers." + MCPServerName}
	default:
		r.Action, r.Added = ActionInstalled, []string{"mcpServers." + MCPServerName}
	}
	first := old == nil && (m.Spec == nil || !m.Spec.hasOurHooks(f.doc))
	servers.Set(MCPServerName, want)
	if r.Backup, err = f.saveInstall(first); err != nil {
		return r, err
	}
	return r, nil
}

// Uninstall removes the "atreides" server if atreides wrote it, and the
// mcpServers object if that leaves it empty.
func (m MCPFile) Uninstall() (Report, error) {
	r := Report{Host: m.Host, Path: m.Path, Action: ActionNothingToDo}
	f, err := m.load()
	if err != nil || !f.exists {
		return r, err
	}
	servers, err := mcpServers(f.doc, false)
	if err != nil {
		return r, &ShapeError{Path: m.Path, Msg: err.Error()}
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

// Inspect reports whether the file registers our server and whether the
// program it names (and atreides-mcp beside it) can run.
func (m MCPFile) Inspect() (registered bool, problem string, err error) {
	f, err := m.load()
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
	return true, MCPServerProblem(bin), nil
}

// MCPServerProblem says why a registered server naming bin cannot start
// ("" when it can).
func MCPServerProblem(bin string) string {
	if p := BinaryProblem(bin); p != "" {
		return "MCP server: " + p
	}
	return MCPBinaryProblem(bin)
}

// MCPBinaryProblem says why atreides-mcp next to bin cannot run ("" when
// it can); a bare atreides is the one on PATH. A symlink is followed, as
// 'atreides mcp' does (companion.Path): npm's node_modules/.bin/atreides
// is a link into the package, where the companions are.
func MCPBinaryProblem(bin string) string {
	if bin == PortableBinary {
		p, err := exec.LookPath(bin)
		if err != nil {
			return "atreides is not on PATH, and the MCP server's settings name it without a path"
		}
		bin = p
	}
	if r, err := filepath.EvalSymlinks(bin); err == nil {
		bin = r
	}
	mcpBin := filepath.Join(filepath.Dir(bin), guard.MCPBinary)
	if runtime.GOOS == "windows" {
		mcpBin += ".exe"
	}
	if p := CheckExecutable(mcpBin); p != "" {
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

// isOurMCPServer recognises what install writes: a command whose program
// is named atreides, run with the arguments "mcp" or "mcp --host <name>".
func isOurMCPServer(s *Node) bool {
	if s == nil || s.Kind() != KindObject {
		return false
	}
	cmd, _ := s.Get("command").Str()
	if !isAtreidesName(baseName(cmd)) || s.Get("args") == nil {
		return false
	}
	var args []string
	for _, a := range s.Get("args").Elems() {
		v, _ := a.Str()
		args = append(args, v)
	}
	return isOurMCPArgs(args)
}

// isOurMCPArgs recognises the arguments install gives the server.
func isOurMCPArgs(args []string) bool {
	return (len(args) == 1 || len(args) == 3 && args[1] == "--host") && args[0] == "mcp"
}

// IsOurMCPCommand recognises the server install writes by its command and
// arguments, in any file format: a program named atreides, run with "mcp"
// or "mcp --host <name>".
func IsOurMCPCommand(cmd string, args []string) bool {
	return isAtreidesName(baseName(cmd)) && isOurMCPArgs(args)
}
