//go:build unix

package hook

import (
	"fmt"
	"os"
	"syscall"
)

// execWith execs bin with argv and env; payload, when not nil, is put in
// an unlinked file that becomes its stdin.
func execWith(bin string, argv, env []string, payload []byte) error {
	if payload != nil {
		f, err := os.CreateTemp("", "atreides-payload-*")
		if err != nil {
			return fmt.Errorf("hand the event to %s: %w", bin, err)
		}
		_ = os.Remove(f.Name())
		if _, err := f.Write(payload); err != nil {
			return fmt.Errorf("hand the event to %s: %w", bin, err)
		}
		if _, err := f.Seek(0, 0); err != nil {
			return fmt.Errorf("hand the event to %s: %w", bin, err)
		}
		if err := dupStdin(int(f.Fd())); err != nil {
			return fmt.Errorf("hand the event to %s: %w", bin, err)
		}
	}
	return fmt.Errorf("start %s: %w", bin, syscall.Exec(bin, argv, env))
}
