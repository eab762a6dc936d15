package install

import (
	"os"
	"path/filepath"
)

// OwnFile is a file that is wholly atreides's (OpenCode's plugin): it is
// written whole and atomically, and the directories made for it are
// recorded in the backup directory, for Remove to take away again.
type OwnFile struct {
	Path      string
	BackupDir string // "" keeps no record of the directories made
}

// Write writes data to the file; created says the file is new, and then
// the directories made for it are recorded.
func (o OwnFile) Write(data []byte, created bool) error {
	bk := backupsFor(o.BackupDir, o.Path)
	made := missingDirs(filepath.Dir(o.Path))
	if err := os.MkdirAll(filepath.Dir(o.Path), 0o755); err != nil {
		return err
	}
	if err := WriteAtomic(o.Path, data, 0o644); err != nil {
		return err
	}
	if !created {
		return nil
	}
	// The file is wholly ours; the record only remembers the directories
	// made for it, for uninstall to remove.
	return bk.record(&undo{Path: o.Path, Dirs: made, Written: digest(data)}, nil)
}

// Remove removes the file and the directories recorded as made for it,
// those that are empty.
func (o OwnFile) Remove() error {
	if err := os.Remove(o.Path); err != nil {
		return err
	}
	bk := backupsFor(o.BackupDir, o.Path)
	if u := bk.load(); u != nil {
		removeDirs(u.Dirs)
		bk.forget()
	}
	return nil
}
