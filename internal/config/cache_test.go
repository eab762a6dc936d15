package config

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

const cacheTestConfig = `guard:
  disable: [git.reset-hard]
  verdicts:
    git.push-force: deny
  groups: [databases]
  switches:
    sudo: ask
  production:
    contexts: [gke-main, "*-blue"]
    hosts: []
rules:
  - verdict: deny
    command: "terraform apply"
    reason: "run terraform through the pipeline"
session:
  memory:
    budget: 3000
governance:
  exempt: ["docs/**"]
log:
  level: debug
`

// cacheProject makes a project with a config file and an executable
// stand-in, and returns them.
func cacheProject(t *testing.T, text string) (root string, p Paths, exe string) {
	t.Helper()
	root = t.TempDir()
	if err := os.MkdirAll(filepath.Join(root, dirName), 0o755); err != nil {
		t.Fatal(err)
	}
	p = Paths{Project: filepath.Join(root, dirName, "config.yaml")}
	if err := os.WriteFile(p.Project, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	exe = filepath.Join(t.TempDir(), "atreides")
	if err := os.WriteFile(exe, []byte("binary"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root, p, exe
}

func mustEncode(t *testing.T, c *cached) []byte {
	t.Helper()
	b, err := encodeCache(nil, c)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func always(*Config) bool { return true }

func cacheLoad(t *testing.T, p Paths, root, exe string, valid func(*Config) bool) *Config {
	t.Helper()
	c, err := NewCachedLazy(p, root, func() string { return exe }, valid).Get()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func cachePath(root string) string { return filepath.Join(root, dirName, CacheFile) }

// The cached configuration is the loaded one, notes included, and a
// second load reads it rather than the files.
func TestCacheRoundTrip(t *testing.T) {
	root, p, exe := cacheProject(t, cacheTestConfig)
	want, err := Load(p)
	if err != nil {
		t.Fatal(err)
	}
	first := cacheLoad(t, p, root, exe, always)
	if _, err := os.Stat(cachePath(root)); err != nil {
		t.Fatalf("no cache written: %v", err)
	}
	got := cacheLoad(t, p, root, exe, always)
	if got.root != nil {
		t.Fatal("second load parsed the files instead of reading the cache")
	}
	for _, c := range []*Config{first, got} {
		if !reflect.DeepEqual(exported(c), exported(want)) {
			t.Errorf("cached config differs:\n got %+v\nwant %+v", *c, *want)
		}
		if !reflect.DeepEqual(c.Notes(), want.Notes()) || len(want.Notes()) == 0 {
			t.Errorf("notes: got %v, want %v (non-empty)", c.Notes(), want.Notes())
		}
	}
	// Errors built on a cached configuration have no position but name the key.
	if e := got.ErrorAt("bad", "guard", "disable", "0"); e.Key != "guard.disable[0]" && e.Key != "guard.disable.0" {
		t.Errorf("ErrorAt on a cached config: key %q", e.Key)
	}
}

func exported(c *Config) Config {
	out := *c
	out.root, out.notes = nil, nil
	return out
}

// The cache is used while the key matches and ignored once a file or the
// executable changes.
func TestCacheFollowsTheFiles(t *testing.T) {
	root, p, exe := cacheProject(t, cacheTestConfig)
	cacheLoad(t, p, root, exe, always)

	// A cache that says something else under the same key is believed:
	// that is how we know it is read at all.
	data, err := os.ReadFile(cachePath(root))
	if err != nil {
		t.Fatal(err)
	}
	c := cached{Key: "x", Config: &Config{}}
	if err := decodeCache(data, &c); err != nil {
		t.Fatal(err)
	}
	c.Config.Session.Memory.Budget = 1234
	b, err := encodeCache(nil, &c)
	if err != nil {
		t.Fatal(err)
	}
	forged := string(b)
	if err := os.WriteFile(cachePath(root), []byte(forged), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := cacheLoad(t, p, root, exe, always).Session.Memory.Budget; got != 1234 {
		t.Fatalf("cache not read: budget %d", got)
	}

	touch := func(f string) {
		later := time.Now().Add(time.Hour)
		if err := os.Chtimes(f, later, later); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{p.Project, exe} {
		touch(f)
		if got := cacheLoad(t, p, root, exe, always).Session.Memory.Budget; got != 3000 {
			t.Errorf("after touching %s: budget %d, want the file's 3000", filepath.Base(f), got)
		}
		if err := os.WriteFile(cachePath(root), []byte(forged), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A user file appearing changes the key too.
	p.User = filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p.User, []byte("session:\n  memory:\n    budget: 2000\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := cacheLoad(t, p, root, exe, always).Session.Memory.Budget; got != 3000 {
		t.Errorf("with a new user file: budget %d, want the project's 3000", got)
	}
}

// A damaged, foreign or linked cache is ignored and replaced; nothing is
// cached for a configuration with errors or one the caller rejects.
func TestCacheDistrust(t *testing.T) {
	for name, damage := range map[string]func(t *testing.T, root string){
		"garbage": func(t *testing.T, root string) {
			if err := os.WriteFile(cachePath(root), []byte("{not json"), 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"other key": func(t *testing.T, root string) {
			if err := os.WriteFile(cachePath(root), mustEncode(t, &cached{Key: "1 x", Config: &Config{Version: 1}}), 0o644); err != nil {
				t.Fatal(err)
			}
		},
		"link": func(t *testing.T, root string) {
			target := filepath.Join(t.TempDir(), "elsewhere")
			if err := os.WriteFile(target, []byte(`{}`), 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(target, cachePath(root)); err != nil {
				t.Fatal(err)
			}
		},
	} {
		t.Run(name, func(t *testing.T) {
			root, p, exe := cacheProject(t, cacheTestConfig)
			damage(t, root)
			if got := cacheLoad(t, p, root, exe, always).Session.Memory.Budget; got != 3000 {
				t.Fatalf("budget %d, want 3000", got)
			}
			if got := cacheLoad(t, p, root, exe, always); got.Session.Memory.Budget != 3000 {
				t.Fatalf("second load: budget %d", got.Session.Memory.Budget)
			}
		})
	}
	t.Run("rejected", func(t *testing.T) {
		root, p, exe := cacheProject(t, cacheTestConfig)
		cacheLoad(t, p, root, exe, func(*Config) bool { return false })
		if _, err := os.Lstat(cachePath(root)); !os.IsNotExist(err) {
			t.Fatalf("a rejected configuration was cached: %v", err)
		}
	})
	t.Run("invalid", func(t *testing.T) {
		root, p, exe := cacheProject(t, "guard:\n  enabled: maybe\n")
		for range 2 {
			if _, err := NewCachedLazy(p, root, func() string { return exe }, always).Get(); err == nil {
				t.Fatal("an invalid configuration loaded")
			}
		}
		if _, err := os.Lstat(cachePath(root)); !os.IsNotExist(err) {
			t.Fatalf("an invalid configuration was cached: %v", err)
		}
	})
}

// BenchmarkCachedLoad: the configuration from the cache, against parsing it.
func BenchmarkCachedLoad(b *testing.B) {
	root := b.TempDir()
	if err := os.MkdirAll(filepath.Join(root, dirName), 0o755); err != nil {
		b.Fatal(err)
	}
	p := Paths{Project: filepath.Join(root, dirName, "config.yaml")}
	if err := os.WriteFile(p.Project, []byte(cacheTestConfig), 0o644); err != nil {
		b.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	b.Run("parse", func(b *testing.B) {
		for b.Loop() {
			if _, err := Load(p); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("cached", func(b *testing.B) {
		for b.Loop() {
			if _, err := NewCachedLazy(p, root, func() string { return exe }, always).Get(); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// FuzzCacheDecode: any bytes decode or fail without panicking, and what
// decodes encodes to bytes that decode to the same configuration.
func FuzzCacheDecode(f *testing.F) {
	c, err := Load(Paths{})
	if err != nil {
		f.Fatal(err)
	}
	seed, err := encodeCache(nil, &cached{Key: "k", Config: c, Notes: []FieldError{{File: "f", Line: 1, Msg: "m"}}})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(seed)
	f.Add(seed[:len(seed)/2])
	f.Add([]byte{1, 0xff, 0xff, 0xff, 0xff, 0x0f})
	f.Fuzz(func(t *testing.T, b []byte) {
		var got cached
		if decodeCache(b, &got) != nil {
			return
		}
		again, err := encodeCache(nil, &got)
		if err != nil {
			t.Fatal(err)
		}
		var back cached
		if err := decodeCache(again, &back); err != nil {
			t.Fatalf("re-encoded cache does not decode: %v", err)
		}
		if !reflect.DeepEqual(got, back) {
			t.Fatalf("round trip differs:\n%+v\n%+v", got, back)
		}
	})
}

// TestCacheName: atreides and atreides-team, which runs in atreides's
// place for a team's project, keep caches apart; otherwise each would find
// the other's key stale and parse the YAML on every hook.
func TestCacheName(t *testing.T) {
	for exe, want := range map[string]string{
		"/usr/local/bin/atreides":      "config.cache",
		"/usr/local/bin/atreides-team": "config.team.cache",
		"/tmp/go-build1/cli.test":      "config.cache",
		"atreides-":                    "config.cache",
	} {
		if got := cacheName(exe); got != want {
			t.Errorf("cacheName(%q) = %q, want %q", exe, got, want)
		}
	}
}
