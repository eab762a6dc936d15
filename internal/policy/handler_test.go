package policy

import (
	"os"
	"slices"
	"testing"

	"github.com/atreides-dev/atreides/internal/guard"
)

// TestNewRequestOwnPaths: the guard learns atreides's own files from the
// request.
func TestNewRequestOwnPaths(t *testing.T) {
	r := NewRequest("write", "x", "/p/sub", "/p")
	if r.Path != "x" || r.Command != "" || r.Tool != "write" {
		t.Fatalf("request %+v", r)
	}
	if r.Self != "" || r.Binary() == "" || r.ConfigDir == "" {
		t.Fatalf("own paths missing, or the binary found before it was asked for: self %q, binary %q, config %q", r.Self, r.Binary(), r.ConfigDir)
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

// TestHostsApply: the host settings the guard protects are the hosts'
// files for the request's project and home, in the process's environment,
// and the agent programs are the hosts' (internal/host/all's tests check
// the lists themselves).
func TestHostsApply(t *testing.T) {
	t.Setenv("CODEX_HOME", "/srv/codex")
	agents := guard.AgentCLIs{{Names: []string{"agent"}, Off: []string{"--unsafe"}}}
	h := Hosts{Files: func(root, home string, getenv func(string) string) []string {
		return []string{root + "/settings.json", home + "/settings.json", getenv("CODEX_HOME") + "/hooks.json"}
	}, Agents: agents}
	r := NewRequest("shell", "agent --unsafe", "/p", "/p")
	h.Apply(&r)
	if r.HostSettings != nil {
		t.Fatalf("host settings %q listed before the guard asked for them", r.HostSettings)
	}
	r.Hosts(&r)
	want := []string{"/p/settings.json", r.Home + "/settings.json", "/srv/codex/hooks.json"}
	if !slices.Equal(r.HostSettings, want) || r.Agents.Of("agent") == nil {
		t.Fatalf("host settings %q (want %q), agents %v", r.HostSettings, want, r.Agents)
	}
	if res := guard.DefaultPolicy().Check(r); res.Rule != "self.unguarded-agent" {
		t.Fatalf("an agent started with its off flag: %v %s, want self.unguarded-agent", res.Verdict, res.Rule)
	}
	var none guard.Request
	Hosts{}.Apply(&none)
	none.Hosts(&none)
	if none.HostSettings != nil || none.Agents != nil {
		t.Fatalf("no hosts filled %+v", none)
	}
}
