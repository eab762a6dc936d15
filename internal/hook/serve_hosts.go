package hook

import (
	"slices"
	"sync"

	"github.com/atreides-dev/atreides/internal/policy"
)

// maxServedHostLists bounds the lists servedHosts keeps; past it they are
// all forgotten and computed again as asked. A server keeps settings for
// maxServedRoots projects, with one home.
const maxServedHostLists = 4 * maxServedRoots

// servedHosts is h with its lists of host files and plugin directories
// kept for the server's life, per project root and home: a hook process
// computes them once, a server would on every guarded event (dozens of
// paths joined per host). They are functions of the root, the home and
// the process's environment alone (policy.Hosts.Apply reads os.Getenv),
// and a server's environment is the one it was started with: nothing in
// atreides sets a variable. The paths are the files that would register
// atreides with a host, whether they exist or not, so nothing on disk
// can make a kept list stale.
func servedHosts(h policy.Hosts) *policy.Hosts {
	if files := h.Files; files != nil {
		h.Files = keptLists(files)
	}
	if plugins := h.Plugins; plugins != nil {
		kept := keptLists(func(_, home string, getenv func(string) string) []string { return plugins(home, getenv) })
		h.Plugins = func(home string, getenv func(string) string) []string { return kept("", home, getenv) }
	}
	return &h
}

// keptLists is compute with its results kept by root and home. A list
// handed out has no room to grow (slices.Clip): Apply appends to the
// plugin list of every request, and concurrent requests must not write
// into a shared array.
func keptLists(compute func(root, home string, getenv func(string) string) []string) func(root, home string, getenv func(string) string) []string {
	var (
		mu   sync.Mutex
		kept = map[[2]string][]string{}
	)
	return func(root, home string, getenv func(string) string) []string {
		k := [2]string{root, home}
		mu.Lock()
		l, ok := kept[k]
		mu.Unlock()
		if ok {
			return l
		}
		l = slices.Clip(compute(root, home, getenv))
		mu.Lock()
		if len(kept) >= maxServedHostLists {
			clear(kept)
		}
		kept[k] = l
		mu.Unlock()
		return l
	}
}
