package cli

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/phase"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/strikes"
)

// A state file written before strike targets and phase causes were
// sanitized still holds raw command text: status must not print it.
func TestStatusMasksStoredSecrets(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(dir+"/.git", 0o755)
	now := time.Now()
	s := state.NewSession("s1", "claude", now)
	history.Key.Of(s).Add(history.ToolCall{Time: now, Tool: "shell", Raw: "Bash", Summary: "sshpass -p hunter2 ssh db"})
	phase.Key.Of(s).Transitions = []phase.Transition{{From: "", To: "assessment", Cause: "shell PGPASSWORD=S3cretPw", Time: now}}
	strikes.Key.Of(s).Targets = []strikes.Strike{{Tool: "shell", Target: "curl -u admin:CurlPw https://x", Count: 2, Class: "exit-code",
		Errors: []strikes.StrikeError{{Class: "exit-code", Excerpt: "aws configure set aws_secret_access_key AwsV4lue", Time: now}}}}
	b, err := state.Encode(s)
	if err != nil {
		t.Fatal(err)
	}
	st := store.Open(project.StateDir(dir))
	if err := st.Update(context.Background(), func(tx *store.Tx) error { return tx.Put("sessions", "s1", b) }); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{}, {"--json"}} {
		var out, errb bytes.Buffer
		io := &command.IO{Process: hook.Process{Out: &out, Err: &errb, Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return dir, nil }}}
		if err := runArgs(io, append([]string{"status"}, args...)); err != nil {
			t.Fatalf("status %v: %v %s", args, err, errb.String())
		}
		if !strings.Contains(out.String(), "sshpass -p ****") {
			t.Errorf("status %v does not show the masked call:\n%s", args, out.String())
		}
		for _, secret := range []string{"hunter2", "S3cretPw", "CurlPw", "AwsV4lue"} {
			if strings.Contains(out.String(), secret) {
				t.Errorf("status %v prints %q:\n%s", args, secret, out.String())
			}
		}
	}
}
