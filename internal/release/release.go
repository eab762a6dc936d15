package release

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/hostpack"
)

// Options are what a release is made of.
type Options struct {
	Root     string   // the module's checkout
	Out      string   // the output directory (see prepareOut)
	Snapshot bool     // any commit, version v0.0.0-snapshot-<commit>
	Targets  []Target // DefaultTargets when empty
	Jobs     int      // builds at once; 2 when 0
	Log      io.Writer
}

// Run makes a release into o.Out and returns its stamp.
func Run(ctx context.Context, o Options) (Stamp, error) {
	start := time.Now()
	if o.Targets == nil {
		o.Targets = DefaultTargets()
	}
	if o.Jobs == 0 {
		o.Jobs = 2
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	if _, err := os.Stat(filepath.Join(o.Root, "LICENSE")); err != nil {
		return Stamp{}, fmt.Errorf("the release ships the LICENSE file, and %s has none: %w", o.Root, err)
	}
	programs, err := Programs(o.Root)
	if err != nil {
		return Stamp{}, err
	}
	s, err := ReadStamp(ctx, gitIn(o.Root), o.Snapshot)
	if err != nil {
		return Stamp{}, err
	}
	if err := prepareOut(o.Out); err != nil {
		return Stamp{}, err
	}
	fmt.Fprintf(o.Log, "release %s (%s, %s): %d programs for %s\n", s.Version, s.Commit, s.Date(), len(programs), targetList(o.Targets))
	binDir := filepath.Join(o.Out, "bin")
	if err := buildAll(ctx, o.Root, binDir, s, o.Targets, programs, o.Jobs); err != nil {
		return s, err
	}
	fmt.Fprintf(o.Log, "built in %s\n", time.Since(start).Round(time.Millisecond))
	files, err := pack(o, s, binDir, programs)
	if err != nil {
		return s, err
	}
	// The Claude Code plugin marketplace and the Gemini CLI extension,
	// laid out from the same builds.
	license, err := os.ReadFile(filepath.Join(o.Root, "LICENSE"))
	if err != nil {
		return s, err
	}
	if err := hostpack.WriteLicensed(o.Out, s.SemVer(), license); err != nil {
		return s, fmt.Errorf("host packages: %w", err)
	}
	if err := writeChecksums(o.Out, files); err != nil {
		return s, err
	}
	fmt.Fprintf(o.Log, "wrote %d archives and npm packages into %s in %s\n", len(files), o.Out, time.Since(start).Round(time.Millisecond))
	return s, nil
}

// pack writes the archives and npm tarballs and returns their paths.
func pack(o Options, s Stamp, binDir string, programs []string) ([]string, error) {
	var files []string
	for _, t := range o.Targets {
		file := filepath.Join(o.Out, t.ArchiveName(s.SemVer()))
		entries := archiveEntries(o.Root, binDir, t, s.SemVer(), programs)
		write := writeTarGz
		if t.OS == "windows" {
			write = writeZip
		}
		if err := write(file, entries, s.Time); err != nil {
			return nil, err
		}
		files = append(files, file)
	}
	npmDir := filepath.Join(o.Out, "npm")
	if err := os.MkdirAll(npmDir, 0o755); err != nil {
		return nil, fmt.Errorf("npm directory: %w", err)
	}
	tgz, err := writeNpm(o.Root, binDir, npmDir, o.Targets, s.SemVer(), programs, s.Time)
	if err != nil {
		return nil, err
	}
	return append(files, tgz...), nil
}
