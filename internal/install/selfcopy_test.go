//go:build unix

package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// npxInstall lays out atreides and two companions as npx leaves them
// and returns the path of atreides.
func npxInstall(t *testing.T, body string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), ".npm", "_npx", "0a1b2c", "node_modules", "@atreides-dev", "atreides", "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"atreides", "atreides-mcp", "atreides-ui"} {
		if err := os.WriteFile(filepath.Join(bin, p), []byte(body+" "+p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return filepath.Join(bin, "atreides")
}

func TestInNpxCache(t *testing.T) {
	for path, want := range map[string]bool{
		"/home/u/.npm/_npx/0a1b/node_modules/.bin/atreides": true,
		"/home/u/.local/share/atreides/bin/atreides":        false,
		"/opt/my_npx_tools/atreides":                        false,
	} {
		if got := InNpxCache(path); got != want {
			t.Errorf("InNpxCache(%s) = %v", path, got)
		}
	}
}

func TestStableBinDir(t *testing.T) {
	env := func(kv map[string]string) func(string) string { return func(k string) string { return kv[k] } }
	if d, _ := StableBinDir(env(map[string]string{"XDG_DATA_HOME": "/x", "HOME": "/h"})); d != "/x/atreides/bin" {
		t.Errorf("with XDG_DATA_HOME: %s", d)
	}
	if d, _ := StableBinDir(env(map[string]string{"XDG_DATA_HOME": "rel", "HOME": "/h"})); d != "/h/.local/share/atreides/bin" {
		t.Errorf("with a relative XDG_DATA_HOME (ignored, as the spec says): %s", d)
	}
	if _, err := StableBinDir(env(nil)); err == nil {
		t.Error("no HOME and no XDG_DATA_HOME: no error")
	}
}

func read(t *testing.T, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestSelfCopy(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "share", "atreides", "bin")
	bin, copied, err := SelfCopy(npxInstall(t, "v1"), dir, "v0.3.0")
	if err != nil || !copied || bin != filepath.Join(dir, "atreides") {
		t.Fatalf("SelfCopy = %s, %v, %v", bin, copied, err)
	}
	for _, p := range []string{"atreides", "atreides-mcp", "atreides-ui"} {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil || fi.Mode().Perm() != 0o755 {
			t.Errorf("%s: %v %v", p, fi, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "atreides-team")); err == nil {
		t.Error("a companion the install lacks appeared")
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("a temporary file is left: %s", e.Name())
		}
	}
	// the same version again: kept
	if _, copied, err := SelfCopy(npxInstall(t, "v1 again"), dir, "v0.3.0"); err != nil || copied || read(t, bin) != "v1 atreides" {
		t.Errorf("the same version copied again (%v, %v): %q", copied, err, read(t, bin))
	}
	// a newer one replaces it
	if _, copied, err := SelfCopy(npxInstall(t, "v2"), dir, "v0.4.0"); err != nil || !copied || read(t, filepath.Join(dir, "atreides-mcp")) != "v2 atreides-mcp" {
		t.Errorf("a newer version did not replace it (%v, %v)", copied, err)
	}
	// an older release does not
	if _, copied, err := SelfCopy(npxInstall(t, "v0"), dir, "v0.3.9"); err != nil || copied || read(t, bin) != "v2 atreides" {
		t.Errorf("an older version replaced it (%v, %v)", copied, err)
	}
}

func TestNewer(t *testing.T) {
	for _, c := range []struct {
		version, old string
		want         bool
	}{
		{"v0.3.0", "v0.3.0", false},
		{"v0.4.0", "v0.3.0", true},
		{"v0.3.0", "v0.10.0", false},
		{"v0.0.0-snapshot-abc", "v0.0.0-snapshot-def", true},
		{"devel", "v0.3.0", true},
		{"v0.3.0", "garbage", true},
	} {
		if got := newer(c.version, c.old); got != c.want {
			t.Errorf("newer(%s, %s) = %v", c.version, c.old, got)
		}
	}
}

func TestStableHookBinary(t *testing.T) {
	data := t.TempDir()
	env := func(k string) string {
		if k == "XDG_DATA_HOME" {
			return data
		}
		return ""
	}
	self := "/usr/local/bin/atreides"
	if bin, note, err := StableHookBinary(self, "v0.3.0", env); bin != self || note != "" || err != nil {
		t.Errorf("outside npx: %s, %q, %v", bin, note, err)
	}
	bin, note, err := StableHookBinary(npxInstall(t, "x"), "v0.3.0", env)
	if err != nil || bin != filepath.Join(data, "atreides", "bin", "atreides") || !strings.Contains(note, filepath.Join(data, "atreides", "bin")) {
		t.Errorf("from npx: %s, %q, %v", bin, note, err)
	}
}

func TestOnPathOutsideNpx(t *testing.T) {
	npx := filepath.Dir(npxInstall(t, "x"))
	if OnPathOutsideNpx(npx + string(os.PathListSeparator) + t.TempDir()) {
		t.Error("found atreides on PATH where only npx has it")
	}
	other := t.TempDir()
	if err := os.WriteFile(filepath.Join(other, "atreides"), nil, 0o755); err != nil {
		t.Fatal(err)
	}
	if !OnPathOutsideNpx(npx + string(os.PathListSeparator) + other) {
		t.Error("missed atreides on PATH outside npx")
	}
}
