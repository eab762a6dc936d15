package rulefiles

import (
	"context"
	"github.com/atreides-dev/atreides/internal/config"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/store"
)

// BenchmarkPostToolRead is one hook process's work for a read in a
// directory three levels below the root, each level with an AGENTS.md of
// about 500 bytes: the lstats, the reads through package confined, the
// hashes, and the engine's locked run on the store (all delivered after
// the first run: the steady state). "bare" has no rules files at all,
// "shell" is a tool this handler ignores.
func BenchmarkPostToolRead(b *testing.B) {
	rules := strings.Repeat("Keep functions short; table tests; no globals.\n", 10)
	for _, bc := range []struct {
		name  string
		files map[string]string
		tool  event.ToolName
	}{
		{"three-levels", map[string]string{"AGENTS.md": "root", "pkg/AGENTS.md": rules, "pkg/a/AGENTS.md": rules, "pkg/a/b/AGENTS.md": rules, "pkg/a/b/x.go": "x"}, event.Read},
		{"bare", map[string]string{"pkg/a/b/x.go": "x"}, event.Read},
		{"shell", map[string]string{"pkg/AGENTS.md": rules}, event.Shell},
	} {
		b.Run(bc.name, func(b *testing.B) {
			root := b.TempDir()
			for rel, c := range bc.files {
				write(b, root, rel, c)
			}
			o := FromConfig(config.Builtin())
			e := engine.New(engine.StoreLoader{Store: store.Open(filepath.Join(b.TempDir(), ".atreides"))}, &testEnv{}, Handler(func() Options { return o }))
			ev := event.Event{Kind: event.PostTool, Host: "gemini", Facts: testHosts["gemini"], SessionID: "s", ProjectDir: root, Cwd: root, ContextCap: 10000,
				Tool: event.Tool{Name: bc.tool, Paths: []string{filepath.Join(root, "pkg/a/b/x.go")}}, Time: time.Unix(0, 0)}
			first := ev
			e.Run(context.Background(), &first)
			b.ResetTimer()
			for b.Loop() {
				ev := ev
				e.Run(context.Background(), &ev)
			}
		})
	}
}

// BenchmarkFind is the handler's own file work for the same read, without
// the engine and the store: what it adds to a hook process.
func BenchmarkFind(b *testing.B) {
	rules := strings.Repeat("Keep functions short; table tests; no globals.\n", 10)
	root := b.TempDir()
	for rel, c := range map[string]string{"pkg/AGENTS.md": rules, "pkg/a/AGENTS.md": rules, "pkg/a/b/AGENTS.md": rules} {
		write(b, root, rel, c)
	}
	o := FromConfig(config.Builtin())
	s := scope{root: root, files: []string{"pkg/a/b/x.go"}, cwd: ".", host: testHosts["gemini"]}
	logf := func(string, ...any) {}
	for b.Loop() {
		sk := o.hostLoads(s.host, s.root)
		if fs := append(dirRules(s, o, sk, logf), condRules(s, o, sk, logf)...); len(fs) != 3 {
			b.Fatalf("found %d", len(fs))
		}
	}
}
