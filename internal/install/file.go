package install

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
)

// settingsFile is a settings file as read, ready to be edited and written.
type settingsFile struct {
	path   string // as given, for messages
	target string // the real file: path with symlinks resolved
	exists bool
	data   []byte
	mode   fs.FileMode
	format Format
	doc    *Node
	jsonc  bool // the host accepts comments in this file
	bk     backups
}

// loadSettings reads and parses path. A missing file, or one holding only
// whitespace (as left by `touch`), is an empty object. Invalid JSON is
// refused with the file, line and column, because the hosts silently
// ignore a settings file they cannot parse; comments are accepted when
// jsonc is set (the host strips them) and kept when the file is written.
// backupDir is where writes keep backups and the undo record (see
// backup.go).
func loadSettings(path string, jsonc bool, backupDir string) (*settingsFile, error) {
	f, err := readSettings(path, backupDir)
	if err != nil {
		return nil, err
	}
	f.jsonc = jsonc
	if len(bytes.TrimSpace(f.data)) == 0 {
		f.doc = NewObject()
		return f, nil
	}
	f.format = DetectFormat(f.data)
	doc, err := f.parse(f.data)
	if err != nil {
		return nil, parseError(path, err)
	}
	f.doc = doc
	return f, nil
}

// readSettings reads path (through a symlink) as it is, unparsed: a missing
// file has no data and exists unset.
func readSettings(path, backupDir string) (*settingsFile, error) {
	f := &settingsFile{path: path, target: path, mode: 0o644, format: DefaultFormat}
	if fi, err := os.Lstat(path); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		// Dotfile managers symlink settings files; renaming over the link
		// would silently replace it with a plain file, so edit its target.
		t, err := filepath.EvalSymlinks(path)
		if err != nil {
			return nil, fmt.Errorf("resolve symlink %s: %w", path, err)
		}
		f.target = t
	}
	f.bk = backupsFor(backupDir, f.target)
	data, fi, err := readRegular(f.target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return f, nil
	case errors.Is(err, errNotRegular):
		return nil, fmt.Errorf("settings %s is not a regular file", path)
	case err != nil:
		return nil, fmt.Errorf("read settings: %w", err)
	}
	f.exists, f.data, f.mode = true, data, fi.Mode().Perm()
	return f, nil
}

// errNotRegular is readRegular's error for a FIFO, device or directory.
var errNotRegular = errors.New("not a regular file")

// readRegular reads the file at path when it is a regular one. The open
// does not wait: a FIFO in a settings file's place (the project's files
// are the agent's to make) would otherwise hold the session start's
// health check, which reads them, until the host gives up on the hook.
func readRegular(path string) ([]byte, fs.FileInfo, error) {
	file, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, nil, err
	}
	defer file.Close()
	fi, err := file.Stat()
	if err != nil {
		return nil, nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, nil, errNotRegular
	}
	data, err := io.ReadAll(file)
	return data, fi, err
}

// parse parses the file's text, comments stripped for a JSONC host (they
// are blanked in place, so offsets stay those of the text).
func (f *settingsFile) parse(data []byte) (*Node, error) {
	if f.jsonc {
		return Parse(stripJSONComments(data))
	}
	return Parse(data)
}

// ParseError is returned when a settings file is not valid JSON. It names
// the file and position in the usual file:line:col form.
type ParseError struct {
	Path string
	Err  *SyntaxError
	// Note replaces the generic explanation after the position and message
	// for a host that does not silently ignore the file (HookSpec.ParseNote).
	Note string
}

func (e *ParseError) Error() string {
	msg := e.Err.Msg
	if e.Err.Hint != "" {
		msg += " (" + e.Err.Hint + ")"
	}
	note := e.Note
	if note == "" {
		note = "the agent host silently ignores a settings file it cannot parse, so atreides left it untouched: fix the file and run again"
	}
	return fmt.Sprintf("%s:%d:%d: not valid JSON: %s; %s", e.Path, e.Err.Line, e.Err.Column, msg, note)
}

func (e *ParseError) Unwrap() error { return e.Err }

func parseError(path string, err error) error {
	var se *SyntaxError
	if errors.As(err, &se) {
		return &ParseError{Path: path, Err: se}
	}
	return fmt.Errorf("parse %s: %w", path, err)
}

// ShapeError is returned when a settings file is valid JSON of the wrong
// shape (an array, "hooks" that is not an object, ...).
type ShapeError struct {
	Path string
	Msg  string
}

func (e *ShapeError) Error() string {
	return fmt.Sprintf("%s: %s; atreides left the file untouched", e.Path, e.Msg)
}

// render is the edited document as text: an edit of the file's own text
// (see EncodeOver), or a new file in the default layout. It is decoded
// again and checked before anything is written, so the host is never
// handed a file it would silently ignore.
func (f *settingsFile) render() ([]byte, error) {
	var out []byte
	if f.exists && f.doc.src.end != 0 {
		out = f.doc.EncodeOver(f.data, f.format)
	} else {
		out = f.doc.Encode(f.format)
	}
	back, err := f.parse(out)
	if err != nil {
		return nil, fmt.Errorf("internal error: generated settings for %s do not parse: %w", f.path, err)
	}
	if !Equal(back, f.doc) {
		return nil, fmt.Errorf("internal error: generated settings for %s do not round-trip", f.path)
	}
	return out, nil
}

