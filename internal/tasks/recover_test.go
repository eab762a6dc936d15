package tasks

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// setBoard stores b as the project's board, as a committed change would.
func setBoard(t *testing.T, r *Repo, b *taskboard.Tasks) {
	t.Helper()
	err := r.Store.Update(context.Background(), func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error { *taskboard.Key.Of(p) = *b; return nil })
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestRecovery puts the specs directory in each state a killed write can
// leave (phase 1 done or not, the journal written or not, some renames
// done) and checks that recovery leaves one whole generation: the new one
// when the store committed it, the old one when it did not.
func TestRecovery(t *testing.T) {
	const (
		old = 1
		new = 2
	)
	tests := []struct {
		name      string
		committed int    // the generation the store holds
		journal   string // "" none, "ok", "garbage", "temp" (only the journal's own temp file)
		renamed   []string
		temps     bool // the temporary files of generation 2 exist (those not renamed)
		want      int  // the generation of every file after recoverDir
	}{
		{name: "journal and all temps, store committed", committed: new, journal: "ok", temps: true, want: new},
		{name: "half renamed, store committed", committed: new, journal: "ok", temps: true, renamed: []string{TodoFile}, want: new},
		{name: "all renamed, journal left", committed: new, journal: "ok", renamed: fileNames, want: new},
		{name: "temps only (phase 1 cut short)", committed: old, temps: true, want: old},
		{name: "journal's own temp only", committed: old, journal: "temp", temps: true, want: old},
		{name: "journal of a generation the store never committed", committed: old, journal: "ok", temps: true, want: old},
		{name: "garbage journal", committed: old, journal: "garbage", temps: true, want: old},
		// The old files were replaced before the store committed: recoverDir
		// cannot bring them back, the rewrite from the store does (below).
		{name: "half renamed, store not committed", committed: old, journal: "ok", temps: true, renamed: []string{TodoFile, StateFile}, want: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := newRepo(t)
			add(t, r, "one")
			b1 := storedBoard(t, r)
			b2 := *b1
			b2.List = append([]taskboard.Task(nil), b1.List...)
			if _, err := Add(&b2, NewTask{Title: "two"}, filesT0); err != nil {
				t.Fatal(err)
			}
			b2.Gen = new
			files := map[int]Rendered{old: Render(b1, r.specsRel()), new: Render(&b2, r.specsRel())}
			if tc.committed == new {
				// A change whose renames failed: the store holds it, with the
				// files recorded at the old generation.
				b2.Files = b1.Files
				b2.Files.Err = "rename failed"
				setBoard(t, r, &b2)
			}
			dir := r.SpecsDir()
			write := func(name string, data []byte) {
				t.Helper()
				if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			j := journal{Gen: new}
			for _, name := range fileNames {
				f := files[new]
				j.Files = append(j.Files, journalEntry{Name: name, Temp: tempPrefix(name) + "abc", Sum: sum(f.file(name))})
				switch {
				case contains(tc.renamed, name):
					write(name, f.file(name))
				case tc.temps:
					write(tempPrefix(name)+"abc", f.file(name))
				}
			}
			switch tc.journal {
			case "ok":
				write(journalFile, j.encode())
			case "garbage":
				write(journalFile, []byte(`{"generation":2,"files":[{"name":"../../etc/passwd","temp":".TODO.md.tmp-abc"}]}`))
			case "temp":
				write(tempPrefix(journalFile)+"xyz", j.encode())
			}

			d, err := r.openSpecs(false)
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			if _, err := recoverDir(d, tc.committed); err != nil {
				t.Fatal(err)
			}
			for _, n := range specFiles(t, r) {
				if isTemp(n) || n == journalFile && tc.committed == new {
					t.Errorf("left: %s", n)
				}
			}
			if tc.want != 0 {
				for _, name := range fileNames {
					got, _ := os.ReadFile(filepath.Join(dir, name))
					if f := files[tc.want]; !bytes.Equal(got, f.file(name)) {
						t.Errorf("%s is not generation %d", name, tc.want)
					}
				}
			}
			// What a read-only command does: afterwards the files are the
			// store's generation, and atreides' own files were not taken for
			// hand edits.
			if err := r.Recover(context.Background()); err != nil {
				t.Fatal(err)
			}
			b := assertInSync(t, r)
			if got := strings.Join(specFiles(t, r), " "); got != "TODO.md errors.json state.json" {
				t.Errorf("left after Recover: %s", got)
			}
			if b.Gen != tc.committed {
				t.Errorf("board at %d", b.Gen)
			}
			if bk, _ := filepath.Glob(filepath.Join(dir, backupDir, "*")); len(bk) != 0 {
				t.Errorf("atreides' own TODO.md was backed up as a hand edit: %v", bk)
			}
			if p := r.Check(b); len(p) != 0 {
				t.Errorf("Check after recovery = %v", p)
			}
		})
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func TestRecoverOnCleanProjectWritesNothing(t *testing.T) {
	r := newRepo(t)
	if err := r.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(r.SpecsDir()); !os.IsNotExist(err) {
		t.Errorf("Recover on a project without tasks made the specs dir: %v", err)
	}
	add(t, r, "one")
	before := storedBoard(t, r).Files.Written
	r.Now = func() time.Time { return filesT0.Add(time.Hour) }
	if err := r.Recover(context.Background()); err != nil {
		t.Fatal(err)
	}
	if after := storedBoard(t, r).Files.Written; !after.Equal(before) {
		t.Errorf("Recover rewrote files that were in sync")
	}
}

func TestCheckReportsMixedAndMissing(t *testing.T) {
	r := newRepo(t)
	add(t, r, "one")
	state1, _ := os.ReadFile(filepath.Join(r.SpecsDir(), StateFile))
	add(t, r, "two")
	if err := os.WriteFile(filepath.Join(r.SpecsDir(), StateFile), state1, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(r.SpecsDir(), ErrorsFile)); err != nil {
		t.Fatal(err)
	}
	p := r.Check(storedBoard(t, r))
	if !hasKind(p, Mixed) || !hasKind(p, Missing) || hasKind(p, HandEdited) {
		t.Errorf("Check = %v", p)
	}
}
