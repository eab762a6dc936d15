package store

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/confined"
)

// gitignoreText keeps machine state out of commits while what a team
// reviews and shares stays visible: config.yaml, intents.yaml,
// trace.jsonl, the specs (tasks and plans), rules and skills. The ledger's
// queue holds records not chained yet: committed, they would be appended
// again on every clone. The audit trail (package audit), the span spool and
// its exporter's cursor (package spans), the outbox of events waiting for
// the store (package outbox) and the project log are this machine's; so are
// install's backups (copies of this checkout's settings files, restored by
// uninstall here only), background tasks' output, session exports (a
// person's transcript, kept 50 deep) and saved outputs.
const gitignoreText = `# Written by atreides. Machine state that must not be committed.
# config.yaml, intents.yaml, trace.jsonl and specs/ are meant to be committed.
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
backups/
background/
exports/
.gitignore.tmp-*
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

// RefreshGitignore brings a .atreides/.gitignore that an older atreides
// wrote (exactly the text of one of its versions) up to date when a newer
// atreides keeps more machine state, such as the audit trail, so an
// existing project does not start showing it in git status. A file the
// user wrote or edited (a line added, changed or taken away) is left
// alone, and a missing one is not created: that is the store's first
// write's job.
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

// EnsureGitignore gives dir, a project's .atreides that exists, the
// current .gitignore: written when there is none, brought up to date when
// an older atreides wrote it, a user's left alone. It is for what writes
// into .atreides before any store does (install's backups), so that a
// commit made right after install does not take them.
func EnsureGitignore(dir string) error {
	d, err := confined.OpenDir(filepath.Dir(dir), filepath.Base(dir))
	if err != nil {
		return err
	}
	defer d.Close()
	if err := ensureGitignore(d); err != nil {
		return err
	}
	return refreshGitignore(d)
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

// staleGitignore reports whether text is exactly a .gitignore an older
// atreides wrote (previousGitignores): only then is it replaced. A file
// with a line added or taken away is the user's, and stays as it is.
func staleGitignore(text string) bool {
	if text == gitignoreText || !strings.HasPrefix(text, gitignoreHeader) {
		return false
	}
	sum := sha256.Sum256([]byte(text))
	return slices.Contains(previousGitignores(), hex.EncodeToString(sum[:]))
}

// gitignoreHeader is the first line of every .gitignore atreides wrote.
const gitignoreHeader = "# Written by atreides. Machine state that must not be committed.\n"

// previousGitignores are the sha256 digests of every gitignoreText an
// earlier atreides wrote, oldest first (from the history of this file).
// When gitignoreText changes, its old digest is added here.
func previousGitignores() []string {
	return []string{
		"3e7547179fec7e48c5913bec6cbb7a22ef3177063b10091eefb1b5e3ac1b51fb",
		"44d70fb15add8aebf98a45d28abe100ce8d7398ead561c046fc328efbf5d1abe",
		"f6617d55da2e59706d0cd1ea584fdab7d3d61e24b61e9fddfb79c1acc58b2971",
		"142b2887a124146aa9e1e21bee83c4d4e57b5fd661c35ab3c3533de49e35663f",
		"495276fb8b79f002affbc8a909ab88527f2623093c9613b91a38dc8953ae7eb6",
		"996963eacb96058d81ed72e2645cb616684cf85abee3920943b8f884af0824d2",
		"f05406ca8a6d69a9514554d4a9dd74cdf1c0ded933a8a426bcdea99ae24f7e47",
		"b7aa7740b13a72656fa1d7c76c8d6bb85cd1f6cceaebd1b63008cb1c28adaafb",
		"676102a75389055e30aca92fff3c3ae3ffcc7fdd2a7a86ed4af93988aa28b47d",
		"a8fd832f105518546e3074fc25ce1b5801d13a883797fd551cb33ce82d5ad81a",
		"0a973f4be789493360de8f87791b382a0f11aa1c96014c295405ad922b0912c7",
		"0556a271269c2aadfbfb0c3e4b105e23671ac3c069178cf36aecec7acb7f2e3c",
		"5060c1a92160c6328d81149e428573b3338d49ed75e79a85639f783a68fa4bfc",
	}
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

// Ignored reports whether atreides's .gitignore keeps name, an entry at
// the top of a project's .atreides (a directory when dir), out of
// commits: machine state, not meant to be committed. Purge's account of
// what a team may share derives from it, so that the two cannot drift.
func Ignored(name string, dir bool) bool {
	for _, line := range strings.Split(gitignoreText, "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pat, dirOnly := strings.CutSuffix(line, "/")
		if dirOnly && !dir {
			continue
		}
		if ok, _ := path.Match(pat, name); ok {
			return true
		}
	}
	return false
}
