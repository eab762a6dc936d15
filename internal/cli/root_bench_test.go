package cli

import (
	"io"
	"testing"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
)

// BenchmarkCommandTree is what an atreides process pays to build its
// command tree and find its command before running it: a hook builds only
// its own command, any other command line the whole tree.
func BenchmarkCommandTree(b *testing.B) {
	nop := &command.IO{Process: hook.Process{Out: io.Discard, Err: io.Discard}}
	for _, args := range [][]string{
		{"hook", "claude", "--event", "PreToolUse"},
		{"todo", "add", "x", "--level", "epic"},
	} {
		b.Run(args[0], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				root := newRootCmd(nop, args)
				if _, _, err := root.Find(args); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
