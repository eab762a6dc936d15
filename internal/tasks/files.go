package tasks

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// backupDir is where hand-edited copies of TODO.md are kept, below the
// specs directory.
const backupDir = "backup"

// maxTodo bounds a read of TODO.md (1,000 tasks make about 400 KB).
const maxTodo = 64 << 20

// writeFiles generates TODO.md, state.json and errors.json from the board
// and writes them together; it records the outcome in b.Files. A failure
// leaves the previous set whole and does not undo the change: the store
// is the truth, and the next write (or Recover) tries again.
func (r *Repo) writeFiles(b *taskboard.Tasks, now time.Time) {
	// Update has moved the generation on: the store holds the one before.
	r.record(b, now, b.Gen-1)
}

// record writes the files and records the outcome; committed is the
// generation the store holds (see recoverDir).
func (r *Repo) record(b *taskboard.Tasks, now time.Time, committed int) {
	sum, err := r.write(b, now, committed)
	if err != nil {
		b.Files.Err = err.Error()
		// On the board, so errors.json shows it once a write succeeds.
		Record(b, ErrorEvent{Type: "status_sync_failure", Severity: "high", Cause: "write the task files",
			Message: err.Error(), Time: now}, taskboard.TaskErrorContext{}, now)
		return
	}
	b.Files = taskboard.TaskFiles{Gen: b.Gen, TodoHash: sum, Written: now.UTC()}
}

// WriteFiles records a change a caller made to the board inside its own
// store transaction (a hook handler changing the board in the engine's
// transaction): it moves the generation on and writes the files, as
// Update does after its function. Call it once per change, last.
func (r *Repo) WriteFiles(b *taskboard.Tasks, now time.Time) {
	b.Gen++
	r.writeFiles(b, now)
}

// Regenerate writes the files of the board's current generation again,
// without changing the board (besides what it records of the write): for
// 'atreides task sync --write' and for Recover.
func (r *Repo) Regenerate(ctx context.Context) error {
	return r.Store.Update(ctx, func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			b := taskboard.Key.Of(p)
			r.record(b, r.Now().UTC(), b.Gen)
			return nil
		})
	})
}

// Recover finishes or undoes a write that a killed process left halfway,
// and writes the files again when they do not carry what the store last
// wrote, or when the last write failed. Read-only commands call it first.
// It looks under the store's shared lock and takes the exclusive one only
// when there is something to repair, so a clean project pays a directory
// listing and three short reads.
func (r *Repo) Recover(ctx context.Context) error {
	dirty := false
	err := r.View(ctx, func(b *taskboard.Tasks) error {
		dirty = r.needsRepair(b)
		return nil
	})
	if err != nil || !dirty {
		return err
	}
	return r.Regenerate(ctx)
}

// needsRepair reports whether the specs directory holds a write's
// leftovers, or files that are not the generation the store wrote.
func (r *Repo) needsRepair(b *taskboard.Tasks) bool {
	if b.Gen == 0 {
		return false
	}
	if b.Files.Gen < b.Gen {
		return true // the last write failed: try again
	}
	d, err := r.openSpecs(false)
	if err != nil {
		return false // nothing there, or refused: Check reports it
	}
	defer d.Close()
	names, _ := d.Names()
	for _, n := range names {
		if n == journalFile || isTemp(n) {
			return true
		}
	}
	for _, g := range fileGens(d) {
		if g.present && g.gen != b.Files.Gen {
			return true
		}
	}
	return false
}

// specsRel is the specs directory relative to the root, for links.
func (r *Repo) specsRel() string {
	rel, err := filepath.Rel(r.Root, r.SpecsDir())
	if err != nil {
		return r.SpecsDir()
	}
	return rel
}

// openSpecs opens the specs directory without following a link below
// the project root (it comes from the repository); an absolute specs
// directory is the user's own choice and followed up to its parent.
func (r *Repo) openSpecs(create bool) (*confined.Dir, error) { return r.openBelow(".", create) }

// openBackup opens the directory of TODO.md's hand-edited copies.
func (r *Repo) openBackup(create bool) (*confined.Dir, error) { return r.openBelow(backupDir, create) }

func (r *Repo) openBelow(sub string, create bool) (*confined.Dir, error) {
	base, rel := r.Root, filepath.Join(r.Opts.Dir, sub)
	if filepath.IsAbs(r.Opts.Dir) {
		// The user's own choice: trusted up to its last element, which is
		// created when missing.
		base, rel = confined.Split(r.Opts.Dir, 1)
		rel = filepath.Join(rel, sub)
	}
	if create {
		return confined.MkdirAll(base, rel, 0o755)
	}
	return confined.OpenDir(base, rel)
}

// write is the two-phase write of the three files; it returns the hash
// of the TODO.md it wrote.
func (r *Repo) write(b *taskboard.Tasks, now time.Time, committed int) (string, error) {
	d, err := r.openSpecs(true)
	if err != nil {
		return "", fmt.Errorf("specs directory: %w", err)
	}
	defer d.Close()
	ours, err := recoverDir(d, committed)
	if err != nil {
		return "", err
	}
	files := Render(b, r.specsRel())
	todoSum := sum(files.Todo)
	if err := r.keepHandEdit(d, append(ours, b.Files.TodoHash, todoSum), now); err != nil {
		return "", err
	}
	j, err := stage(d, b.Gen, &files)
	if err != nil {
		return "", err
	}
	if err := commit(d, j); err != nil {
		return "", err
	}
	return todoSum, nil
}

