//go:build unix

package outputs

import (
	"github.com/atreides-dev/atreides/internal/config"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// A FIFO named as the host's file is refused at once, not waited on.
func TestHostFileNotRegular(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	ev := postTool(t.TempDir(), event.Shell, "start")
	ev.OutputFile = fifo
	r, env := run(t, FromConfig(config.Builtin()), ev)
	if !r.Empty() || len(env.logs) != 1 || !strings.Contains(env.logs[0], "not a regular file") {
		t.Errorf("result %+v, logs %v", r, env.logs)
	}
}
