package trace

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// fullDisk is the ledger on a disk with room for budget more bytes: a
// write past it stores what fits and fails with ENOSPC, as write(2) does.
type fullDisk struct {
	ledgerFile
	budget int
}

func (d *fullDisk) Write(b []byte) (int, error) {
	if len(b) <= d.budget {
		d.budget -= len(b)
		return d.ledgerFile.Write(b)
	}
	n, _ := d.ledgerFile.Write(b[:d.budget])
	d.budget = 0
	return n, syscall.ENOSPC
}

func (f *fixture) diskWithRoom(budget int) {
	f.w.open = func(p string) (ledgerFile, error) {
		lf, err := openLedger(p)
		return &fullDisk{ledgerFile: lf, budget: budget}, err
	}
}

func TestFailedWriteIsCutBack(t *testing.T) {
	for _, budget := range []int{0, 1, 100, 300} {
		f := newFixture(t)
		f.add(2)
		before, _ := os.ReadFile(f.path)
		f.diskWithRoom(budget)
		if _, err := f.w.Append(record(3)); err == nil || !strings.Contains(err.Error(), "no space") {
			t.Fatalf("budget %d: append on a full disk: %v", budget, err)
		}
		after, _ := os.ReadFile(f.path)
		if !bytes.Equal(before, after) {
			t.Fatalf("budget %d: partial line left behind:\n%s", budget, after[len(before):])
		}
		if rep := f.verify(nil); !rep.OK || rep.Records != 2 || rep.TornBytes != 0 {
			t.Fatalf("budget %d: after the failure: %+v", budget, rep)
		}
		f.w.open = nil // space is back
		f.add(1)
		if rep := f.verify(nil); !rep.OK || rep.Records != 3 {
			t.Fatalf("budget %d: after recovery: %+v", budget, rep)
		}
	}
}

// A process killed inside write(2) leaves a line without a newline; before,
// every later append was glued to it and the ledger stayed broken. Now
// verify reports it and the next append keeps it aside.
func TestTornTailIsKeptAside(t *testing.T) {
	f := newFixture(t)
	f.add(2)
	whole, _ := os.ReadFile(f.path)
	third := rehashed(t, lines(t, f.path), 1, func(*Record) {}, 1)[2]
	torn := third[:len(third)/2]
	os.WriteFile(f.path, append(bytes.Clone(whole), torn...), 0o644)

	rep := f.verify(nil)
	if !rep.OK || rep.Records != 2 || rep.TornBytes != len(torn) {
		t.Fatalf("torn tail: %+v", rep)
	}
	res, err := f.w.Append(record(3))
	if err != nil || !hasNote(res.Notes, "incomplete record") {
		t.Fatalf("append after torn tail: %v %v", res.Notes, err)
	}
	aside, _ := filepath.Glob(f.path + ".corrupt-*")
	if len(aside) != 1 {
		t.Fatalf("kept aside: %v", aside)
	}
	if b, _ := os.ReadFile(aside[0]); !bytes.Equal(b, torn) {
		t.Fatalf("aside holds %q", b)
	}
	if rep := f.verify(nil); !rep.OK || rep.Records != 3 || rep.TornBytes != 0 {
		t.Fatalf("after repair: %+v", rep)
	}
}

// A whole record that lost only its newline gets it back; nothing is
// moved, nothing lost. (So deleting the newline after the signed last
// record does not make the writer throw that record away.)
func TestMissingNewlineIsAdded(t *testing.T) {
	f := newFixture(t)
	f.add(2)
	b, _ := os.ReadFile(f.path)
	os.WriteFile(f.path, bytes.TrimRight(b, "\n"), 0o644)
	if rep := f.verify(nil); !rep.OK || rep.Records != 2 {
		t.Fatalf("before: %+v", rep)
	}
	res, err := f.w.Append(record(3))
	if err != nil || !hasNote(res.Notes, "lost its newline") {
		t.Fatal(res.Notes, err)
	}
	if aside, _ := filepath.Glob(f.path + ".corrupt-*"); len(aside) != 0 {
		t.Fatalf("moved aside: %v", aside)
	}
	if rep := f.verify(nil); !rep.OK || rep.Records != 3 {
		t.Fatalf("after: %+v", rep)
	}
}

func TestQueuedRecordsAreAppendedInOrder(t *testing.T) {
	f := newFixture(t)
	f.add(1)
	for i := 0; i < 3; i++ {
		r := record(10 + i)
		r.Metadata.Atreides.Late = "test"
		if err := Queue(f.path, r); err != nil {
			t.Fatal(err)
		}
	}
	rep := f.verify(nil)
	if !rep.OK || rep.Missing != 3 || rep.Records != 1 {
		t.Fatalf("queued: %+v", rep)
	}
	res, err := f.w.Append(record(20))
	if err != nil || res.Head.Seq != 5 || !hasNote(res.Notes, "appended 3 queued") {
		t.Fatalf("drain: %+v %v", res, err)
	}
	rep = f.verify(nil)
	if !rep.OK || rep.Missing != 0 || rep.Records != 5 || rep.Late != 3 || rep.Head.Seq != 5 {
		t.Fatalf("after drain: %+v", rep)
	}
	entries, _ := Read(f.path)
	for i, want := range []int{1, 11, 12, 13, 21} {
		if got := entries[i].Record.Files[0].Conversations[0].Ranges[0].EndLine; got != want {
			t.Fatalf("record %d is %d, want %d (order)", i+1, got, want)
		}
	}
	if left, _ := os.ReadDir(PendingDir(f.path)); len(left) != 0 {
		t.Errorf("left in the queue: %v", left)
	}
}

// A drain that fails half way keeps the rest queued, and what was appended
// is signed.
func TestDrainOnFullDiskKeepsTheRest(t *testing.T) {
	f := newFixture(t)
	f.add(1)
	Queue(f.path, record(10))
	Queue(f.path, record(11))
	one := len(lines(t, f.path)[0]) + 1
	f.diskWithRoom(one + 30) // room for about one more record
	if _, err := f.w.Append(record(20)); err == nil {
		t.Fatal("append on a full disk succeeded")
	}
	rep := f.verify(nil)
	if !rep.OK || rep.Records+rep.Missing != 3 {
		t.Fatalf("%+v", rep)
	}
}
