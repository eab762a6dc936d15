package cli

import (
	"bytes"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/hook"
)

// TestIntentReleaseIsTheCallersOwn: an agent's command (no terminal on
// stdin, its host's marks in the environment) releases only its own
// session's lease and selects only for its own session; the lease of
// another session is still held afterwards.
func TestIntentReleaseIsTheCallersOwn(t *testing.T) {
	dir, _ := governedProject(t) // session s1 holds intent src
	agentEnv := map[string]string{"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": "s2"}
	for _, tc := range []struct {
		name string
		env  map[string]string
		args []string
		err  string
	}{
		{"an agent releases another session's lease", agentEnv, []string{"intent", "release", "--session", "s1"}, "session s2 cannot release session s1's lease"},
		{"a stripped environment without a terminal", nil, []string{"intent", "release", "--session", "s1"}, "not run by a person at a terminal"},
		{"an agent selects for another session", agentEnv, []string{"intent", "select", "src", "--session", "s3"}, "cannot act for session s3"},
		{"an agent releases its own", agentEnv, []string{"intent", "release", "--session", "s2"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			io := &command.IO{Process: hook.Process{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{},
				Getenv: func(k string) string { return tc.env[k] }, Getwd: func() (string, error) { return dir, nil }}}
			err := runArgs(io, tc.args)
			if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
				t.Fatalf("%v: %v, want %q", tc.args, err, tc.err)
			}
			p, err := command.ReadProjectAt(dir)
			if err != nil {
				t.Fatal(err)
			}
			if l := govstate.Key.Of(p).Lock("src"); l == nil || l.Session != "s1" {
				t.Errorf("after %v: the lease of src is %+v, want s1's", tc.args, l)
			}
		})
	}
}
