package shellcall

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/guard"
)

// TestReadScript: only a regular file of at most guard.MaxScriptBytes is
// read, through links; a directory, a missing or a larger file is an
// error.
func TestReadScript(t *testing.T) {
	dir := t.TempDir()
	j := func(n string) string { return filepath.Join(dir, n) }
	os.WriteFile(j("x.sh"), []byte("echo hi\n"), 0o755)
	os.WriteFile(j("max.sh"), []byte(strings.Repeat("#", guard.MaxScriptBytes)), 0o644)
	os.WriteFile(j("big.sh"), []byte(strings.Repeat("#", guard.MaxScriptBytes+1)), 0o644)
	os.Symlink("x.sh", j("link.sh"))
	os.Mkdir(j("d"), 0o755)
	for _, c := range []struct {
		name string
		want string
		ok   bool
	}{
		{"x.sh", "echo hi\n", true},
		{"link.sh", "echo hi\n", true},
		{"max.sh", strings.Repeat("#", guard.MaxScriptBytes), true},
		{"big.sh", "", false},
		{"d", "", false},
		{"missing.sh", "", false},
	} {
		got, err := ReadScript(j(c.name))
		if (err == nil) != c.ok || got != c.want {
			t.Errorf("ReadScript(%s) = %d bytes, %v; want ok %v", c.name, len(got), err, c.ok)
		}
	}
	if r := Request("bash x.sh", dir, dir); r.ReadScript == nil {
		t.Error("Request leaves ReadScript unset: the guard would not read scripts")
	}
}
