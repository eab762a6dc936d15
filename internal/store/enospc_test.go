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

	// Fill the file system to the last block.
	filler := filepath.Join(mnt, "filler")
	f, err := os.Create(filler)
	if err != nil {
		t.Fatal(err)
	}
	chunk := bytes.Repeat([]byte{1}, 4096)
	for {
		if _, err := f.Write(chunk); err != nil {
			if !errors.Is(err, syscall.ENOSPC) {
				t.Fatal(err)
			}
			break
		}
	}
	_ = f.Close()

	big := bytes.Repeat([]byte("x"), 64<<10) // needs new pages: cannot fit
	err = s.Update(context.Background(), func(tx *Tx) error {
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
