package release

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"time"
)

// entry is one file of an archive: its path inside it, where its bytes
// come from (a file, or data), and whether it is a program.
type entry struct {
	name string
	src  string
	data []byte
	exec bool
}

// mode is the entry's file mode: fixed, whatever the file on disk has,
// so that an archive is the same on every machine.
func (e entry) mode() int64 {
	if e.exec {
		return 0o755
	}
	return 0o644
}

func (e entry) content() ([]byte, error) {
	if e.src == "" {
		return e.data, nil
	}
	b, err := os.ReadFile(e.src)
	if err != nil {
		return nil, fmt.Errorf("archive %s: %w", e.name, err)
	}
	return b, nil
}

// writeTarGz writes entries to file as a gzipped tar, each with mtime and
// no owner.
func writeTarGz(file string, entries []entry, mtime time.Time) (err error) {
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("create %s: %w", file, err)
	}
	defer closeInto(f, &err)
	zw := gzip.NewWriter(f)
	defer closeInto(zw, &err)
	tw := tar.NewWriter(zw)
	defer closeInto(tw, &err)
	for _, e := range entries {
		b, err := e.content()
		if err != nil {
			return err
		}
		h := &tar.Header{Typeflag: tar.TypeReg, Name: e.name, Mode: e.mode(), Size: int64(len(b)), ModTime: mtime, Format: tar.FormatPAX}
		if err := tw.WriteHeader(h); err != nil {
			return fmt.Errorf("%s: %s: %w", file, e.name, err)
		}
		if _, err := tw.Write(b); err != nil {
			return fmt.Errorf("%s: %s: %w", file, e.name, err)
		}
	}
	return nil
}

// writeZip writes entries to file as a zip, for Windows, whose users
// open zips without a tool.
func writeZip(file string, entries []entry, mtime time.Time) (err error) {
	f, err := os.Create(file)
	if err != nil {
		return fmt.Errorf("create %s: %w", file, err)
	}
	defer closeInto(f, &err)
	zw := zip.NewWriter(f)
	defer closeInto(zw, &err)
	for _, e := range entries {
		b, err := e.content()
		if err != nil {
			return err
		}
		h := &zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: mtime}
		h.SetMode(os.FileMode(e.mode()))
		w, err := zw.CreateHeader(h)
		if err != nil {
			return fmt.Errorf("%s: %s: %w", file, e.name, err)
		}
		if _, err := w.Write(b); err != nil {
			return fmt.Errorf("%s: %s: %w", file, e.name, err)
		}
	}
	return nil
}

// closeInto closes c and keeps its error when there was none before: a
// failed close of a writer is a truncated archive.
func closeInto(c io.Closer, err *error) {
	if cerr := c.Close(); cerr != nil && *err == nil {
		*err = fmt.Errorf("close: %w", cerr)
	}
}

// archiveEntries are a target's archive's files under its one top
// directory: the programs, LICENSE and README.md.
func archiveEntries(root, binDir string, t Target, version string, programs []string) []entry {
	top := t.archiveDir(version)
	var out []entry
	for _, p := range programs {
		exe := t.Exe(p)
		out = append(out, entry{name: path.Join(top, exe), src: filepath.Join(binDir, t.String(), exe), exec: true})
	}
	return append(out,
		entry{name: path.Join(top, "LICENSE"), src: filepath.Join(root, "LICENSE")},
		entry{name: path.Join(top, "README.md"), src: filepath.Join(root, "README.md")})
}
