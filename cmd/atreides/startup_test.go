package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// Package-init budgets of a hook process, in bytes and allocations (not
// time, which is noise). Measured at 88 KB and 727 allocations in all;
// the guard family's packages (noInitAllocs) have since dropped to none.
const (
	initBytesBudget  = 95_000
	initAllocsBudget = 880
	// ownInitBytes bounds any one atreides package's init: room for a
	// small table but not for a regexp compiled in init (a few KB) or a
	// sync.OnceValue per pattern (about 4 KB).
	ownInitBytes = 4096
	// lazyInitBytes bounds the packages whose expensive tables are built
	// on first use (config's defaults): a compiled regexp or a parsed
	// file in their init would exceed it.
	lazyInitBytes = 512
)

var lazyInit = []string{"internal/config", "internal/cli", "internal/hook"}

// noInitAllocs allocate nothing in package init: their tables are static
// data (slices of composite literals, switches) or built on first use.
var noInitAllocs = []string{"internal/guard", "internal/shell", "internal/shellcall", "internal/secrets", "internal/sanitize", "internal/policy"}

// TestHookInitBudget builds the binary, runs one PreToolUse hook with
// GODEBUG=inittrace=1 and checks the package-init allocations against the
// budgets above.
func TestHookInitBudget(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "atreides")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	proj := filepath.Join(dir, "proj")
	if err := os.MkdirAll(filepath.Join(proj, ".atreides"), 0o755); err != nil {
		t.Fatal(err)
	}
	payload := `{"session_id":"s1","cwd":"` + proj + `","hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"go test ./... 2>&1 | tail -5"},"tool_use_id":"t1"}`
	cmd := exec.Command(bin, "hook", "claude")
	cmd.Dir = proj
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "CLAUDE_PROJECT_DIR="+proj, "HOME="+dir, "XDG_CONFIG_HOME=")
	cmd.Stdin = strings.NewReader(payload)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("hook: %v\n%s", err, stderr.Bytes())
	}
	inits := parseInitTrace(t, stderr.Bytes())
	if len(inits) < 10 {
		t.Fatalf("no init trace in the hook's stderr:\n%s", stderr.Bytes())
	}
	var bytesSum, allocsSum int
	for _, in := range inits {
		bytesSum += in.bytes
		allocsSum += in.allocs
		own, ok := strings.CutPrefix(in.pkg, "github.com/atreides-dev/atreides/")
		if !ok {
			continue
		}
		limit := ownInitBytes
		switch {
		case slices.Contains(noInitAllocs, own):
			limit = 0
		case slices.Contains(lazyInit, own):
			limit = lazyInitBytes
		}
		if in.bytes > limit {
			t.Errorf("%s allocates %d bytes in package init (budget %d): build its tables on first use (sync.OnceValue)", own, in.bytes, limit)
		}
	}
	t.Logf("package init: %d bytes, %d allocations", bytesSum, allocsSum)
	if bytesSum > initBytesBudget || allocsSum > initAllocsBudget {
		t.Errorf("package init allocates %d bytes in %d allocations, over the budget of %d bytes and %d allocations: find the package in `GODEBUG=inittrace=1 atreides version` and make its work lazy", bytesSum, allocsSum, initBytesBudget, initAllocsBudget)
	}
}

type initTrace struct {
	pkg           string
	bytes, allocs int
}

// parseInitTrace reads the runtime's lines
// "init PKG @T ms, C ms clock, B bytes, A allocs".
func parseInitTrace(t *testing.T, stderr []byte) []initTrace {
	var out []initTrace
	sc := bufio.NewScanner(bytes.NewReader(stderr))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 11 || f[0] != "init" || f[8] != "bytes," || f[10] != "allocs" {
			continue
		}
		b, err1 := strconv.Atoi(f[7])
		a, err2 := strconv.Atoi(f[9])
		if err1 != nil || err2 != nil {
			t.Fatalf("unexpected init trace line %q", sc.Text())
		}
		out = append(out, initTrace{pkg: f[1], bytes: b, allocs: a})
	}
	return out
}
