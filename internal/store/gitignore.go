package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/confined"
)

// gitignoreText keeps machine state out of commits while config.yaml,
// intents.yaml and trace.jsonl (which teams review and share) stay visible.
// The ledger's queue holds records not chained yet: committed, they would
// be appended again on every clone. The audit trail (package audit) and the
// project log are this machine's.
const gitignoreText = `# Written by atreides. Machine state that must not be committed.
# config.yaml, intents.yaml and trace.jsonl are meant to be committed.
state.db
state.db.lock
*.corrupt-*
log
log.1
audit*.jsonl
trace.jsonl.pending/
`

// ensureGitignore writes .atreides/.gitignore unless one exists. It never
// replaces a file the user may have edited: the content goes to a temporary
// file that is then hard-linked into place, which fails if the name is taken,
// so two processes racing here cannot clobber each other or a user's file,
// and nobody ever sees a half-written .gitignore. Everything happens through
// dir, so a .gitignore committed as a link is left alone, not written
// through.
func ensureGitignore(dir *confined.Dir) error {
	const name = ".gitignore"
	if f, err := dir.OpenFile(name, os.O_RDONLY, 0); err == nil || !errors.Is(err, fs.ErrNotExist) {
		if f != nil {
			_ = f.Close()
		}
		return err
	}
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
	if err := dir.Link(tmp, name); err != nil && !errors.Is(err, fs.ErrExist) {
		return fmt.Errorf("write %s: %w", dir.Path(name), err)
	}
	return nil
}
