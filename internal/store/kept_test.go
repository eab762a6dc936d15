package store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// serverRead reads key's record in an Update run with c, as a server's
// event does.
func serverRead(t *testing.T, s *Store, c *Committer, key string) string {
	t.Helper()
	var v []byte
	ctx := WithCommitter(context.Background(), c, nil)
	mustUpdateCtx(t, ctx, s, func(tx *Tx) (err error) {
		v, err = tx.Record(testSet, key)
		return err
	})
	return string(v)
}

// needKeeping skips a test of the files a Committer keeps where it keeps
// none (keepsFiles).
func needKeeping(t *testing.T) {
	t.Helper()
	if !keepsFiles {
		t.Skip("a Committer keeps no files open on this platform")
	}
}

// keptFile is the descriptor c keeps of key's record file; nil: none.
func keptFile(c *Committer, s *Store, key string) *os.File {
	c.kept.mu.Lock()
	defer c.kept.mu.Unlock()
	if e := c.kept.files[recordPath(s, key)]; e != nil {
		return e.f
	}
	return nil
}

// TestKeptRecordIsTheFilesValue: a server's read of a record it kept is
// the value the file holds, whatever another process did to the file
// between two of its events: what a store without a Committer reads.
func TestKeptRecordIsTheFilesValue(t *testing.T) {
	needKeeping(t)
	big := strings.Repeat("b", 3*recordPage)
	tests := []struct {
		name   string
		change func(t *testing.T, s *Store)
		want   string
	}{
		{"nothing", func(*testing.T, *Store) {}, "v2"},
		{"another store writes", func(t *testing.T, s *Store) {
			putRecord(t, Open(s.Dir()), "k", []byte("hook"))
		}, "hook"},
		{"another store writes the same bytes", func(t *testing.T, s *Store) {
			putRecord(t, Open(s.Dir()), "k", []byte("v2"))
		}, "v2"},
		{"another store outgrows the file", func(t *testing.T, s *Store) {
			putRecord(t, Open(s.Dir()), "k", []byte(big))
		}, big},
		{"another store removes it", func(t *testing.T, s *Store) {
			mustUpdate(t, Open(s.Dir()), func(tx *Tx) error { return tx.DeleteRecord(testSet, "k") })
		}, ""},
		{"the state directory is made again", func(t *testing.T, s *Store) {
			if err := os.RemoveAll(s.Dir()); err != nil {
				t.Fatal(err)
			}
			putRecord(t, Open(s.Dir()), "k", []byte("anew"))
		}, "anew"},
		{"the value's bytes change under the same header", func(t *testing.T, s *Store) {
			// v2 is in slot 1, v1 in slot 0: the damaged slot 1 is
			// passed over.
			f, err := os.OpenFile(recordPath(s, "k"), os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt([]byte("V"), int64(recordPage+recordHeader+len("k"))); err != nil {
				t.Fatal(err)
			}
		}, "v1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			c := NewCommitter()
			defer c.Close()
			lazyPut(t, s, c, "k", "v1") // a new file: slot 0
			lazyPut(t, s, c, "k", "v2") // kept, written through it: slot 1
			f := keptFile(c, s, "k")
			if got := serverRead(t, s, c, "k"); got != "v2" || f == nil || keptFile(c, s, "k") != f {
				t.Fatalf("read %q; kept %p, then %p: want v2 from the same kept file", got, f, keptFile(c, s, "k"))
			}
			tt.change(t, s)
			got := serverRead(t, s, c, "k")
			ref, err := getRecord(t, s, "k")
			if got != tt.want || got != string(ref) {
				t.Errorf("read %q, want %q (a store without a Committer reads %q, %v)", got, tt.want, ref, err)
			}
			if again := serverRead(t, s, c, "k"); again != got {
				t.Errorf("read again: %q, want %q", again, got)
			}
		})
	}
}

// TestKeptRecordsAreBounded: a server keeps at most maxKeptFiles files
// open, and none once its Committer is closed.
func TestKeptRecordsAreBounded(t *testing.T) {
	needKeeping(t)
	s, _ := newStore(t)
	c := NewCommitter()
	for i := range maxKeptFiles + 8 {
		key := fmt.Sprintf("k%d", i)
		putRecord(t, s, key, []byte("v"))
		if got := serverRead(t, s, c, key); got != "v" {
			t.Fatalf("%s: read %q", key, got)
		}
	}
	c.kept.mu.Lock()
	n := len(c.kept.files)
	c.kept.mu.Unlock()
	if n == 0 || n > maxKeptFiles {
		t.Errorf("%d files kept, want 1 to %d", n, maxKeptFiles)
	}
	if err := c.Close(); err != nil {
		t.Fatal(err)
	}
	if got := serverRead(t, s, c, "k0"); got != "v" || keptFile(c, s, "k0") != nil {
		t.Errorf("after Close: read %q, kept %v", got, keptFile(c, s, "k0") != nil)
	}
}

