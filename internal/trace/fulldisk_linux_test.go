//go:build linux

package trace

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/atreides-dev/atreides/internal/tmpfstest"
)

// TestRealDiskFull appends on a 64 KiB tmpfs until the disk is full: the
// failing append must report ENOSPC and leave only whole lines; once space
// is back, appends continue and the ledger verifies. Mounting needs root;
// anyone else runs the test again in a user and mount namespace of their
// own, where they may mount a tmpfs.
func TestRealDiskFull(t *testing.T) {
	mnt := tmpfstest.Mount(t, "64k")
	if mnt == "" {
		return // ran in a namespace
	}
	f := newFixture(t)
	f.path = filepath.Join(mnt, ".atreides", FileName)
	f.w.Path = f.path
	f.a.Project = mnt
	var err error
	n := 0
	for ; n < 10000 && err == nil; n++ {
		r := record(n)
		r.Files[0].Path = string(bytes.Repeat([]byte("p"), 700)) // big records fill the disk fast
		_, err = f.w.Append(r)
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("after %d appends: %v, want ENOSPC", n, err)
	}
	b, _ := os.ReadFile(f.path)
	if len(b) == 0 || b[len(b)-1] != '\n' {
		t.Fatal("a partial line was left on the full disk")
	}
	rep := f.verify(nil)
	if !rep.OK || rep.Records != n-1 {
		t.Fatalf("full disk: %+v (wrote %d)", rep, n-1)
	}
	// Space comes back.
	tmpfstest.Resize(t, mnt, "256k")
	f.add(1)
	if rep := f.verify(nil); !rep.OK || rep.Records != n {
		t.Fatalf("after space came back: %+v", rep)
	}
}

// TestFileSizeLimit runs an append in a child process whose RLIMIT_FSIZE
// ends inside the new line: write(2) fails with EFBIG (Go ignores
// SIGXFSZ), and the ledger must be cut back to whole lines.
func TestFileSizeLimit(t *testing.T) {
	if dir := os.Getenv("TRACE_FSIZE_CHILD"); dir != "" {
		limit, _ := strconv.ParseUint(os.Getenv("TRACE_FSIZE_LIMIT"), 10, 64)
		if err := unix.Setrlimit(unix.RLIMIT_FSIZE, &unix.Rlimit{Cur: limit, Max: unix.RLIM_INFINITY}); err != nil {
			fmt.Println("setrlimit:", err)
			os.Exit(3)
		}
		_, err := (&Writer{Path: filepath.Join(dir, FileName)}).Append(record(9))
		fmt.Println(err)
		os.Exit(0)
	}
	f := newFixture(t)
	f.add(2)
	size := fileSize(t, f.path)
	cmd := exec.Command(os.Args[0], "-test.run=^TestFileSizeLimit$")
	cmd.Env = append(os.Environ(), "TRACE_FSIZE_CHILD="+filepath.Dir(f.path), "TRACE_FSIZE_LIMIT="+strconv.FormatInt(size+50, 10))
	out, err := cmd.CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("file too large")) {
		t.Fatalf("child: %v\n%s", err, out)
	}
	if got := fileSize(t, f.path); got != size {
		t.Fatalf("ledger is %d bytes after the failed append, was %d", got, size)
	}
	f.add(1)
	if rep := f.verify(nil); !rep.OK || rep.Records != 3 {
		t.Fatalf("%+v", rep)
	}
}

func fileSize(t *testing.T, p string) int64 {
	fi, err := os.Stat(p)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Size()
}
