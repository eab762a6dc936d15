package policy

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/install"
)

// TestPackageDir: a binary at <package>/bin/<os>-<arch>/atreides beside
// the launcher <package>/bin/atreides runs from that package (a plugin's
// source folder, an installed extension); a binary elsewhere from none.
func TestPackageDir(t *testing.T) {
	root := t.TempDir()
	pkg := filepath.Join(root, "plugins", "atreides")
	for _, f := range []string{"bin/atreides", "bin/linux-amd64/atreides", "go/bin/atreides", "dist/bin/linux-amd64/atreides"} {
		p := filepath.Join(pkg, f)
		if f[0] != 'b' {
			p = filepath.Join(root, f)
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for self, want := range map[string]string{
		filepath.Join(pkg, "bin", "linux-amd64", "atreides"):          pkg,
		filepath.Join(root, "go", "bin", "atreides"):                  "",
		filepath.Join(root, "dist", "bin", "linux-amd64", "atreides"): "", // a build output: no launcher
		"": "",
	} {
		if got := PackageDir(self); got != want {
			t.Errorf("PackageDir(%q) = %q, want %q", self, got, want)
		}
	}
}

// TestNpmPackageDirs: a binary in the main npm package's bin/ (the
// postinstall's copy) or in this platform's package's bin/ runs from
// both packages; a binary in another scope or package from none.
func TestNpmPackageDirs(t *testing.T) {
	scope := filepath.Join("/p", "node_modules", "@atreides-dev")
	platform := "atreides-" + npmPlatform(runtime.GOOS, runtime.GOARCH)
	both := []string{filepath.Join(scope, "atreides"), filepath.Join(scope, platform)}
	for _, c := range []struct {
		self string
		want []string
	}{
		{filepath.Join(scope, "atreides", "bin", "atreides"), both},
		{filepath.Join(scope, platform, "bin", "atreides"), both},
		{filepath.Join(scope, "atreides-extra", "bin", "atreides"), nil},
		{filepath.Join("/p", "node_modules", "@other", "atreides", "bin", "atreides"), nil},
		{filepath.Join(scope, "atreides", "lib", "atreides"), nil},
		{filepath.Join("/usr", "bin", "atreides"), nil},
		{"", nil},
	} {
		if got := NpmPackageDirs(c.self); !slices.Equal(got, c.want) {
			t.Errorf("NpmPackageDirs(%q) = %q, want %q", c.self, got, c.want)
		}
	}
	if got := npmPlatform("windows", "amd64"); got != "win32-x64" {
		t.Errorf("npmPlatform(windows, amd64) = %q, want win32-x64", got)
	}
}

// TestApplyProtectsPackages: with atreides run from its npm package, a
// write into either package (the platform program, the launcher's
// lib/platform.js) is denied, and so is one into the stable copy
// directory, its .version record included; the neighbours stay allowed.
func TestApplyProtectsPackages(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the commands are POSIX shell")
	}
	home := t.TempDir()
	scope := filepath.Join(home, "p", "node_modules", "@atreides-dev")
	platform := "atreides-" + npmPlatform(runtime.GOOS, runtime.GOARCH)
	r := guard.Request{Tool: "shell", Cwd: home, ProjectRoot: home, Home: home,
		Self: filepath.Join(scope, "atreides", "bin", "atreides")}
	t.Setenv("XDG_DATA_HOME", "")
	Hosts{}.Apply(&r)
	for cmd, want := range map[string]guard.Verdict{
		"cat /tmp/evil > " + filepath.Join(scope, platform, "bin", "atreides"):       guard.Deny,
		"echo x > " + filepath.Join(scope, "atreides", "lib", "platform.js"):         guard.Deny,
		"echo v9.9.9 > " + filepath.Join(home, ".local/share/atreides/bin/.version"): guard.Deny,
		"echo x > " + filepath.Join(scope, "other", "index.js"):                      guard.Allow,
		"echo x > " + filepath.Join(home, ".local/share/other/notes"):                guard.Allow,
	} {
		r.Command = cmd
		if res := guard.DefaultPolicy().Check(r); res.Verdict != want {
			t.Errorf("%s: %v (%s), want %v", cmd, res.Verdict, res.Rule, want)
		}
	}
}

// TestStableBinDir: the directory internal/install.StableBinDir keeps the
// npx copy in, from XDG_DATA_HOME when it is absolute, else from home.
func TestStableBinDir(t *testing.T) {
	env := func(xdg string) func(string) string {
		return func(k string) string {
			if k == "XDG_DATA_HOME" {
				return xdg
			}
			return ""
		}
	}
	for _, c := range []struct{ home, xdg, want string }{
		{"/h", "", filepath.Join("/h", ".local", "share", "atreides", "bin")},
		{"/h", "/data", filepath.Join("/data", "atreides", "bin")},
		{"/h", "rel", filepath.Join("/h", ".local", "share", "atreides", "bin")},
		{"", "", ""},
	} {
		if got := StableBinDir(c.home, env(c.xdg)); got != c.want {
			t.Errorf("StableBinDir(%q, XDG_DATA_HOME=%q) = %q, want %q", c.home, c.xdg, got, c.want)
		}
		// the same directory install copies into
		inst, _ := install.StableBinDir(func(k string) string {
			if k == "HOME" {
				return c.home
			}
			return env(c.xdg)(k)
		})
		if inst != c.want {
			t.Errorf("install.StableBinDir(HOME=%q, XDG_DATA_HOME=%q) = %q, want %q", c.home, c.xdg, inst, c.want)
		}
	}
}
