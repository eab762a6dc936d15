//go:build unix

package background

import "syscall"

// detached starts a process in a session of its own, so that it outlives
// the hook or MCP server that launched it and no terminal signal reaches
// it.
func detached() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setsid: true} }

// ownGroup starts a process leading a process group of its own, so that
// killGroup stops whatever it started too.
func ownGroup() *syscall.SysProcAttr { return &syscall.SysProcAttr{Setpgid: true} }

// terminateGroup asks the process group led by pid to stop.
func terminateGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGTERM) }

// killGroup kills the process group led by pid.
func killGroup(pid int) { _ = syscall.Kill(-pid, syscall.SIGKILL) }
