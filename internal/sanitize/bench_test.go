package sanitize

import (
	"strings"
	"testing"
)

// benchInputs are the shapes sanitize sees on every hook: short clean
// commands (the common case), a log line, a command with a secret, and a
// long clean tool output.
var benchInputs = []struct{ name, in string }{
	{"clean-command", "go test ./internal/sanitize/ -run TestStringMasks -count 1"},
	{"git-sha", "git show 3f2a9c1e4b5d6e7f8091a2b3c4d5e6f708192a3b --stat"},
	{"log-line", "hook claude PreToolUse session=5f0c6c1e-2f7b-4d8a-9a51-0c1f3c2a7e11 tool=Bash verdict=allow rule= took=3ms"},
	{"secret", "sshpass -p hunter2 ssh -p 2222 deploy@example.com 'curl -u admin:s3cret https://api'"},
	{"long-output", strings.Repeat("ok  \tgithub.com/atreides-dev/atreides/internal/x\t0.012s\n", 60)},
}

func BenchmarkString(b *testing.B) {
	for _, in := range benchInputs {
		b.Run(in.name, func(b *testing.B) {
			String(in.in, 4000)
			b.ReportAllocs()
			for b.Loop() {
				String(in.in, 4000)
			}
		})
	}
}
