package review

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/project"
)

// Every file a review reads or writes is below the project's .atreides or
// its specs directory, which come from the repository: they are opened
// through package confined, so a link committed in their place (a report
// aimed at ~/.bashrc) is refused, never followed.

// maxFile bounds a record or report read back.
const maxFile = 8 << 20

// runsRel is where the review records are, relative to the root.
func runsRel() string { return filepath.Join(project.DirName, "reviews", "runs") }

// locate splits p, relative to root or absolute (a specs directory the
// user configured outside the project), into the directory trusted as it
// is and the part below it that is never followed.
func locate(root, p string) (base, rel string) {
	if filepath.IsAbs(p) {
		return filepath.Dir(p), filepath.Base(p)
	}
	return root, p
}

// writeFile replaces the file p whole, creating its directories.
func writeFile(root, p string, data []byte) error {
	base, rel := locate(root, p)
	d, err := confined.MkdirAll(base, filepath.Dir(rel), 0o755)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.ReplaceFile(filepath.Base(rel), data, false)
}

// readFile reads the file p, at most maxFile bytes.
func readFile(root, p string) ([]byte, error) {
	base, rel := locate(root, p)
	return confined.ReadFile(base, rel, maxFile)
}

// reserve creates the record file of a new id exclusively: false when
// another review has it.
func reserve(root, id string) (bool, error) {
	d, err := confined.MkdirAll(root, runsRel(), 0o700)
	if err != nil {
		return false, err
	}
	defer d.Close()
	f, err := d.OpenFile(id+".json", os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if errors.Is(err, os.ErrExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	return true, f.Close()
}

// records counts the review records, where the next id starts looking.
func records(root string) int {
	d, err := confined.OpenDir(root, runsRel())
	if err != nil {
		return 0
	}
	defer d.Close()
	names, _ := d.Names()
	return len(names)
}
