//go:build windows

package background

import (
	"os"
	"syscall"
)

// detachedProcess is Windows's DETACHED_PROCESS creation flag: no console
// is inherited, so closing the terminal does not end the task.
const detachedProcess = 0x00000008

// detached starts a process outside the launcher's console and process
// group, so that it outlives the hook or MCP server that launched it.
func detached() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP | detachedProcess}
}

// ownGroup starts a process in a process group of its own.
func ownGroup() *syscall.SysProcAttr {
	return &syscall.SysProcAttr{CreationFlags: syscall.CREATE_NEW_PROCESS_GROUP}
}

// terminateGroup stops the process pid. Windows has no signal for a
// group; the process itself is ended (what it started may outlive it).
func terminateGroup(pid int) { killGroup(pid) }

// killGroup ends the process pid (see terminateGroup).
func killGroup(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		_ = p.Kill()
	}
}
