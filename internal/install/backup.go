package install

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/store"
)

// Backups live in one directory of atreides's own, never beside the
// user's files: <project>/.atreides/backups for a project's files, the
// user's state directory for the user's (see BackupDir). For each file
// install has edited there are up to three entries, named after the file
// and a hash of its path:
//
//	<name>.prev  the content before atreides's latest write to it
//	<name>.orig  the content before atreides first added itself
//	<name>.json  the undo record: whether the file existed, the directories
//	             install created for it, and a hash of what install wrote
//
// Uninstall restores .orig byte for byte (or removes the file and the
// directories it created) when the file is still exactly what install
// wrote. When someone changed it since (a host records a permission, the
// user edits it), uninstall removes atreides's entries from it instead,
// leaving the rest of the text as it is.

// undo is the record of one file.
type undo struct {
	Path    string      `json:"path"`
	Existed bool        `json:"existed"`
	Mode    fs.FileMode `json:"mode"`
	Dirs    []string    `json:"dirs,omitempty"` // created by install, deepest first
	Written string      `json:"written"`        // sha256 of what install last wrote
}

// backups is the backup directory for one file ("" keeps none: tests).
type backups struct {
	dir  string
	name string // entry name for the file
}

func backupsFor(dir, path string) backups {
	if dir == "" {
		return backups{}
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		abs = path
	}
	h := sha256.Sum256([]byte(abs))
	return backups{dir: dir, name: filepath.Base(path) + "-" + hex.EncodeToString(h[:6])}
}

func (b backups) entry(ext string) string { return filepath.Join(b.dir, b.name+ext) }

func digest(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// load returns the file's undo record, or nil.
func (b backups) load() *undo {
	if b.dir == "" {
		return nil
	}
	data, err := os.ReadFile(b.entry(".json"))
	if err != nil {
		return nil
	}
	var u undo
	if json.Unmarshal(data, &u) != nil {
		return nil
	}
	return &u
}

// keepPrevious stores content before a write and returns its path.
func (b backups) keepPrevious(data []byte) (string, error) {
	if b.dir == "" {
		return "", nil
	}
	if err := b.mkdir(); err != nil {
		return "", err
	}
	p := b.entry(".prev")
	if err := WriteAtomic(p, data, 0o600); err != nil {
		return "", fmt.Errorf("write backup: %w", err)
	}
	return p, nil
}

// record stores the undo record u, and orig as the file's first content.
func (b backups) record(u *undo, orig []byte) error {
	if b.dir == "" {
		return nil
	}
	if err := b.mkdir(); err != nil {
		return err
	}
	if orig != nil {
		if err := WriteAtomic(b.entry(".orig"), orig, 0o600); err != nil {
			return fmt.Errorf("write backup: %w", err)
		}
	}
	data, _ := json.MarshalIndent(u, "", "  ") // plain fields: cannot fail
	return WriteAtomic(b.entry(".json"), append(data, '\n'), 0o600)
}

// mkdir makes the backup directory. A project's is in its .atreides,
// which install may be the first to write: its .gitignore, which keeps the
// backups (copies of this checkout's files) out of commits, is written
// now rather than by the first hook (best effort: a failure shows the
// backups in git status, no worse).
func (b backups) mkdir() error {
	if err := os.MkdirAll(b.dir, 0o700); err != nil {
		return fmt.Errorf("create backup directory: %w", err)
	}
	if parent := filepath.Dir(b.dir); filepath.Base(parent) == ".atreides" {
		_ = store.EnsureGitignore(parent)
	}
	return nil
}

// forget drops the undo record and the original content.
func (b backups) forget() {
	if b.dir == "" {
		return
	}
	_ = os.Remove(b.entry(".json"))
	_ = os.Remove(b.entry(".orig"))
}

// original is the content recorded before install first wrote the file.
func (b backups) original() ([]byte, error) {
	data, err := os.ReadFile(b.entry(".orig"))
	if err != nil {
		return nil, fmt.Errorf("read the original content: %w", err)
	}
	return data, nil
}

// missingDirs are the directories MkdirAll(dir) would create, deepest first.
func missingDirs(dir string) []string {
	var out []string
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil || !errors.Is(err, fs.ErrNotExist) {
			return out
		}
		out = append(out, d)
		if filepath.Dir(d) == d {
			return out
		}
	}
}

// removeDirs removes directories install created, deepest first, as long
// as they are empty: anything put there since stays, with its directory.
func removeDirs(dirs []string) {
	for _, d := range dirs {
		if os.Remove(d) != nil {
			return
		}
	}
}

// BackupDir is where install keeps backups for a settings file of a scope:
// the project's .atreides/backups for project and local files, and for the
// user's files <state>/atreides/backups, where state is $XDG_STATE_HOME or
// ~/.local/state. Not ~/.atreides: a .atreides directory in the home
// directory would make every directory under it without its own marker
// look like one atreides project.
func BackupDir(scope Scope, projectDir, home, xdgStateHome string) string {
	if scope != ScopeUser {
		return filepath.Join(projectDir, ".atreides", "backups")
	}
	return filepath.Join(project.UserStateDir(home, xdgStateHome), "backups")
}

// saveInstall writes out, an install's new content of a file that held
// data (exists says whether it was there), and keeps what uninstall needs
// to undo it. first is the undo record to start when the file held
// nothing of atreides's before, else nil: then a file only atreides wrote
// since keeps its original, and one changed by someone else loses it
// (uninstall removes atreides's entries instead of restoring). It returns
// the backup of the previous content ("" for a new file).
func (b backups) saveInstall(first *undo, exists bool, data, out []byte, write func([]byte) (string, error)) (string, error) {
	u := b.load()
	var orig []byte
	switch {
	case first != nil:
		u = first
		if exists {
			orig = append([]byte{}, data...)
		}
	case u != nil && exists && u.Written == digest(data):
	default:
		u = nil
		b.forget()
	}
	backup, err := write(out)
	if err != nil || u == nil {
		return backup, err
	}
	u.Written = digest(out)
	return backup, b.record(u, orig)
}
