package trace

import (
	"crypto/ed25519"
	"path/filepath"
	"testing"
)

// The ledger sits on $TMPDIR: point it at a disk (TMPDIR=/var/tmp) when
// /tmp is a tmpfs.

// BenchmarkAppend is one append without a checkpoint.
func BenchmarkAppend(b *testing.B) {
	w := &Writer{Path: filepath.Join(b.TempDir(), FileName)}
	for b.Loop() {
		if _, err := w.Append(record(1)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAppendSigned is what the hook pays per append: the append plus
// a signed checkpoint written to the config directory. A fresh Anchor per
// append, as each hook process has, reads the key every time.
func BenchmarkAppendSigned(b *testing.B) {
	root, dir := b.TempDir(), b.TempDir()
	path := filepath.Join(root, FileName)
	for b.Loop() {
		w := &Writer{Path: path, Anchor: NewAnchor(dir, root)}
		if _, err := w.Append(record(1)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSign is the signature alone.
func BenchmarkSign(b *testing.B) {
	_, k, _ := ed25519.GenerateKey(nil)
	msg := Checkpoint{Seq: 1, Hash: Sum(nil)}.message()
	for b.Loop() {
		ed25519.Sign(k, msg)
	}
}

// BenchmarkSeal is the team store's part of an append in the hook: the
// record sealed against the head (the store writes it in the event's
// transaction, one more statement).
func BenchmarkSeal(b *testing.B) {
	head := Head{Seq: 41, Hash: Sum([]byte("prev"))}
	for b.Loop() {
		r := &Record{Files: []File{{Path: "src/a.go"}}, Metadata: Metadata{Atreides: &Meta{Change: Modify}}}
		if _, _, err := Seal(r, head); err != nil {
			b.Fatal(err)
		}
	}
}
