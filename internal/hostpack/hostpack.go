package hostpack

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/guard"
)

// Names of the packages and of the directories Write lays out under dist.
const (
	// Name is the plugin's, the marketplace's and the extension's name.
	Name = "atreides"
	// ClaudeDir and GeminiDir are the package directories under dist.
	ClaudeDir = "claude-plugin"
	GeminiDir = "gemini-extension"
	// License is the SPDX identifier written into every manifest.
	License = "Apache-2.0"

	homepage    = "https://github.com/atreides-dev/atreides"
	author      = "atreides contributors"
	description = "A shell-command guard, session orchestration, context and an audit log for your coding agent"
)

// programs are the programs each platform directory carries: atreides
// (the hooks) and atreides-mcp (the MCP server, found beside atreides).
var programs = []string{"atreides", guard.MCPBinary}

// target is one platform of the build output.
type target struct{ os, arch string }

func (t target) dir() string { return t.os + "-" + t.arch }

// exe is a program's file name on the target.
func (t target) exe(name string) string {
	if t.os == "windows" {
		return name + ".exe"
	}
	return name
}

// Write lays out dist/claude-plugin/ and dist/gemini-extension/ (each
// replaced whole) for every target found in dist/bin/, at version ("v0.3.0"
// is written as 0.3.0). LICENSE is read from dist or the nearest
// directory above it that has one (the repository root for a release).
func Write(dist, version string) error {
	license, err := findLicense(dist)
	if err != nil {
		return err
	}
	return WriteLicensed(dist, version, license)
}

// WriteLicensed is Write with the licence text given: a release whose
// output directory is outside the checkout passes the checkout's.
func WriteLicensed(dist, version string, license []byte) error {
	targets, err := findTargets(filepath.Join(dist, "bin"))
	if err != nil {
		return err
	}
	p := pack{dist: dist, version: strings.TrimPrefix(version, "v"), targets: targets, license: license}
	if p.version == "" {
		return errors.New("hostpack: no version")
	}
	if err := p.claude(filepath.Join(dist, ClaudeDir)); err != nil {
		return fmt.Errorf("hostpack: claude plugin: %w", err)
	}
	if err := p.gemini(filepath.Join(dist, GeminiDir)); err != nil {
		return fmt.Errorf("hostpack: gemini extension: %w", err)
	}
	return nil
}

// pack is one Write's inputs.
type pack struct {
	dist, version string
	targets       []target
	license       []byte
}

// findTargets lists the <os>-<arch> directories of bin, each of which
// must hold every program.
func findTargets(bin string) ([]target, error) {
	entries, err := os.ReadDir(bin)
	if err != nil {
		return nil, fmt.Errorf("hostpack: the build output: %w", err)
	}
	var out []target
	for _, e := range entries {
		goos, arch, ok := strings.Cut(e.Name(), "-")
		if !e.IsDir() || !ok {
			continue
		}
		t := target{goos, arch}
		for _, p := range programs {
			if fi, err := os.Stat(filepath.Join(bin, e.Name(), t.exe(p))); err != nil || !fi.Mode().IsRegular() {
				return nil, fmt.Errorf("hostpack: %s has no %s: build every program for each target", filepath.Join(bin, e.Name()), t.exe(p))
			}
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("hostpack: no <os>-<arch> directory in %s", bin)
	}
	slices.SortFunc(out, func(a, b target) int { return strings.Compare(a.dir(), b.dir()) })
	return out, nil
}

// findLicense reads LICENSE from dir or the nearest directory above it.
func findLicense(dir string) ([]byte, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("hostpack: %w", err)
	}
	for d := abs; ; d = filepath.Dir(d) {
		b, err := os.ReadFile(filepath.Join(d, "LICENSE"))
		if err == nil {
			return b, nil
		}
		if !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("hostpack: %w", err)
		}
		if filepath.Dir(d) == d {
			return nil, fmt.Errorf("hostpack: no LICENSE in %s or above it (the repository root has one)", abs)
		}
	}
}
