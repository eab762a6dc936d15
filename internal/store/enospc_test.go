//go:build linux

package store

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/atreides-dev/atreides/internal/tmpfstest"
)

// TestDiskFull runs Update on a 512 KiB tmpfs that is full. The commit must
// fail with ENOSPC in the error chain and leave the previous state readable
// and unrecovered; once space is back, Updates work again. Without root it
// runs in a user and mount namespace (package tmpfstest).
func TestDiskFull(t *testing.T) {
	mnt := tmpfstest.Mount(t, "512k")
	if mnt == "" {
		return // ran in a namespace
	}

	s := Open(filepath.Join(mnt, ".atreides"))
	var notes []string
	s.OnRecover = func(msg string) { notes = append(notes, msg) }
	mustUpdate(t, s, func(tx *Tx) error { return tx.Put("a", "k", []byte("before")) })

	filler := fillDisk(t, mnt)

	big := bytes.Repeat([]byte("x"), 64<<10) // needs new pages: cannot fit
	err := s.Update(context.Background(), func(tx *Tx) error {
		if err := tx.Put("a", "k", []byte("after")); err != nil {
			return err
		}
		return tx.Put("a", "big", big)
	})
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Update on a full disk: %v, want ENOSPC in the chain", err)
	}
	t.Logf("full disk: %v", err)

	if v := mustGet(t, s, "a", "k"); string(v) != "before" {
		t.Errorf("after failed commit Get = %q, want before", v)
	}
	if len(notes) != 0 {
		t.Errorf("full disk treated as corruption: %v", notes)
	}

	if err := os.Remove(filler); err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, s, func(tx *Tx) error {
		if err := tx.Put("a", "k", []byte("after")); err != nil {
			return err
		}
		return tx.Put("a", "big", big)
	})
	if v := mustGet(t, s, "a", "big"); !bytes.Equal(v, big) {
		t.Errorf("big value after space came back: %d bytes", len(v))
	}
	if len(notes) != 0 {
		t.Errorf("recovery after disk full: %v", notes)
	}
}

// TestRecordDiskFull: on a full disk a record write that fits its slot
// still works (the file keeps its size, so it needs no new blocks); one
// that must grow the file fails with ENOSPC and keeps the previous value.
func TestRecordDiskFull(t *testing.T) {
	mnt := tmpfstest.Mount(t, "512k")
	if mnt == "" {
		return // ran in a namespace
	}
	s := Open(filepath.Join(mnt, ".atreides"))
	put := func(val []byte) error {
		return s.Update(context.Background(), func(tx *Tx) error { return tx.PutRecord("r", "k", val) })
	}
	get := func() []byte {
		var v []byte
		if err := s.View(context.Background(), func(tx *Tx) (err error) { v, err = tx.Record("r", "k"); return err }); err != nil {
			t.Fatal(err)
		}
		return v
	}
	if err := put([]byte("before")); err != nil {
		t.Fatal(err)
	}
	fillDisk(t, mnt)

	if err := put([]byte("fits")); err != nil {
		t.Errorf("a write within the slot on a full disk: %v", err)
	}
	if v := get(); string(v) != "fits" {
		t.Errorf("read %q, want fits", v)
	}
	if err := put(bytes.Repeat([]byte("x"), 64<<10)); !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("a write that grows the file on a full disk: %v, want ENOSPC", err)
	}
	if v := get(); string(v) != "fits" {
		t.Errorf("after the failed write read %q, want fits", v)
	}
	if m, _ := filepath.Glob(filepath.Join(mnt, ".atreides", "r", ".*tmp*")); len(m) != 0 {
		t.Errorf("temporary files left: %v", m)
	}
}

// fillDisk fills the file system at mnt to its last block with a file,
// whose path it returns.
func fillDisk(t *testing.T, mnt string) string {
	t.Helper()
	filler := filepath.Join(mnt, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	chunk := bytes.Repeat([]byte{1}, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			return filler
		}
	}
}
