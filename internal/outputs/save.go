package outputs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/project"
)

// Dir is where saved outputs live, below the project root.
const Dir = project.DirName + "/outputs"

// ignoreAll keeps the saved outputs out of commits even where the store's
// own .gitignore is older than this directory or was edited by the user.
const ignoreAll = "# Written by atreides: saved tool outputs, never committed.\n*\n"

// Limits bound the saved outputs.
type Limits struct {
	Files int   // files kept at most
	Bytes int64 // their total size at most
}

// save writes a whole output to a new file (mode 0600, a unique name that
// starts with the time, so names sort oldest first) in root's outputs
// directory, then removes the oldest files beyond the limits, never the
// new one. It returns the new file's path.
func save(root, tool, text string, now time.Time, lim Limits) (string, error) {
	d, err := openDir(root)
	if err != nil {
		return "", err
	}
	defer d.Close()
	f, err := d.CreateTemp(now.UTC().Format("20060102T150405Z") + "-" + tool + "-*.txt")
	if err != nil {
		return "", fmt.Errorf("save the output: %w", err)
	}
	name := filepath.Base(f.Name())
	_, err = f.WriteString(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = d.Remove(name)
		return "", fmt.Errorf("save the output to %s: %w", d.Path(name), err)
	}
	if err := prune(d, name, lim); err != nil {
		return d.Path(name), fmt.Errorf("prune %s: %w", Dir, err)
	}
	return d.Path(name), nil
}

// openDir opens the outputs directory, making it (and its .gitignore) the
// first time. Nothing below the root is followed through a link.
func openDir(root string) (*confined.Dir, error) {
	d, err := confined.OpenDir(root, Dir)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return d, err
	}
	if d, err = confined.MkdirAll(root, Dir, 0o700); err != nil {
		return nil, err
	}
	if err := d.ReplaceFile(".gitignore", []byte(ignoreAll), false); err != nil {
		_ = d.Close()
		return nil, err
	}
	return d, nil
}

// prune removes the oldest saved outputs until at most lim.Files remain
// and they hold at most lim.Bytes, keeping the newest file, keep.
func prune(d *confined.Dir, keep string, lim Limits) error {
	es, err := d.Entries()
	if err != nil {
		return err
	}
	type file struct {
		name string
		size int64
	}
	var files []file
	var total int64
	for _, e := range es {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".txt") {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue // removed meanwhile
		}
		files = append(files, file{e.Name(), info.Size()})
		total += info.Size()
	}
	slices.SortFunc(files, func(a, b file) int { return strings.Compare(a.name, b.name) })
	var errs []error
	count := len(files)
	for _, f := range files {
		if count <= lim.Files && total <= lim.Bytes {
			break
		}
		if f.name == keep {
			continue
		}
		if err := d.Remove(f.name); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		count, total = count-1, total-f.size
	}
	return errors.Join(errs...)
}
