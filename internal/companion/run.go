package companion

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// Run starts a companion program's cmd and waits for it: this process
// does not die before it, and passes SIGINT and SIGTERM on (Ctrl-C in a
// terminal reaches both; the program shuts down once). The error is
// cmd.Start's or cmd.Wait's.
func Run(cmd *exec.Cmd) error {
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer func() { signal.Stop(sig); close(sig) }()
	if err := cmd.Start(); err != nil {
		return err
	}
	go func() {
		for s := range sig {
			_ = cmd.Process.Signal(s)
		}
	}()
	return cmd.Wait()
}
