package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/confined"
)

// gitignoreText keeps machine state out of commits while config.yaml,
// intents.yaml and trace.jsonl (which teams review and share) stay visible.
// The ledger's queue holds records not chained yet: committed, they would
// be appended again on every clone. The audit trail (package audit), the
// span spool and its exporter's cursor (package spans), the outbox of
// events waiting for the store (package outbox) and the project log are
// this machine's.
const gitignoreText = `# Written by atreides. Machine state that must not be committed.
# config.yaml, intents.yaml and trace.jsonl are meant to be committed.
state.db
state.db.lock
sessions/
project/
*.corrupt-*
log
log.1
audit*.jsonl
spans*.jsonl
spans.cursor
trace.jsonl.pending/
outputs/
config.cache
.config.cache.tmp-*
config.*.cache
.config.*.cache.tmp-*
project-id
outbox/
`

// ensureGitignore writes .atreides/.gitignore unless one exists. It never
// replaces a file the user may have edited: the content goes to a temporary
// file that is then hard-linked into place, which fails if the name is taken,
// so two processes racing here cannot clobber each other or a user's file,
// and nobody ever sees a half-written .gitignore. Everything happens through
// dir, so a .gitignore committed as a link is left alone, not written
// through.
func ensureGitignore(dir *confined.Dir) error {
	if f, err := dir.OpenFile(gitignoreName, os.O_RDONLY, 0); err == nil || !errors.Is(err, fs.ErrNotExist) {
		if f != nil {
			_ = f.Close()
		}
		return err
	}
	return writeGitignore(dir, dir.Link)
}

const gitignoreName = ".gitignore"

// RefreshGitignore brings a .atreides/.gitignore that atreides wrote (it
// starts with gitignoreText's first line) up to date when a newer atreides
// keeps more machine state, such as the audit trail, so an existing project
// does not start showing it in git status. A file the user wrote or edited
// (another first line, or lines atreides would not write) is left alone,
// and a missing one is not created: that is the store's first write's job.
// The state package calls it with its daily housekeeping, under the lock;
// the store itself when it creates a record set's directory, which an
// older .gitignore does not name.
func (s *Store) RefreshGitignore() error {
	dir, err := confined.OpenDir(s.base, s.name)
	if err != nil {
		return err
	}
	defer dir.Close()
	return refreshGitignore(dir)
}

// refreshGitignore is [Store.RefreshGitignore] in dir.
func refreshGitignore(dir *confined.Dir) error {
	old, err := dir.ReadFile(gitignoreName, 64<<10)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	if !staleGitignore(string(old)) {
		return nil
	}
	return writeGitignore(dir, dir.Rename)
}

// staleGitignore reports whether text is an older gitignoreText: its first
// line, and only lines gitignoreText has, but not all of them.
func staleGitignore(text string) bool {
	want := strings.Split(gitignoreText, "\n")
	have := strings.Split(text, "\n")
	if text == gitignoreText || len(have) == 0 || have[0] != want[0] {
		return false
	}
	for _, l := range have {
		if !slices.Contains(want, l) {
			return false
		}
	}
	return true
}

// writeGitignore writes gitignoreText to a temporary file and puts it in
// place with place: a link that fails on an existing name, or a rename
// that replaces it.
func writeGitignore(dir *confined.Dir, place func(old, new string) error) error {
	const name = gitignoreName
	f, err := dir.CreateTemp(name + ".tmp-*")
	if err != nil {
		return fmt.Errorf("write %s: %w", dir.Path(name), err)
	}
	tmp := filepath.Base(f.Name())
	defer dir.Remove(tmp)
	if err := f.Chmod(0o644); err != nil {
		_ = f.Close()
		return fmt.Errorf("write %s: %w", dir.Path(name), err)
	}
	_, err = f.WriteString(gitignoreText)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("write %s: %w", dir.Path(name), err)
	}
	if err := place(tmp, name); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("write %s: %w", dir.Path(name), err)
	}
	return nil
}
