package policy

import (
	"os"
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/install"
)

// TestNewRequestOwnPaths: the guard learns atreides's own files from the
// request; the host settings are exactly what install knows of.
func TestNewRequestOwnPaths(t *testing.T) {
	t.Setenv("CODEX_HOME", "/srv/codex")
	r := NewRequest("write", "x", "/p/sub", "/p")
	if r.Path != "x" || r.Command != "" || r.Tool != "write" {
		t.Fatalf("request %+v", r)
	}
	if r.Self == "" || r.ConfigDir == "" {
		t.Fatalf("own paths missing: self %q config %q", r.Self, r.ConfigDir)
	}
	want := install.HookFiles("/p", Home(), install.HookEnv{CodexHome: "/srv/codex", XDGConfigHome: os.Getenv("XDG_CONFIG_HOME")})
	if !slices.Equal(r.HostSettings, want) || !slices.Contains(r.HostSettings, "/srv/codex/hooks.json") {
		t.Fatalf("host settings %q, want %q", r.HostSettings, want)
	}
	t.Setenv("PATH", "/opt/tools/bin"+string(os.PathListSeparator)+"rel")
	r = NewRequest("shell", "ls", "/p", "/p")
	if !slices.Equal(r.PathDirs, []string{"/opt/tools/bin"}) || r.Readlink == nil || r.SameBinary == nil {
		t.Fatalf("PATH directories %q, readlink set %v, same-binary set %v", r.PathDirs, r.Readlink != nil, r.SameBinary != nil)
	}
	if s := NewRequest("shell", "ls", "/p", "/p"); s.Command != "ls" || s.Path != "" {
		t.Fatalf("shell request %+v", s)
	}
}