// keptDirOf is the handle c keeps of s's state directory; nil: none.
func keptDirOf(c *Committer, s *Store) *keptDir {
	c.dirs.mu.Lock()
	defer c.dirs.mu.Unlock()
	if hs := c.dirs.idle[s.Dir()]; len(hs) > 0 {
		return hs[len(hs)-1]
	}
	return nil
}

// TestKeptDirIsTheProjects: a server's Update goes through the state
// directory, lock file and record sets its Committer kept only while
// they are the project's: one made again, or a lock file replaced, is
// not used (its writes would land where nobody reads, its lock exclude
// nobody).
func TestKeptDirIsTheProjects(t *testing.T) {
	needKeeping(t)
	remake := func(rel string) func(t *testing.T, s *Store) {
		return func(t *testing.T, s *Store) {
			if err := os.RemoveAll(filepath.Join(s.Dir(), rel)); err != nil {
				t.Fatal(err)
			}
			putRecord(t, Open(s.Dir()), "k", []byte("anew"))
		}
	}
	tests := []struct {
		name   string
		change func(t *testing.T, s *Store)
		want   string
		kept   bool // the same handle is still kept
	}{
		{"nothing", func(*testing.T, *Store) {}, "v2", true},
		{"the state directory is made again", remake("."), "anew", false},
		{"the state directory is moved away and made again", func(t *testing.T, s *Store) {
			if err := os.Rename(s.Dir(), s.Dir()+".old"); err != nil {
				t.Fatal(err)
			}
			putRecord(t, Open(s.Dir()), "k", []byte("anew"))
		}, "anew", false},
		{"the record set is made again", remake(testSet), "anew", true},
		{"the lock file is replaced", func(t *testing.T, s *Store) {
			if err := os.Remove(filepath.Join(s.Dir(), LockFile)); err != nil {
				t.Fatal(err)
			}
			putRecord(t, Open(s.Dir()), "k", []byte("anew"))
		}, "anew", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			c := NewCommitter()
			defer c.Close()
			lazyPut(t, s, c, "k", "v1")
			lazyPut(t, s, c, "k", "v2")
			kd := keptDirOf(c, s)
			if kd == nil || serverRead(t, s, c, "k") != "v2" || keptDirOf(c, s) != kd {
				t.Fatal("the state directory's handle is not kept from one Update to the next")
			}
			tt.change(t, s)
			if got := serverRead(t, s, c, "k"); got != tt.want {
				t.Errorf("read %q, want %q", got, tt.want)
			}
			if got := keptDirOf(c, s) == kd; got != tt.kept {
				t.Errorf("the same handle kept: %v, want %v", got, tt.kept)
			}
			// The server's write is where another store reads it.
			lazyPut(t, s, c, "k", "server")
			if v, err := getRecord(t, s, "k"); string(v) != "server" {
				t.Errorf("another store reads %q, %v after the server's write", v, err)
			}
		})
	}
}

// TestKeptLockExcludesWhoLocksTheNewFile: a server whose kept lock file
// was replaced takes the new one, which another process may hold.
func TestKeptLockExcludesWhoLocksTheNewFile(t *testing.T) {
	needKeeping(t)
	s, _ := newStore(t)
	s.LockTimeout = 50 * time.Millisecond
	c := NewCommitter()
	defer c.Close()
	lazyPut(t, s, c, "k", "v1")
	if keptDirOf(c, s) == nil {
		t.Fatal("no handle kept")
	}
	if err := os.Remove(filepath.Join(s.Dir(), LockFile)); err != nil {
		t.Fatal(err)
	}
	lk, err := Open(s.Dir()).lock(bounded(t), true, true) // a hook's, on a new lock file
	if err != nil {
		t.Fatal(err)
	}
	defer lk.unlock()
	ctx := WithCommitter(bounded(t), c, nil)
	err = s.Update(ctx, func(tx *Tx) error { return tx.PutRecord(testSet, "k", []byte("v2")) })
	if !errors.Is(err, ErrLockTimeout) {
		t.Errorf("Update while another holds the new lock file: %v, want %v", err, ErrLockTimeout)
	}
}
