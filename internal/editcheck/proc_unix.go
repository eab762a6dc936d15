//go:build unix

package editcheck

import (
	"os/exec"
	"syscall"
)

// killGroup puts the check in its own process group and makes a timeout
// kill the whole group: sh's children (gofmt, go vet's compiler) too.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
}
