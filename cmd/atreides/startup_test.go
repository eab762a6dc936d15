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

// Package-init budgets of a hook process, in bytes, allocations and
// packages with init work (not time, which is noise). Measured at 76.5 KB,
// 656 allocations and 68 packages in all (88 KB, 727 before the state keys,
// hosts and small tables became static data), of
// which internal/guard's are 11.9 KB in 117 allocations (its small
// tables; its patterns, rules and larger tables are static data until
// first use).
const (
	initBytesBudget  = 80_000
	initAllocsBudget = 700
	initLinesBudget  = 70
	// ownInitBytes bounds any one atreides package's init; guard's small
	// tables are the one exception. Its budget leaves about 900 bytes, room
	// for a small table more but not for a regexp compiled in init (a few
	// KB) or a sync.OnceValue per pattern again (about 4 KB).
	ownInitBytes   = 4096
	guardInitBytes = 12_800
	// lazyInitBytes bounds the packages whose expensive tables are built
	// on first use (config's defaults, sanitize's patterns, the policy's
	// environment): a compiled regexp or a parsed file in their init
	// would exceed it.
	lazyInitBytes = 512
)

var lazyInit = []string{"internal/config", "internal/sanitize", "internal/policy", "internal/cli", "internal/hook"}

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
		case own == "internal/guard":
			limit = guardInitBytes
		case slices.Contains(lazyInit, own):
			limit = lazyInitBytes
		}
		if in.bytes > limit {
			t.Errorf("%s allocates %d bytes in package init (budget %d): build its tables on first use (lazy.Value; a package-level sync.OnceValue is itself init work)", own, in.bytes, limit)
		}
	}
	t.Logf("package init: %d bytes, %d allocations, %d packages", bytesSum, allocsSum, len(inits))
	if len(inits) > initLinesBudget {
		t.Errorf("%d packages do init work, over the budget of %d: find the new ones in `GODEBUG=inittrace=1 atreides version` and make their work static data or lazy (lazy.Value)", len(inits), initLinesBudget)
	}
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
