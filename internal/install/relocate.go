package install

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
)

// CopyBackups copies the undo records of the backup directory from into
// to, for the same files moved elsewhere by move: each record is renamed
// for its file's new path, its paths are moved, and the file's original
// content goes with it, so that an install run on a copy of the files
// (atreides init previews one so) decides as it would on the real ones.
// The previous contents (.prev) are not copied: nothing decides by them.
func CopyBackups(from, to string, move func(path string) string) error {
	entries, err := os.ReadDir(from)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("backups: %w", err)
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || !e.Type().IsRegular() {
			continue
		}
		old := backups{dir: from, name: name}
		u := old.load()
		if u == nil || u.Path == "" {
			continue
		}
		orig, err := os.ReadFile(old.entry(".orig"))
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("backups: %w", err)
		}
		moved := *u
		moved.Path = move(u.Path)
		moved.Dirs = nil
		for _, d := range u.Dirs {
			moved.Dirs = append(moved.Dirs, move(d))
		}
		if err := backupsFor(to, moved.Path).record(&moved, orig); err != nil {
			return err
		}
	}
	return nil
}