// saveInstall writes the document after an install and keeps what
// uninstall needs to undo it (see backups.saveInstall): first is set when
// the file held nothing of atreides's before.
func (f *settingsFile) saveInstall(first bool) (string, error) {
	out, err := f.render()
	if err != nil {
		return "", err
	}
	var start *undo
	if first {
		start = &undo{Path: f.target, Existed: f.exists, Mode: f.mode, Dirs: missingDirs(filepath.Dir(f.target))}
	}
	return f.bk.saveInstall(start, f.exists, f.data, out, f.write)
}

// saveUninstall writes the document after atreides's entries were removed
// from it. A file that is still exactly what install wrote gets its
// original content back byte for byte, or is removed, with the directories
// install created for it, when install created it.
func (f *settingsFile) saveUninstall() (string, error) {
	return f.saveUninstallOf(f.render)
}

// saveUninstallOf is saveUninstall with the edited text from render.
func (f *settingsFile) saveUninstallOf(render func() ([]byte, error)) (string, error) {
	u := f.bk.load()
	if u != nil && u.Written != digest(f.data) {
		u = nil
	}
	var out []byte
	var err error
	switch {
	case u != nil && u.Existed:
		out, err = f.bk.original()
	case u == nil:
		// (A file install created and nobody changed since holds only
		// what atreides wrote, such as Gemini's MCP server next to the
		// hooks being removed: it goes whole.)
		out, err = render()
	}
	if err != nil {
		return "", err
	}
	if out == nil {
		// Created by install, and nothing else is left in it.
		backup, err := f.remove()
		if err == nil && u != nil {
			removeDirs(u.Dirs)
		}
		f.bk.forget()
		return backup, err
	}
	backup, err := f.write(out)
	if err == nil {
		f.bk.forget()
	}
	return backup, err
}

// unchangedOnDisk refuses to go on when the file changed since it was
// read: hosts (Claude Code's "always allow" answers) write these files too.
func (f *settingsFile) unchangedOnDisk() error {
	now, err := os.ReadFile(f.target)
	if f.exists != (err == nil) || (err != nil && !errors.Is(err, fs.ErrNotExist)) || !bytes.Equal(now, f.data) {
		return fmt.Errorf("%s changed while atreides was editing it; run the command again", f.path)
	}
	return nil
}

// write replaces the file with out atomically, after keeping its previous
// content in the backups. It returns the backup path ("" when there was no
// previous file).
func (f *settingsFile) write(out []byte) (string, error) {
	if err := os.MkdirAll(filepath.Dir(f.target), 0o755); err != nil {
		return "", fmt.Errorf("create settings directory: %w", err)
	}
	if err := f.unchangedOnDisk(); err != nil {
		return "", err
	}
	if f.exists && f.mode&0o200 == 0 {
		// Replacing via rename would succeed in a writable directory, but a
		// read-only settings file is a statement we should not override.
		return "", fmt.Errorf("%s is read-only; make it writable (chmod u+w) if atreides should edit it", f.path)
	}
	backup := ""
	if f.exists {
		var err error
		if backup, err = f.bk.keepPrevious(f.data); err != nil {
			return "", err
		}
	}
	if err := WriteAtomic(f.target, out, f.mode); err != nil {
		return "", fmt.Errorf("write settings: %w", err)
	}
	return backup, nil
}

// remove deletes the file install created, keeping its content in the
// backups first.
func (f *settingsFile) remove() (string, error) {
	if err := f.unchangedOnDisk(); err != nil {
		return "", err
	}
	backup, err := f.bk.keepPrevious(f.data)
	if err != nil {
		return "", err
	}
	if err := os.Remove(f.target); err != nil {
		return "", fmt.Errorf("remove %s: %w", f.path, err)
	}
	return backup, nil
}

// WriteAtomic replaces path with data so that a reader (or a crash) sees
// either the old or the new file, never a torn one: temp file in the same
// directory, fsync, rename, fsync the directory.
func WriteAtomic(path string, data []byte, mode fs.FileMode) (err error) {
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("create temp file: %w", err)
	}
	defer func() {
		if err != nil {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err = tmp.Write(data); err != nil {
		return fmt.Errorf("write %s: %w", tmp.Name(), err)
	}
	// CreateTemp makes 0600; give the file the mode of the one it replaces.
	if err = tmp.Chmod(mode); err != nil {
		return fmt.Errorf("chmod %s: %w", tmp.Name(), err)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("sync %s: %w", tmp.Name(), err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("close %s: %w", tmp.Name(), err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return fmt.Errorf("rename into place: %w", err)
	}
	if d, derr := os.Open(dir); derr == nil {
		// Best effort: some filesystems refuse to fsync a directory, and
		// the rename has already happened.
		_ = d.Sync()
		_ = d.Close()
	}
	return nil
}
