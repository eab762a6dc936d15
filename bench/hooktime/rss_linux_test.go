//go:build linux

package main

import (
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// ballast makes the test process's own peak RSS large (about 96 MiB), so
// that a figure inherited from the starter would show.
var ballast []byte

// TestPeakRSSIsTheChildsOwn runs a program that touches a known amount of
// memory and wants peakRSS to report that amount plus the Go runtime's
// own few MiB, although the test process's own peak (the ballast) is
// larger: rusage's ru_maxrss of the same child would be at least that.
func TestPeakRSSIsTheChildsOwn(t *testing.T) {
	bin := filepath.Join(t.TempDir(), "touch")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/touch").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	ballast = make([]byte, 96<<20)
	for i := 0; i < len(ballast); i += 4096 {
		ballast[i] = 1
	}
	for _, mib := range []int64{0, 16, 40} {
		cmd := exec.Command(bin, strconv.FormatInt(mib, 10))
		m, err := peakRSS(cmd)
		if err != nil {
			t.Fatalf("peakRSS(touch %d): %v", mib, err)
		}
		kib := m.peak
		// What it touched is anonymous memory, its own.
		if m.anon < mib<<10 || m.anon > kib {
			t.Errorf("touch %d MiB: anonymous %d KiB of a peak of %d KiB", mib, m.anon, kib)
		}
		// A Go program's own start costs 1-4 MiB of resident memory.
		if lo, hi := mib<<10, (mib+6)<<10; kib < lo || kib > hi {
			t.Errorf("touch %d MiB: peak %d KiB, want between %d and %d", mib, kib, lo, hi)
		}
		t.Logf("touch %d MiB: own peak %d KiB, %d KiB anonymous", mib, kib, m.anon)
	}
}
