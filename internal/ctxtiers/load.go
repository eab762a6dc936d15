package ctxtiers

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/sanitize"
)

// Dir is where the tiers' files live, relative to the project root.
const Dir = ".atreides/context"

// bases are the two halves of the context, loaded in this order: the
// reusable part before the project's own.
var bases = [...]string{"core", "project"}

// Bounds on what one set reads: a file larger than maxFile is named, not
// read (a context file is a page of facts, not a dump), and a folder's
// files past maxFiles are not looked at.
const (
	maxFile  = 32 << 10
	maxFiles = 64
)

// file is one context file of a set: its path below Dir and its text,
// or, when it could not be read whole, why not.
type file struct {
	rel, text string
	tooBig    bool
}

// load reads the set named by sub ("" for the top level, else a
// "commands/NAME" or "agents/ID"): under each base, the file sub.md, then
// the .md files of the folder sub, in name order. What is refused or
// unreadable is logged and left out; a missing folder is no set.
func load(root, sub string, logf func(string, ...any)) []file {
	var out []file
	for _, base := range bases {
		if sub != "" {
			out = append(out, readOne(root, path.Join(base, path.Dir(sub)), path.Base(sub)+".md", logf)...)
		}
		out = append(out, readDir(root, path.Join(base, sub), logf)...)
	}
	return out
}

// readDir reads the .md files of the folder rel below Dir.
func readDir(root, rel string, logf func(string, ...any)) []file {
	d, err := confined.OpenDir(root, filepath.FromSlash(path.Join(Dir, rel)))
	if err != nil {
		report(rel, err, logf)
		return nil
	}
	defer d.Close()
	es, err := d.Entries()
	if err != nil {
		report(rel, err, logf)
		return nil
	}
	var out []file
	n := 0
	for _, e := range es {
		if !strings.HasSuffix(e.Name(), ".md") || e.IsDir() {
			continue
		}
		if n++; n > maxFiles {
			logf("context tiers: %s has more than %d files; the rest are not loaded", path.Join(Dir, rel), maxFiles)
			break
		}
		out = append(out, readIn(d, rel, e.Name(), logf)...)
	}
	return out
}

// readOne reads the file name of the folder rel below Dir, if it exists.
func readOne(root, rel, name string, logf func(string, ...any)) []file {
	d, err := confined.OpenDir(root, filepath.FromSlash(path.Join(Dir, rel)))
	if err != nil {
		report(rel, err, logf)
		return nil
	}
	defer d.Close()
	return readIn(d, rel, name, logf)
}

// readIn reads name in d (the folder rel): refused when it is a link or
// not a regular file, named when it is too large.
func readIn(d *confined.Dir, rel, name string, logf func(string, ...any)) []file {
	f := file{rel: path.Join(rel, name)}
	fh, err := d.OpenFile(name, os.O_RDONLY, 0)
	if err != nil {
		report(f.rel, err, logf)
		return nil
	}
	defer fh.Close()
	// At most one byte past the bound is read: a file that grew past it
	// since it was opened is named like one that was already too big.
	data, err := io.ReadAll(io.LimitReader(fh, maxFile+1))
	switch {
	case err != nil:
		report(f.rel, err, logf)
		return nil
	case len(data) > maxFile:
		f.tooBig = true
	default:
		f.text = clean(data)
	}
	return []file{f}
}

// report logs why a folder or file was left out; a missing one is no
// news.
func report(rel string, err error, logf func(string, ...any)) {
	if errors.Is(err, fs.ErrNotExist) {
		return
	}
	logf("context tiers: %s left out: %v", path.Join(Dir, rel), err)
}

// clean is a file's text as it may go before the model: valid UTF-8,
// secrets masked, control characters other than newlines and tabs
// dropped (an escape sequence in a file an agent wrote must not reach a
// terminal that shows the context).
func clean(data []byte) string {
	s := string(data)
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = sanitize.Secrets(s)
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\t' || r >= 0x20 && r != 0x7f && (r < 0x80 || r > 0x9f) {
			return r
		}
		return -1
	}, s)
	return strings.TrimSpace(s)
}

// validName reports whether a command's or agent's name may name a
// folder: lower-case letters, digits, '-', '_' and '.', not first, at
// most 64; anything else (a path, "..") loads nothing.
func validName(s string) bool {
	if s == "" || len(s) > 64 || s[0] == '.' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// sizeNote is a file's size in words for the left-out line.
func sizeNote(f file) string {
	if f.tooBig {
		return fmt.Sprintf("over %d KB", maxFile>>10)
	}
	return fmt.Sprintf("%d bytes", len(f.text))
}
