package background

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// SupervisorExe is "atreides bg run": the atreides binary is this one,
// or the one installed next to atreides-mcp.
func SupervisorExe() ([]string, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, fmt.Errorf("cannot find the atreides binary: %w", err)
	}
	if r, err := filepath.EvalSymlinks(self); err == nil {
		self = r
	}
	if base := filepath.Base(self); base != "atreides" && base != "atreides.exe" {
		self = filepath.Join(filepath.Dir(self), "atreides")
	}
	return []string{self, "bg", "run"}, nil
}

// Launch starts the detached supervisor of task id: its own session and
// process group, stdio to supervisor.log in the task's directory, so that
// it outlives the process that launched it and the host. exe is the
// supervisor's argv before the id (nil: [SupervisorExe]).
func Launch(exe []string, root, id string) error {
	if exe == nil {
		var err error
		if exe, err = SupervisorExe(); err != nil {
			return err
		}
	}
	dir := Dir(root, id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	log, err := os.OpenFile(filepath.Join(dir, "supervisor.log"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer log.Close()
	cmd := exec.Command(exe[0], append(exe[1:len(exe):len(exe)], id)...)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = detached()
	if err := cmd.Start(); err != nil {
		return err
	}
	// Reaped by init once the launcher exits; a long-lived launcher
	// (the MCP server) reaps it here so no zombie stays.
	go func() { _ = cmd.Wait() }()
	return nil
}

// Kill stops a running task's supervisor and everything it started:
// the supervisor leads its own process group, and kills the CLI's group
// on SIGTERM. A pid that is not the task's supervisor any more is left
// alone.
func Kill(pid int, start uint64, alive Alive) {
	if pid <= 0 || !alive(pid, start) {
		return
	}
	terminateGroup(pid)
}
