package policy

import (
	"path/filepath"
	"runtime"
)

// npmScope is the npm scope of atreides's packages: the main package
// @atreides-dev/atreides and the platform packages
// @atreides-dev/atreides-<os>-<cpu> (internal/release writes them).
const npmScope = "@atreides-dev"

// NpmPackageDirs are the npm package directories self runs from, nil
// when it runs from none: the main package (whose bin/ holds the Node
// launcher or, after its postinstall, copies of the native programs, and
// whose lib/ steers the launcher) and this platform's package, which
// holds the programs. Either one rewritten replaces what every hook
// runs, so both are protected whichever of them self lies in. Names
// only, no file system access.
func NpmPackageDirs(self string) []string {
	bin := filepath.Dir(self)
	pkg := filepath.Dir(bin)
	scope := filepath.Dir(pkg)
	if self == "" || filepath.Base(bin) != "bin" || filepath.Base(scope) != npmScope {
		return nil
	}
	name := filepath.Base(pkg)
	platform := "atreides-" + npmPlatform(runtime.GOOS, runtime.GOARCH)
	if name != "atreides" && name != platform {
		return nil
	}
	return []string{filepath.Join(scope, "atreides"), filepath.Join(scope, platform)}
}

// npmPlatform is npm's name of a Go platform, as in the platform
// packages' names (process.platform-process.arch).
func npmPlatform(goos, goarch string) string {
	if goos == "windows" {
		goos = "win32"
	}
	if goarch == "amd64" {
		goarch = "x64"
	}
	return goos + "-" + goarch
}
