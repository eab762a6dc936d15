package layering

import (
	"slices"
	"strings"
	"testing"
)

// hookDeps are the packages from other modules that the atreides binary
// links, and so initialises in every hook process. Each was measured
// before it was let in (GODEBUG=inittrace=1 atreides version, and
// bench/hooktime for whole hook processes).
var hookDeps = []string{
	// tasks diffs a hand-edited TODO.md: no package init; the binary
	// grows by 67 KB (0.43%). (Its parent package, udiff, compiles a
	// regexp at init: 0.1 ms and 28 allocations a hook; keep it out.)
	"github.com/aymanbagabas/go-udiff/lcs",
	"github.com/bmatcuk/doublestar/v4",
	// strictjson reads payloads with jsontext: init 0.016 ms, no
	// allocations; the binary grows by 144 KB (0.94%).
	"github.com/go-json-experiment/json/internal",
	"github.com/go-json-experiment/json/internal/jsonflags",
	"github.com/go-json-experiment/json/internal/jsonopts",
	"github.com/go-json-experiment/json/internal/jsonwire",
	"github.com/go-json-experiment/json/jsontext",
	// install edits Codex's config.toml: init 0.007 ms, no allocations.
	"github.com/pelletier/go-toml/v2",
	"github.com/pelletier/go-toml/v2/internal/parserbridge",
	"github.com/pelletier/go-toml/v2/internal/tracker",
	"github.com/pelletier/go-toml/v2/unstable",
	"github.com/spf13/cobra",
	// install edits JSON settings on its syntax tree: init 0.012 ms, 16
	// bytes in 1 allocation; the binary grows by 59.5 KB (0.39%).
	"github.com/tailscale/hujson",
	"github.com/spf13/pflag",
	"go.etcd.io/bbolt",
	"go.etcd.io/bbolt/errors",
	"go.etcd.io/bbolt/internal/common",
	"go.etcd.io/bbolt/internal/freelist",
	"go.yaml.in/yaml/v3",
	"golang.org/x/sys/unix",
	"golang.org/x/term",
	"mvdan.cc/sh/v3/fileutil",
	"mvdan.cc/sh/v3/syntax",
}

// neverInHook are the standard library's packages a hook must never pay
// for (about 1.6 ms of package init a process); the companions that need
// them (atreides-mcp, -otel, -team, -ui) are separate binaries.
var neverInHook = []string{"net/http", "crypto/tls"}

// TestHookDependencies: the hook binary links only the modules in
// hookDeps, and none of the standard library's heavy packages, so the
// companions' dependencies (the MCP SDK, pgx, OTLP, chromedp) never reach
// a hook process.
func TestHookDependencies(t *testing.T) {
	bin, ok := packages(t)["cmd/atreides"]
	if !ok {
		t.Fatal("cmd/atreides is gone")
	}
	var found []string
	for _, d := range bin.Deps {
		first, _, _ := strings.Cut(d, "/")
		switch {
		case strings.HasPrefix(d, module+"/"):
		case !strings.Contains(first, "."): // the standard library
			if slices.Contains(neverInHook, d) {
				t.Errorf("atreides links %s; keep it out of the hook binary", d)
			}
		default:
			found = append(found, d)
		}
	}
	for _, p := range found {
		if !slices.Contains(hookDeps, p) {
			t.Errorf("atreides now links %s, which every hook process initialises: measure its package init (GODEBUG=inittrace=1 atreides version) and a hook's CPU (bench/hooktime) with it, then add it to hookDeps in %s", p, "internal/layering/hookdeps_test.go")
		}
	}
	for _, p := range hookDeps {
		if !slices.Contains(found, p) {
			t.Errorf("atreides no longer links %s: remove it from hookDeps", p)
		}
	}
}
