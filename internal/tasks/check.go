package tasks

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"strings"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// Kinds of problems with the generated files.
const (
	HandEdited = "hand-edited" // TODO.md differs from what atreides wrote
	Missing    = "missing"     // a generated file is not there
	Mixed      = "mixed"       // the files carry different generations
	Stale      = "stale"       // the last write failed: the files are older than the board
	Unfinished = "unfinished"  // an interrupted write's journal or temporary files
	Backups    = "backups"     // hand-edited copies of TODO.md wait to be looked at
	Refused    = "refused"     // the specs directory or a file is a link or not a regular file
)

// Problem is one thing wrong with the generated files, for 'task list'
// and doctor.
type Problem struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Check lists what is wrong with the specs directory's files for the
// board b: it reads them and changes nothing.
func (r *Repo) Check(b *taskboard.Tasks) []Problem {
	var out []Problem
	add := func(kind, format string, args ...any) {
		out = append(out, Problem{kind, fmt.Sprintf(format, args...)})
	}
	if b.Files.Gen < b.Gen || b.Files.Err != "" {
		add(Stale, "the task files are at generation %d, the board at %d: the last write failed (%s); run 'atreides task sync --write'", b.Files.Gen, b.Gen, orNone(b.Files.Err))
	}
	d, err := r.openSpecs(false)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			if b.Gen > 0 {
				add(Missing, "the specs directory %s is missing; run 'atreides task sync --write'", r.SpecsDir())
			}
			return out
		}
		return append(out, Problem{Refused, err.Error()})
	}
	defer d.Close()
	if names, err := d.Names(); err == nil {
		for _, n := range names {
			if n == journalFile || isTemp(n) {
				add(Unfinished, "an interrupted write left %s; the next atreides command finishes or removes it", d.Path(n))
			}
		}
	}
	gens := map[int]bool{}
	var seen []string
	for _, g := range fileGens(d) {
		switch {
		case !g.present && b.Gen > 0:
			add(Missing, "%s is missing; run 'atreides task sync --write'", d.Path(g.name))
		case g.present && !g.ok:
			add(Mixed, "%s carries no generation (edited by hand?)", d.Path(g.name))
		case g.present:
			gens[g.gen] = true
			seen = append(seen, fmt.Sprintf("%s %d", g.name, g.gen))
		}
	}
	if len(gens) > 1 {
		add(Mixed, "the task files are of different generations (%s): a write was interrupted; run 'atreides task sync --write'", strings.Join(seen, ", "))
	}
	if data, err := d.ReadFile(TodoFile, maxTodo); err == nil && sum(data) != b.Files.TodoHash && !sealed(data) {
		add(HandEdited, "%s was edited by hand since atreides wrote it; the next change keeps a copy in %s and rewrites it ('atreides task sync' shows the difference)", d.Path(TodoFile), r.backupPath())
	} else if errors.Is(err, confined.ErrRefused) {
		add(Refused, "%v", err)
	}
	if n := r.backupCount(); n > 0 {
		add(Backups, "%d hand-edited cop%s of TODO.md kept in %s: look at them, then delete them", n, plural(n, "y", "ies"), r.backupPath())
	}
	return out
}

func orNone(s string) string {
	if s == "" {
		return "no error recorded"
	}
	return s
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func (r *Repo) backupPath() string { return r.SpecsDir() + "/" + backupDir }

// backupCount counts the hand-edited copies of TODO.md.
func (r *Repo) backupCount() int {
	bd, err := r.openBackup(false)
	if err != nil {
		return 0
	}
	defer bd.Close()
	names, _ := bd.Names()
	n := 0
	for _, name := range names {
		if strings.HasPrefix(name, "TODO.") && strings.HasSuffix(name, ".md") {
			n++
		}
	}
	return n
}

// FileDiff is how one file differs from what the board generates.
type FileDiff struct {
	Name   string `json:"name"`
	Path   string `json:"path"`
	Status string `json:"status"` // same | differs | missing | refused
	// Diff is a unified diff of the file against the generated text, for
	// TODO.md (people edit it; the JSON files are for machines).
	Diff string `json:"diff,omitempty"`
}

// maxDiffLines bounds the diff shown for TODO.md.
const maxDiffLines = 200

// Diff compares each file with what the board generates now.
func (r *Repo) Diff(b *taskboard.Tasks) []FileDiff {
	files := Render(b, r.specsRel())
	d, derr := r.openSpecs(false)
	if d != nil {
		defer d.Close()
	}
	out := make([]FileDiff, 0, len(fileNames))
	for _, name := range fileNames {
		fd := FileDiff{Name: name, Path: r.SpecsDir() + "/" + name, Status: "same"}
		want := files.file(name)
		var got []byte
		err := derr
		if err == nil {
			got, err = d.ReadFile(name, maxTodo)
		}
		switch {
		case errors.Is(err, fs.ErrNotExist):
			fd.Status = "missing"
		case err != nil:
			fd.Status, fd.Diff = "refused", err.Error()
		case !bytes.Equal(got, want):
			fd.Status = "differs"
			if name == TodoFile {
				fd.Diff = UnifiedDiff("TODO.md (on disk)", "TODO.md (generated)", string(got), string(want), maxDiffLines)
			}
		}
		out = append(out, fd)
	}
	return out
}
