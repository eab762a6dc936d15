//go:build unix

package trace

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/confined/confinedtest"
)

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// A repository that commits the ledger, or .atreides, as a link to a file
// of the user's: the append is refused and nothing is written through the
// link; verify and read refuse it too.
func TestLinkedLedgerIsRefused(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, f *fixture, user string)
	}{
		{"trace.jsonl", func(t *testing.T, f *fixture, user string) { symlink(t, user, f.path) }},
		{".atreides", func(t *testing.T, f *fixture, user string) {
			evil := t.TempDir()
			symlink(t, user, filepath.Join(evil, FileName))
			symlink(t, evil, filepath.Dir(f.path))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			user := confinedtest.Outside(t)
			tc.plant(t, f, user)
			if _, err := f.w.Append(record(1)); !errors.Is(err, confined.ErrRefused) {
				t.Fatalf("append through a link: %v", err)
			}
			if err := Queue(f.path, record(2)); tc.name == ".atreides" && !errors.Is(err, confined.ErrRefused) {
				t.Fatalf("queue through a linked .atreides: %v", err)
			}
			if rep := f.verify(nil); rep.OK || rep.Problem == nil || !strings.Contains(rep.Problem.Msg, "symbolic link") {
				t.Errorf("verify of a linked ledger: %+v", rep)
			}
			if _, err := Read(f.path); !errors.Is(err, confined.ErrRefused) {
				t.Errorf("read: %v", err)
			}
			confinedtest.Untouched(t, user)
		})
	}
}

// A FIFO as the ledger hung whoever opened it for reading; now the append,
// verify and read refuse it at once.
func TestFIFOLedgerDoesNotHang(t *testing.T) {
	f := newFixture(t)
	os.MkdirAll(filepath.Dir(f.path), 0o755)
	if err := syscall.Mkfifo(f.path, 0o644); err != nil {
		t.Fatal(err)
	}
	confinedtest.Within(t, "append", func() {
		if _, err := f.w.Append(record(1)); !errors.Is(err, confined.ErrRefused) {
			t.Errorf("append to a FIFO: %v", err)
		}
	})
	confinedtest.Within(t, "verify", func() {
		if rep := f.verify(nil); rep.OK || rep.Problem == nil || !strings.Contains(rep.Problem.Msg, "named pipe") {
			t.Errorf("verify of a FIFO: %+v", rep)
		}
	})
	confinedtest.Within(t, "read", func() {
		if _, err := Read(f.path); !errors.Is(err, confined.ErrRefused) {
			t.Errorf("read: %v", err)
		}
	})
}

// The queue directory committed as a link to a directory of the user's:
// nothing is queued into it or read from it, and an append still adds its
// own record and says why the queue was skipped.
func TestLinkedQueueIsRefused(t *testing.T) {
	f := newFixture(t)
	f.add(1)
	evil := t.TempDir()
	planted, _ := json.Marshal(record(7))
	os.WriteFile(filepath.Join(evil, "20260101T000000.000000000Z-x.json"), planted, 0o644)
	symlink(t, evil, PendingDir(f.path))

	if err := Queue(f.path, record(2)); !errors.Is(err, confined.ErrRefused) {
		t.Fatalf("queue into a linked directory: %v", err)
	}
	if es, _ := os.ReadDir(evil); len(es) != 1 {
		t.Fatalf("written into the link's target: %v", es)
	}
	if n := Missing(f.path); n != 0 {
		t.Errorf("Missing counts %d records behind a link", n)
	}
	res, err := f.w.Append(record(3))
	if err != nil || res.Head.Seq != 2 || !hasNote(res.Notes, "queued trace records not read") || !hasNote(res.Notes, "symbolic link") {
		t.Fatalf("append beside a linked queue: %+v %v", res, err)
	}
	if _, err := os.Stat(filepath.Join(evil, "20260101T000000.000000000Z-x.json")); err != nil {
		t.Errorf("the planted record was removed: %v", err)
	}
	if rep := f.verify(nil); !rep.OK || rep.Records != 2 {
		t.Errorf("%+v", rep)
	}
}

// Inside a real queue directory, a record that is a link (to a record the
// attacker wrote elsewhere, or to a file of the user's) is not a queued
// record; an unreadable one is kept aside in the queue under a .corrupt-
// name and the rest are appended.
func TestQueueEntriesThatAreNotRecords(t *testing.T) {
	f := newFixture(t)
	f.add(1)
	user := confinedtest.Outside(t)
	Queue(f.path, record(10))
	q := PendingDir(f.path)
	symlink(t, user, filepath.Join(q, "20000101T000000.000000000Z-link.json"))
	os.WriteFile(filepath.Join(q, "20000101T000000.000000001Z-bad.json"), []byte("{not json"), 0o644)
	if n := Missing(f.path); n != 2 {
		t.Fatalf("Missing = %d, want the record and the unreadable file", n)
	}
	res, err := f.w.Append(record(20))
	if err != nil || res.Head.Seq != 3 || !hasNote(res.Notes, "unreadable") {
		t.Fatalf("%+v %v", res, err)
	}
	confinedtest.Untouched(t, user)
	kept, _ := filepath.Glob(filepath.Join(q, "*-bad.json.corrupt-*"))
	if len(kept) != 1 || Missing(f.path) != 0 {
		t.Fatalf("kept aside %v, missing %d", kept, Missing(f.path))
	}
}

// The key and the checkpoints live in the user's config directory, which
// may itself be a link (dotfile managers); the files in it may not.
func TestConfigFilesAreNotFollowed(t *testing.T) {
	t.Run("the config directory is a link", func(t *testing.T) {
		f := newFixture(t)
		real := t.TempDir()
		link := filepath.Join(t.TempDir(), "atreides")
		symlink(t, real, link)
		f.a.Dir = link
		f.add(2)
		if rep := f.verify(nil); !rep.OK || rep.Head.Source != SourceCheckpoint {
			t.Fatalf("%+v", rep)
		}
		if _, err := os.Stat(filepath.Join(real, KeyFile)); err != nil {
			t.Fatal(err)
		}
	})
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, a *Anchor, user string)
	}{
		{"the key is a link", func(t *testing.T, a *Anchor, user string) { symlink(t, user, a.KeyPath()) }},
		{"a checkpoint is a link", func(t *testing.T, a *Anchor, user string) { symlink(t, user, a.CheckpointPaths()[0]) }},
		{"the checkpoints directory is a link", func(t *testing.T, a *Anchor, user string) {
			symlink(t, filepath.Dir(user), filepath.Join(a.Dir, CheckpointsDir))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			user := confinedtest.Outside(t)
			tc.plant(t, f.a, user)
			res, err := f.w.Append(record(1))
			if err != nil || res.Head.Seq != 1 {
				t.Fatalf("the record must be appended all the same: %+v %v", res, err)
			}
			if !hasNote(res.Notes, "symbolic link") {
				t.Errorf("notes do not name the link: %q", res.Notes)
			}
			confinedtest.Untouched(t, user)
			if es, _ := os.ReadDir(filepath.Dir(user)); len(es) != 1 {
				t.Errorf("written beside the user's file: %v", es)
			}
		})
	}
}
