package hook

import (
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/policy"
)

// TestServedHostsKeptByRootAndHome: the lists a server keeps are the
// registry's, computed once per root and home, and a request that appends
// to its plugin list (Apply does) changes neither another request's nor
// the kept one.
func TestServedHostsKeptByRootAndHome(t *testing.T) {
	calls := 0
	h := servedHosts(policy.Hosts{
		Files: func(root, home string, getenv func(string) string) []string {
			calls++
			return append(make([]string, 0, 8), root+"/.x/hooks.json", home+"/.x/hooks.json")
		},
		Plugins: func(home string, getenv func(string) string) []string {
			return append(make([]string, 0, 8), home+"/.x/plugins")
		},
	})
	a := h.Files("/p", "/h", nil)
	b := h.Files("/p", "/h", nil)
	if calls != 1 || !slices.Equal(a, b) {
		t.Fatalf("two lookups of one root and home: %d computations, %q then %q", calls, a, b)
	}
	if c := h.Files("/q", "/h", nil); calls != 2 || c[0] != "/q/.x/hooks.json" {
		t.Fatalf("another root: %d computations, %q", calls, c)
	}
	if c := h.Files("/p", "/g", nil); calls != 3 || c[1] != "/g/.x/hooks.json" {
		t.Fatalf("another home: %d computations, %q", calls, c)
	}
	p1 := append(h.Plugins("/h", nil), "/one")
	p2 := append(h.Plugins("/h", nil), "/two")
	if p1[1] != "/one" || p2[1] != "/two" || len(h.Plugins("/h", nil)) != 1 {
		t.Fatalf("appends to kept plugin lists: %q, %q, kept %q", p1, p2, h.Plugins("/h", nil))
	}
}

// TestServedHostsAsRegistry: a request filled by the server's hosts is
// the request the registry's fills.
func TestServedHostsAsRegistry(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	want := guard.Request{ProjectRoot: root, Home: home}
	all.Guard().Apply(&want)
	want.Hosts(&want) // the guard lists them on first use
	kept := servedHosts(all.Guard())
	for range 2 {
		got := guard.Request{ProjectRoot: root, Home: home}
		kept.Apply(&got)
		got.Hosts(&got)
		if !slices.Equal(got.HostSettings, want.HostSettings) || !slices.Equal(got.Plugins, want.Plugins) {
			t.Fatalf("served hosts:\n%q\n%q\nregistry's:\n%q\n%q", got.HostSettings, got.Plugins, want.HostSettings, want.Plugins)
		}
	}
	if len(want.HostSettings) == 0 {
		t.Fatal("the registry lists no host files")
	}
}
