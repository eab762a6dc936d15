package config

import (
	"path/filepath"
	"strings"
	"sync"

	"github.com/atreides-dev/atreides/internal/confined"
)

// The compiled configuration is kept in the project's .atreides directory,
// so that a hook whose configuration files have not changed since the last
// one reads one small file (cachecodec.go) instead of parsing YAML and walking the
// schema (about a tenth of a hook process with a project config). It has
// the trust of config.yaml beside it: the guard denies the agent writes to
// .atreides, and a link or a non-file there is refused (package confined).
const (
	// CacheFile is the cache's name in the .atreides directory.
	CacheFile = "config.cache"
	// cacheFormat changes whenever the cached form does.
	cacheFormat = "3"
	// maxCacheSize bounds the read: a cached configuration is a few KiB.
	maxCacheSize = 1 << 20
	// dirName is the project's atreides directory (project.DirName,
	// which imports this package).
	dirName = ".atreides"
)

// cached is the cache file: the key it was built under, the typed
// configuration and the notes on retired keys. The value tree with the
// source of every value is not kept: only a valid configuration is
// cached, and only error messages need the sources.
type cached struct {
	Key    string
	Config *Config
	Notes  []FieldError
	// Trust is the project file's trust, and RefStamp the stamp of the
	// files it pins besides itself (Trust.Refs): an edited script makes
	// a trusted file untrusted again, so it misses the cache too.
	Trust    Trust
	RefStamp string
}

// NewCachedLazy returns a [Lazy] of the files p with the cache of the
// project at root: the configuration comes from the cache when the files
// are those it was built from and the executable is the same
// ([Paths.Stamp] of both: an edited or replaced file or an upgraded
// atreides rebuilds it). On a miss the files are loaded, and the result is
// cached when it loaded without errors and valid accepts it (the meaning
// checks of other packages: a configuration that fails them is loaded
// afresh each time, so every call reports its errors with their
// positions). A cache that cannot be read, decoded or written, or whose
// key differs, is ignored and never reported: it only saves time. exe
// gives the running executable, asked for only when the cache is; nil or
// "" disables the cache.
func NewCachedLazy(p Paths, root string, exe func() string, valid func(*Config) bool) *Lazy {
	stamp := sync.OnceValues(p.Stamp)
	fallback := sync.OnceValue(func() *Config { return Fallback(p) })
	return &Lazy{stamp: stamp, fallback: fallback, get: sync.OnceValues(func() (*Config, error) {
		key, ok := cacheKey(stamp, exe)
		if !ok || root == "" {
			return Load(p)
		}
		name := cacheName(exe())
		if c, ok := readCache(root, name, key); ok {
			return c, nil
		}
		c, err := Load(p)
		if err == nil && valid(c) {
			writeCache(root, name, cached{Key: key, Config: c, Notes: c.notes, Trust: c.trust, RefStamp: refStamp(root, c.trust.Refs)})
		}
		return c, err
	})}
}

// cacheKey names the versions of the executable and of the configuration
// files (files, their [Paths.Stamp]); ok is false when one cannot be
// stat'ed (nothing is cached).
func cacheKey(files func() (string, bool), exe func() string) (key string, ok bool) {
	if exe == nil || exe() == "" {
		return "", false
	}
	self, ok := stampFiles(exe())
	stamp, filesOK := files()
	return cacheFormat + self + stamp, ok && filesOK
}

// cacheName is the cache file of the program exe. The key holds the
// program's own stamp, so two programs sharing one file would each find
// the other's entry stale and rewrite it on every call; atreides-team,
// which atreides runs in its own place for a team's project, is one.
// Programs named atreides-<x> keep config.<x>.cache; the rest (atreides
// itself, tests) config.cache.
func cacheName(exe string) string {
	if rest, ok := strings.CutPrefix(filepath.Base(exe), "atreides-"); ok && rest != "" {
		return "config." + rest + ".cache"
	}
	return CacheFile
}

func readCache(root, name, key string) (*Config, bool) {
	data, err := confined.ReadFile(root, filepath.Join(dirName, name), maxCacheSize)
	if err != nil {
		return nil, false
	}
	var c cached
	if decodeCache(data, &c) != nil || c.Key != key || c.Config == nil {
		return nil, false
	}
	if len(c.Trust.Refs) > 0 && refStamp(root, c.Trust.Refs) != c.RefStamp {
		return nil, false
	}
	c.Config.notes = c.Notes
	c.Config.trust = c.Trust
	return c.Config, true
}

// writeCache replaces the cache file atomically (a temporary file renamed
// over it), so a concurrent hook reads the old one or the new one whole.
// It writes only into an existing .atreides directory.
func writeCache(root, name string, c cached) {
	data, err := encodeCache(nil, &c)
	if err != nil {
		return
	}
	d, err := confined.OpenDir(root, dirName)
	if err != nil {
		return
	}
	defer d.Close()
	_ = d.ReplaceFile(name, data, false)
}

// refStamp is the stamp of the project files a project file pins.
func refStamp(root string, refs []string) string {
	if len(refs) == 0 {
		return ""
	}
	files := make([]string, len(refs))
	for i, r := range refs {
		files[i] = filepath.Join(root, r)
	}
	s, _ := stampFiles(files...)
	return s
}
