package install

import "path/filepath"

// TextFile is a configuration file edited as text, in a format install
// keeps no document of (Codex's config.toml): the host's code makes the
// edit, and install applies the same rules as to JSON settings (a symlink
// is edited through, backups and the undo record are kept, the write is
// atomic, and uninstall of a file still as install left it gives the
// bytes from before back).
type TextFile struct {
	Host      string
	Path      string
	BackupDir string
	// What names what is installed, for the report ("atreides MCP server").
	What string
}

// Read is the file's text: nil, and exists unset, for a missing file.
func (t TextFile) Read() (data []byte, exists bool, err error) {
	f, err := readSettings(t.Path, t.BackupDir)
	if err != nil {
		return nil, false, err
	}
	return f.data, f.exists, nil
}

// Install writes what edit makes of the file's text (nil for a missing
// file); edit says what it did, and ActionUnchanged writes nothing. item
// names what was added or updated, for the report.
func (t TextFile) Install(item string, edit func(data []byte) ([]byte, Action, error)) (Report, error) {
	r := Report{Host: t.Host, Path: t.Path, what: t.What}
	f, err := readSettings(t.Path, t.BackupDir)
	if err != nil {
		return r, err
	}
	out, action, err := edit(f.data)
	if err != nil || action == ActionUnchanged {
		r.Action = action
		return r, err
	}
	r.Created, r.Action = !f.exists, action
	var first *undo
	if action == ActionInstalled {
		r.Added = []string{item}
		first = &undo{Path: f.target, Existed: f.exists, Mode: f.mode, Dirs: missingDirs(filepath.Dir(f.target))}
	} else {
		r.Updated = []string{item}
	}
	r.Backup, err = f.bk.saveInstall(first, f.exists, f.data, out, f.write)
	return r, err
}

// Uninstall removes item with edit, which returns nil when the file holds
// nothing of ours: a file still as install left it gets its bytes from
// before back (or goes, with the directories install created, when install
// created it); otherwise edit's text is written.
func (t TextFile) Uninstall(item string, edit func(data []byte) ([]byte, error)) (Report, error) {
	r := Report{Host: t.Host, Path: t.Path, Action: ActionNothingToDo, what: t.What}
	f, err := readSettings(t.Path, t.BackupDir)
	if err != nil || !f.exists {
		return r, err
	}
	out, err := edit(f.data)
	if err != nil || out == nil {
		return r, err
	}
	r.Action, r.Removed = ActionRemoved, []string{item}
	r.Backup, err = f.saveUninstallOf(func() ([]byte, error) { return out, nil })
	return r, err
}
