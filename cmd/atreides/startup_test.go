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

// Package-init budgets of a hook process (not time, which is noise):
// bytes and allocations in all, packages with init work (the lines of
// GODEBUG=inittrace=1: the runtime prints one per package whose init does
// anything) and those of them that allocate, which issue 37 holds to 40.
// Measured at 64.5 KB, 533 allocations, 61 packages, 34 allocating (main
// before issue 37: 92 KB, 857, 101 and 72). Lower them when init work
// goes; raise one only saying why in the commit.
const (
	initBytesBudget      = 66_000
	initAllocsBudget     = 560
	initLinesBudget      = 61
	initAllocatingBudget = 34
)

// initAllowed are the packages allowed to have init work in a hook
// process: a package not listed fails the test. Each costs time in every
// hook, used or not; see checkInitPackages's message for the way out.
// atreides's own packages have none, but for statekeys's hand-over.
var initAllowed = []string{
	// The Go runtime and the standard library. The crypto packages come
	// with crypto/sha256 (content hashes) and crypto/ed25519 (the ledger's
	// signatures); net with spf13/pflag; text/template with spf13/cobra.
	"context", "crypto", "crypto/fips140", "crypto/internal/fips140",
	"crypto/internal/fips140/aes", "crypto/internal/fips140/aes/gcm",
	"crypto/internal/fips140/check", "crypto/internal/fips140/drbg",
	"crypto/internal/fips140/ed25519", "crypto/internal/fips140/edwards25519",
	"crypto/internal/fips140/edwards25519/field", "crypto/internal/fips140/hmac",
	"crypto/internal/fips140/sha256", "crypto/internal/fips140/sha3",
	"crypto/internal/fips140/sha512", "crypto/internal/fips140deps/cpu",
	"crypto/internal/fips140deps/time", "crypto/rand", "crypto/sha256", "encoding/base64",
	"encoding/json", "errors", "flag", "internal/bytealg", "internal/godebug", "internal/poll",
	"internal/runtime/gc/scan", "io/fs", "iter", "log", "math", "math/big", "net", "net/netip",
	"os", "os/signal", "path/filepath", "reflect", "regexp", "regexp/syntax", "runtime",
	"sync", "syscall", "text/template", "text/template/parse", "time", "unicode",
	"vendor/golang.org/x/net/dns/dnsmessage",
	// Third-party modules. yaml/v3 and sh's fileutil compile regexps in
	// their init (together about 40 KB and 380 allocations).
	"github.com/bmatcuk/doublestar/v4", "github.com/go-json-experiment/json/jsontext",
	"github.com/pelletier/go-toml/v2", "github.com/pelletier/go-toml/v2/unstable",
	"github.com/spf13/cobra", "github.com/spf13/pflag", "github.com/tailscale/hujson",
	"go.etcd.io/bbolt", "go.etcd.io/bbolt/internal/common", "go.yaml.in/yaml/v3",
	"golang.org/x/sys/unix", "mvdan.cc/sh/v3/fileutil",
	// Hands the list of state keys to internal/state, which cannot import
	// it (every feature imports state): no bytes, no allocations.
	mod + "internal/statekeys",
}

// mod prefixes atreides's own packages.
const mod = "github.com/atreides-dev/atreides/"

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
	checkInitPackages(t, inits)
	var bytesSum, allocsSum, allocating int
	for _, in := range inits {
		bytesSum += in.bytes
		allocsSum += in.allocs
		if in.allocs > 0 {
			allocating++
		}
		if strings.HasPrefix(in.pkg, mod) && in.bytes > 0 {
			t.Errorf("%s allocates %d bytes in package init: make its package-level values static data or build them on first use (lazy.Value; a package-level sync.OnceValue is itself init work)", in.pkg, in.bytes)
		}
	}
	t.Logf("package init: %d bytes, %d allocations, %d packages", bytesSum, allocsSum, len(inits))
	if allocating > initAllocatingBudget {
		t.Errorf("%d packages allocate in package init, over the budget of %d", allocating, initAllocatingBudget)
	}
	if bytesSum > initBytesBudget || allocsSum > initAllocsBudget {
		t.Errorf("package init allocates %d bytes in %d allocations, over the budget of %d bytes and %d allocations: find the package in `GODEBUG=inittrace=1 atreides version` and make its work lazy", bytesSum, allocsSum, initBytesBudget, initAllocsBudget)
	}
}

// checkInitPackages holds the packages with init work to initLinesBudget
// and initAllowed. A listed package without init work is only logged: an
// engineer who makes one lazy need not edit this file in the same change,
// and whoever lowers the budget removes it then.
func checkInitPackages(t *testing.T, inits []initTrace) {
	t.Helper()
	seen := map[string]bool{}
	for _, in := range inits {
		seen[in.pkg] = true
		if !slices.Contains(initAllowed, in.pkg) {
			t.Errorf("%s now has package init work in every hook process (%d bytes, %d allocations): make its package-level values static data (composite literals of constants; no maps, function calls, regexp.MustCompile, errors.New or sync.OnceValue in a var initializer) or build them on first use; if it cannot be avoided, add it to initAllowed in cmd/atreides/startup_test.go and say why in the commit", in.pkg, in.bytes, in.allocs)
		}
	}
	if len(inits) > initLinesBudget {
		t.Errorf("%d packages have init work in a hook process, over the budget of %d (GODEBUG=inittrace=1 atreides hook claude < payload lists them)", len(inits), initLinesBudget)
	}
	for _, p := range initAllowed {
		if !seen[p] {
			t.Logf("%s has no init work any more: remove it from initAllowed", p)
		}
	}
	t.Logf("package init: %d packages with init work (budget %d)", len(inits), initLinesBudget)
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