// stage is phase 1: each file to a temporary file, synced, then the
// journal naming them. On failure the temporary files are removed and
// the previous set is untouched.
func stage(d *confined.Dir, gen int, files *Rendered) (*journal, error) {
	j := &journal{Gen: gen}
	fail := func(err error) (*journal, error) {
		for _, e := range j.Files {
			_ = d.Remove(e.Temp)
		}
		return nil, err
	}
	for _, name := range fileNames {
		data := files.file(name)
		f, err := d.CreateTemp(tempPrefix(name) + "*")
		if err != nil {
			return fail(fmt.Errorf("write %s: %w", d.Path(name), err))
		}
		j.Files = append(j.Files, journalEntry{Name: name, Temp: filepath.Base(f.Name()), Sum: sum(data)})
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return fail(fmt.Errorf("write %s: %w", d.Path(name), err))
		}
	}
	if err := d.ReplaceFile(journalFile, j.encode(), true); err != nil {
		return fail(fmt.Errorf("write the journal %s: %w", d.Path(journalFile), err))
	}
	if err := d.Sync(); err != nil {
		_ = d.Remove(journalFile)
		return fail(err)
	}
	return j, nil
}

// commit is phase 2: the renames, the directory synced, the journal
// removed. If a rename fails the journal stays, so the next write or
// Recover finishes the renames (the files are the store's generation
// once it commits) or undoes them.
func commit(d *confined.Dir, j *journal) error {
	for _, e := range j.Files {
		if err := d.Rename(e.Temp, e.Name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("put %s in place: %w", d.Path(e.Name), err)
		}
	}
	if err := d.Sync(); err != nil {
		return err
	}
	if err := d.Remove(journalFile); err != nil {
		return fmt.Errorf("remove the journal: %w", err)
	}
	return d.Sync()
}

// recoverDir deals with what an interrupted write left: with a journal
// of the generation the store holds (gen: the store committed it), the
// renames are finished; with a journal of another generation (the store
// never committed it: the process died first) its temporary files are
// removed, and the caller's write replaces whatever it had already put in
// place, and the journal with it. Stray temporary files (a write killed in phase 1) are removed.
// It returns the hashes of TODO.md the journal vouches for, so that a
// TODO.md written by atreides is not mistaken for a hand edit.
func recoverDir(d *confined.Dir, gen int) ([]string, error) {
	var ours []string
	data, err := d.ReadFile(journalFile, maxJournal)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil && !errors.Is(err, confined.ErrRefused):
		return nil, fmt.Errorf("read the journal: %w", err)
	default:
		j, perr := parseJournal(data)
		if err == nil && perr == nil {
			for _, e := range j.Files {
				if e.Name == TodoFile {
					ours = append(ours, e.Sum)
				}
			}
			if j.Gen == gen {
				if err := commit(d, j); err != nil {
					return nil, fmt.Errorf("finish an interrupted write: %w", err)
				}
				break
			}
		}
		// Not the store's generation, unreadable or not ours: its temporary
		// files go below. The journal itself stays until the caller's write
		// replaces it, so that if that write fails too, the next one still
		// knows the TODO.md this one may have put in place.
	}
	names, err := d.Names()
	if err != nil {
		return nil, err
	}
	for _, n := range names {
		if isTemp(n) {
			if err := d.Remove(n); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return nil, err
			}
		}
	}
	return ours, nil
}

// keepHandEdit copies TODO.md to the backup directory when its content is
// none of the known hashes (what atreides wrote last, what an interrupted
// write put there, what is about to be written) and its seal is broken: a
// hand edit is never overwritten without a copy. A failed copy fails the write.
func (r *Repo) keepHandEdit(d *confined.Dir, known []string, now time.Time) error {
	data, err := d.ReadFile(TodoFile, maxTodo)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("read %s: %w", d.Path(TodoFile), err)
	}
	if slices.Contains(known, sum(data)) || sealed(data) {
		return nil
	}
	_, err = r.backup(data, now)
	if err != nil {
		return fmt.Errorf("back up the hand-edited %s: %w", d.Path(TodoFile), err)
	}
	return nil
}

// backup writes data to backup/TODO.<UTC time>.md, with a counter when
// that name is taken: an earlier backup is never overwritten.
func (r *Repo) backup(data []byte, now time.Time) (string, error) {
	bd, err := r.openBackup(true)
	if err != nil {
		return "", err
	}
	defer bd.Close()
	stem := "TODO." + now.UTC().Format("20060102T150405Z")
	for i := 1; ; i++ {
		name := stem + ".md"
		if i > 1 {
			name = fmt.Sprintf("%s-%d.md", stem, i)
		}
		f, err := bd.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", err
		}
		_, err = f.Write(data)
		if err == nil {
			err = f.Sync()
		}
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err == nil {
			err = bd.Sync()
		}
		if err != nil {
			_ = bd.Remove(name)
			return "", err
		}
		return bd.Path(name), nil
	}
}

func sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// fileGen is the generation one file carries.
type fileGen struct {
	name    string
	present bool
	gen     int
	ok      bool // the file carries a generation
}

// fileGens reads the generation of each of the three files.
func fileGens(d *confined.Dir) []fileGen {
	out := make([]fileGen, len(fileNames))
	for i, name := range fileNames {
		out[i].name = name
		f, err := d.OpenFile(name, os.O_RDONLY, 0)
		if err != nil {
			continue
		}
		head := make([]byte, genPrefix)
		n, _ := io.ReadFull(f, head)
		f.Close()
		out[i].present = true
		out[i].gen, out[i].ok = readGen(name, head[:n])
	}
	return out
}
