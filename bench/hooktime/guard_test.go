//go:build linux

package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// needStrace fails the test under CI (ATREIDES_E2E_REQUIRE=1), where
// scripts/test installs strace, and skips it, saying why, elsewhere.
func needStrace(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("strace"); err != nil {
		if os.Getenv("ATREIDES_E2E_REQUIRE") == "1" {
			t.Fatalf("strace is not installed (scripts/install-strace): %v", err)
		}
		t.Skipf("the guard counts system calls with strace, which is not installed: %v", err)
	}
}

// buildSpin builds testdata/spin burning d of CPU per run.
func buildSpin(t *testing.T, d string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "spin")
	if out, err := exec.Command("go", "build", "-ldflags=-X=main.spin="+d, "-o", bin, "./testdata/spin").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestGuard records an unchanged build against a reference, then wants
// the guard to pass it again, to fail a build that burns more CPU per run
// (naming the row and the ratio), and to fail counts over their budget.
func TestGuard(t *testing.T) {
	needStrace(t)
	same, regressed := buildSpin(t, "0s"), buildSpin(t, "15ms")
	payloads := t.TempDir()
	if err := os.MkdirAll(filepath.Join(payloads, "claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(payloads, "claude", "p.json"), []byte(`{"cwd":"__PROJ__"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "recorded.txt")
	run := func(bin string, update bool) (string, error) {
		var out bytes.Buffer
		err := guard(bin, guardOpts{file: file, update: update, payloads: payloads, vs: same,
			hosts: []string{"claude"}, runs: 21, warm: 1, out: &out, retryFailed: true})
		return out.String(), err
	}
	if out, err := run(same, true); err != nil {
		t.Fatalf("-update: %v\n%s", err, out)
	}
	b, err := readBudgets(file)
	if err != nil {
		t.Fatal(err)
	}
	rec, ok := b["claude/p"]
	if !ok || rec.initLines == 0 || rec.syscalls == 0 {
		t.Fatalf("-update recorded %+v", b)
	}
	// The recorded ratio of a build to itself is 1 less the noise of one
	// measurement: hold the checks below to 1, so that only a noisy check
	// can fail them, not a noisy record too.
	rec.ratio = 1
	record := func(r budget) {
		line := "claude/p " + strings.Join([]string{fmtF(r.ratio), itoa(r.initLines), itoa(r.syscalls)}, " ") + "\n"
		if err := os.WriteFile(file, []byte(budgetHeader+line), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	record(rec)
	if out, err := run(same, false); err != nil {
		t.Fatalf("unchanged build: %v\n%s", err, out)
	}
	out, err := run(regressed, false)
	if !errors.Is(err, errRegressed) || !strings.Contains(out, "claude/p ") || !strings.Contains(out, "FAIL: CPU ratio") || !strings.Contains(out, "(ratio retried)") {
		t.Fatalf("a build burning 15 ms more per run: %v\n%s", err, out)
	}
	// Budgets below what the build does (the system calls by more than
	// their slack and run-to-run variation): both counts fail.
	record(budget{ratio: 100, initLines: rec.initLines - 1, syscalls: rec.syscalls - syscallSlack - 3})
	out, err = run(same, false)
	if !errors.Is(err, errRegressed) || !strings.Contains(out, "init lines") || !strings.Contains(out, "system calls") {
		t.Fatalf("counts over their budgets: %v\n%s", err, out)
	}
}

// TestGuardRowsMatchPayloads wants a payload with no recorded row and a
// recorded row with no payload to fail.
func TestGuardRowsMatchPayloads(t *testing.T) {
	needStrace(t)
	same := buildSpin(t, "0s")
	payloads := t.TempDir()
	if err := os.MkdirAll(filepath.Join(payloads, "claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(payloads, "claude", "new.json"), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "recorded.txt")
	if err := os.WriteFile(file, []byte(budgetHeader+"claude/gone 1.000 99 999\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	err := guard(same, guardOpts{file: file, payloads: payloads, vs: same, hosts: []string{"claude"}, runs: 3, out: &out})
	if !errors.Is(err, errRegressed) || !strings.Contains(out.String(), "not recorded") || !strings.Contains(out.String(), "claude/gone is recorded") {
		t.Fatalf("%v\n%s", err, out.String())
	}
}

func fmtF(f float64) string { return strconv.FormatFloat(f, 'f', 3, 64) }
func itoa(i int) string     { return strconv.Itoa(i) }
