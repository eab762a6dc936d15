package release

import (
	"fmt"
	"slices"
	"strings"
)

// Target is one platform a release is built for, in Go's names.
type Target struct {
	OS, Arch string
}

// DefaultTargets are the platforms a release is built for when none are
// named: the three systems on the two architectures people run agents on.
func DefaultTargets() []Target {
	return []Target{
		{"linux", "amd64"}, {"linux", "arm64"},
		{"darwin", "amd64"}, {"darwin", "arm64"},
		{"windows", "amd64"}, {"windows", "arm64"},
	}
}

// ParseTargets reads "linux/amd64,darwin/arm64"; only default targets
// are accepted, since the npm packages are named for them.
func ParseTargets(s string) ([]Target, error) {
	var out []Target
	for _, f := range strings.Split(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		os, arch, ok := strings.Cut(f, "/")
		t := Target{os, arch}
		if !ok || !slices.Contains(DefaultTargets(), t) {
			return nil, fmt.Errorf("unknown target %q: want os/arch, one of %s", f, targetList(DefaultTargets()))
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("no target in %q", s)
	}
	return out, nil
}

func targetList(ts []Target) string {
	names := make([]string, len(ts))
	for i, t := range ts {
		names[i] = t.OS + "/" + t.Arch
	}
	return strings.Join(names, ", ")
}

// String is "linux-amd64", the name of the target's directory under bin/.
func (t Target) String() string { return t.OS + "-" + t.Arch }

// Exe is a program's file name on the target.
func (t Target) Exe(program string) string {
	if t.OS == "windows" {
		return program + ".exe"
	}
	return program
}

// NpmOS and NpmCPU are the target in Node's names (process.platform,
// process.arch), which npm's "os" and "cpu" fields use.
func (t Target) NpmOS() string {
	if t.OS == "windows" {
		return "win32"
	}
	return t.OS
}

// NpmCPU: see NpmOS.
func (t Target) NpmCPU() string {
	if t.Arch == "amd64" {
		return "x64"
	}
	return t.Arch
}

// ArchiveName is the archive's file name for version (without "v").
func (t Target) ArchiveName(version string) string {
	ext := ".tar.gz"
	if t.OS == "windows" {
		ext = ".zip"
	}
	return t.archiveDir(version) + ext
}

// archiveDir is the one top directory inside the archive.
func (t Target) archiveDir(version string) string {
	return fmt.Sprintf("atreides_%s_%s_%s", version, t.OS, t.Arch)
}
