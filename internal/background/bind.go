package background

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/project"
)

// MCP calls are bound to the session that makes them by the process that
// runs that session. A host starts its MCP server as a child of its own
// process, and runs its hooks as that process's descendants too; Gemini
// CLI (0.61.0) and Codex (0.171.0) tell the server nothing else of the
// session (no variable, no argument). So the hook of an event that comes
// right before an atreides MCP call (its PreToolUse) and of a session's
// start writes, for each of its nearest ancestors, a file naming the
// session, keyed by the ancestor's pid and start time (a reused pid is
// another process); the server looks up its own parent, then that one's.
// The host process's file always names the session it runs now (after a
// /clear, the new one), whatever other sessions of the project do.

// bindDepth is how many ancestors a hook binds (the shell a host may run
// it through, the host, one more) and lookDepth how many a server looks
// at (a wrapper the host may start it through, the host).
const (
	bindDepth = 3
	lookDepth = 2
)

// bindingsDir holds the bindings, one file per host process: machine
// state, beside the tasks' output (git-ignored, purged with it).
func bindingsDir(root string) string {
	return filepath.Join(project.StateDir(root), "background", "mcp-callers")
}

// BindCaller records that the processes above this one (a hook) run
// session id, for the MCP server they started (see [BoundCaller]).
func BindCaller(root, id string) error {
	if id == "" {
		return nil
	}
	dir := bindingsDir(root)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	for _, p := range ancestors(os.Getppid(), bindDepth) {
		name := filepath.Join(dir, p)
		if b, err := os.ReadFile(name); err == nil && string(b) == id {
			continue // already bound: no write on every call
		}
		tmp := name + ".tmp" + strconv.Itoa(os.Getpid())
		if err := os.WriteFile(tmp, []byte(id), 0o600); err != nil {
			return err
		}
		if err := os.Rename(tmp, name); err != nil {
			return err
		}
	}
	return nil
}

// BoundCaller is the session the process running this one (an MCP
// server) runs, as its hooks recorded it; "" when none did.
func BoundCaller(root string) string {
	dir := bindingsDir(root)
	for _, p := range ancestors(os.Getppid(), lookDepth) {
		if b, err := os.ReadFile(filepath.Join(dir, p)); err == nil && len(b) > 0 {
			return strings.TrimSpace(string(b))
		}
	}
	return ""
}

// ancestors are pid and up to n-1 of its ancestors, as "<pid>-<start>",
// nearest first; init (pid 1) and what cannot be read end the list.
func ancestors(pid, n int) []string {
	var out []string
	for len(out) < n && pid > 1 {
		b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			break
		}
		start, ok := parseStartTime(string(b))
		if !ok {
			break
		}
		out = append(out, strconv.Itoa(pid)+"-"+strconv.FormatUint(start, 10))
		pid = parentOf(string(b))
	}
	return out
}

// parentOf is field 4 (ppid) of a /proc/<pid>/stat line, 0 if unreadable.
func parentOf(stat string) int {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.Atoi(f[1])
	return n
}

// PruneBindings removes the bindings of host processes that have ended
// (their pid gone, or another process's now).
func PruneBindings(root string) {
	dir := bindingsDir(root)
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		pid, start, ok := strings.Cut(e.Name(), "-")
		n, err1 := strconv.Atoi(pid)
		st, err2 := strconv.ParseUint(strings.SplitN(start, ".", 2)[0], 10, 64)
		if ok && err1 == nil && err2 == nil && ProcAlive(n, st) && !strings.Contains(start, ".tmp") {
			continue
		}
		_ = os.Remove(filepath.Join(dir, e.Name()))
	}
}
