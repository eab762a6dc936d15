package project

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/filelock"
)

// Forget drops the project at root from the registry of known projects
// ('atreides uninstall --purge'). The root is matched as written and with
// its links resolved, since a hook may have seen it either way. When no
// project is left the registry's files go too, so that a user who purges
// the only project has nothing of atreides's left in the state directory.
// It returns the files it removed or changed; none when root was not
// there.
func Forget(root string) ([]string, error) {
	base, rel, err := knownBase()
	if err != nil {
		return nil, err
	}
	d, err := confined.OpenDir(base, rel)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("projects registry: %w", err)
	}
	defer d.Close()
	lock, err := d.OpenFile(knownLock, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("projects registry: %w", err)
	}
	defer lock.Close()
	if err := filelock.Lock(lock, true); err != nil {
		return nil, fmt.Errorf("projects registry: lock: %w", err)
	}
	ps, err := readKnown(base, rel)
	if err != nil {
		return nil, err
	}
	roots := rootForms(root)
	left := slices.DeleteFunc(slices.Clone(ps), func(p KnownProject) bool { return slices.Contains(roots, p.Root) })
	file := d.Path(knownName)
	switch {
	case len(ps) == 0: // no registry: only the lock just made goes
		_ = d.Remove(knownLock)
		return nil, nil
	case len(left) > 0 && len(left) == len(ps):
		return nil, nil
	case len(left) > 0:
		data, err := json.Marshal(knownFile{Projects: left})
		if err == nil {
			err = d.ReplaceFile(knownName, append(data, '\n'), false)
		}
		if err != nil {
			return nil, fmt.Errorf("projects registry: %w", err)
		}
		return []string{file}, nil
	}
	// Nobody else is known: the registry and its lock go. A writer
	// waiting on the lock re-creates both, which is what it wants anyway.
	removed := []string{}
	for _, name := range []string{knownName, knownLock} {
		if err := d.Remove(name); err == nil {
			removed = append(removed, d.Path(name))
		} else if !errors.Is(err, fs.ErrNotExist) {
			return removed, fmt.Errorf("projects registry: %w", err)
		}
	}
	return removed, nil
}

// rootForms are root as written and with its links resolved.
func rootForms(root string) []string {
	forms := []string{filepath.Clean(root)}
	if r, err := filepath.EvalSymlinks(root); err == nil && r != forms[0] {
		forms = append(forms, r)
	}
	return forms
}
