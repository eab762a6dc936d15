package initplan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/install/installtest"
)

// TestPreviewWritesNothingReal: a preview (which the user then declines)
// leaves the project and HOME byte for byte as they were, even when the
// hosts' path variables (<HOST>_HOME, <HOST>_DIR, XDG_*) hold relative
// paths, which a host resolves against the working directory: the
// scratch copy must not resolve them there too.
func TestPreviewWritesNothingReal(t *testing.T) {
	root := t.TempDir()
	proj, home := filepath.Join(root, "proj"), filepath.Join(root, "home")
	bin := filepath.Join(root, "bin", "atreides")
	// A user's file where a relative variable leads: copied, not written.
	codexDir := ""
	for _, h := range all.All() {
		if h.Name == "codex" {
			codexDir = filepath.Join(proj, "rel"+h.Name)
		}
	}
	for _, f := range []string{filepath.Join(proj, "README.md"), filepath.Join(home, ".keep"), bin, filepath.Join(codexDir, "config.toml")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(proj)
	vars := map[string]string{"HOME": home, "XDG_CONFIG_HOME": "relxdg", "XDG_STATE_HOME": "relstate"}
	pl := &Plan{Preset: config.PresetFull, Binary: func(install.Scope) (string, error) { return bin, nil }}
	for _, h := range all.All() {
		vars[strings.ToUpper(h.Name)+"_HOME"] = "rel" + h.Name
		vars[strings.ToUpper(h.Name)+"_DIR"] = "rel" + h.Name + "dir"
		for _, sc := range h.Scopes {
			pl.Hosts, pl.Scopes = append(pl.Hosts, h), append(pl.Scopes, sc)
		}
	}
	env := host.Env{ProjectDir: proj, Home: home, Getenv: func(k string) string { return vars[k] },
		LookPath: func(p string) (string, error) { return filepath.Join(root, "bin", p), nil }}
	user := filepath.Join(home, ".config", "atreides")
	paths := config.Paths{User: filepath.Join(user, "config.yaml"), Project: filepath.Join(proj, ".atreides", "config.yaml"), Trust: filepath.Join(user, config.TrustFileName)}
	before := installtest.TreeHashes(t, []string{root})
	changes, err := pl.Preview(env, paths, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if len(changes) == 0 {
		t.Fatal("the preview shows no change: the test proves nothing")
	}
	after := installtest.TreeHashes(t, []string{root})
	for p, h := range after {
		if before[p] != h {
			t.Errorf("the preview wrote %s for real", p)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			t.Errorf("the preview removed %s for real", p)
		}
	}
	// The changes shown name the places the variables lead to.
	var shown bool
	for _, c := range changes {
		shown = shown || strings.HasPrefix(c.Path, filepath.Join(proj, "rel"))
	}
	if !shown {
		t.Errorf("no change shown under the relative variables' directories: %v", changes)
	}
}
