package release

import (
	"embed"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// NpmMain is the main npm package; each platform has its own, named
// NpmMain-<os>-<cpu> in Node's names. Every manifest says license.
const (
	NpmMain = "@atreides-dev/atreides"
	license = "Apache-2.0"
)

//go:embed npm/*.js
var npmFiles embed.FS

// packageJSON is the part of package.json that the packages use.
type packageJSON struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	License              string            `json:"license"`
	Repository           string            `json:"repository,omitempty"`
	Bin                  map[string]string `json:"bin,omitempty"`
	Scripts              map[string]string `json:"scripts,omitempty"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
	Engines              map[string]string `json:"engines,omitempty"`
}

const repository = "https://github.com/atreides-dev/atreides"

// npmPlatformName is the platform package of t.
func npmPlatformName(t Target) string {
	return NpmMain + "-" + t.NpmOS() + "-" + t.NpmCPU()
}

// tarballName is the file name npm pack gives a package: the scope's @
// dropped and its / made a -.
func tarballName(name, version string) string {
	return strings.ReplaceAll(strings.TrimPrefix(name, "@"), "/", "-") + "-" + version + ".tgz"
}

func jsonFile(name string, v any) (entry, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return entry{}, fmt.Errorf("%s: %w", name, err)
	}
	return entry{name: name, data: append(b, '\n')}, nil
}

// platformPackage is the files of t's package: its programs in bin/
// (no "bin" field: they are reached through the main package).
func platformPackage(root, binDir string, t Target, version string, programs []string) ([]entry, error) {
	pj, err := jsonFile("package/package.json", packageJSON{
		Name:            npmPlatformName(t),
		Version:         version,
		Description:     fmt.Sprintf("The atreides programs for %s-%s; installed by %s.", t.NpmOS(), t.NpmCPU(), NpmMain),
		License:         license,
		Repository:      repository,
		OS:              []string{t.NpmOS()},
		CPU:             []string{t.NpmCPU()},
		PreferUnplugged: true,
	})
	if err != nil {
		return nil, err
	}
	out := []entry{pj,
		{name: "package/LICENSE", src: filepath.Join(root, "LICENSE")},
		{name: "package/README.md", data: []byte(fmt.Sprintf("# %s\n\nThe atreides programs for %s-%s. Install %s, not this package: npm picks it\nfor your platform.\n", npmPlatformName(t), t.NpmOS(), t.NpmCPU(), NpmMain))},
	}
	for _, p := range programs {
		exe := t.Exe(p)
		out = append(out, entry{name: "package/bin/" + exe, src: filepath.Join(binDir, t.String(), exe), exec: true})
	}
	return out, nil
}

// mainPackage is the files of the main package: the Node launcher as
// bin/atreides, the postinstall script, and the platform packages as
// optional dependencies at exactly this version.
func mainPackage(root string, targets []Target, version string, programs []string) ([]entry, error) {
	deps := map[string]string{}
	for _, t := range targets {
		deps[npmPlatformName(t)] = version
	}
	pj, err := jsonFile("package/package.json", packageJSON{
		Name:                 NpmMain,
		Version:              version,
		Description:          "Guardrails and orchestration for AI coding agents, through their hosts' hooks.",
		License:              license,
		Repository:           repository,
		Bin:                  map[string]string{"atreides": "bin/atreides"},
		Scripts:              map[string]string{"postinstall": "node install.js"},
		OptionalDependencies: deps,
		Engines:              map[string]string{"node": ">=18"},
	})
	if err != nil {
		return nil, err
	}
	list, err := jsonFile("package/lib/programs.json", programs)
	if err != nil {
		return nil, err
	}
	out := []entry{pj, list,
		{name: "package/LICENSE", src: filepath.Join(root, "LICENSE")},
		{name: "package/README.md", src: filepath.Join(root, "README.md")},
	}
	for _, f := range []struct {
		src, name string
		exec      bool
	}{{"launcher.js", "bin/atreides", true}, {"platform.js", "lib/platform.js", false}, {"postinstall.js", "install.js", false}} {
		b, err := npmFiles.ReadFile("npm/" + f.src)
		if err != nil {
			return nil, fmt.Errorf("npm file %s: %w", f.src, err)
		}
		out = append(out, entry{name: "package/" + f.name, data: b, exec: f.exec})
	}
	return out, nil
}

// writeNpm writes the main and platform tarballs into dir and returns
// their paths.
func writeNpm(root, binDir, dir string, targets []Target, version string, programs []string, mtime time.Time) ([]string, error) {
	m, err := mainPackage(root, targets, version, programs)
	if err != nil {
		return nil, err
	}
	file := filepath.Join(dir, tarballName(NpmMain, version))
	if err := writeTarGz(file, m, mtime); err != nil {
		return nil, err
	}
	files := []string{file}
	for _, t := range targets {
		p, err := platformPackage(root, binDir, t, version, programs)
		if err != nil {
			return nil, err
		}
		file := filepath.Join(dir, tarballName(npmPlatformName(t), version))
		if err := writeTarGz(file, p, mtime); err != nil {
			return nil, err
		}
		files = append(files, file)
	}
	return files, nil
}
