package session

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/strikes"
)

// The session record (history, strikes, phase transitions) is kept in the
// state file and shown by `atreides status`: a secret in a command must
// not reach it, whichever handler stores the command.
func TestNoSecretsInState(t *testing.T) {
	secrets := []string{"hunter2", "S3cretPw", "NpmTok3n", "AwsSecretV4lue", "T0KEN-IN-PATH-0123456789abcd"}
	cmds := []string{
		"sshpass -p hunter2 ssh deploy@db uptime",
		"PGPASSWORD=S3cretPw psql -h db -c 'select 1'",
		"npm config set //registry.npmjs.org/:_authToken NpmTok3n",
		"aws configure set aws_secret_access_key AwsSecretV4lue",
		"curl -X POST https://hooks.slack.com/services/T0KEN-IN-PATH-0123456789abcd -d x",
	}
	r := newRun(t, testOptions())
	emit := func(ev map[string]any) {
		ev["session_id"], ev["cwd"], ev["transcript_path"] = "s1", r.dir, "/nonexistent/t.jsonl"
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		r.line(t.Name(), 0, b)
	}
	for i, c := range cmds {
		in := map[string]any{"command": c}
		id := "t" + itoa(i)
		emit(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": in, "tool_use_id": id})
		// A success moves the phase with the command as its cause.
		emit(map[string]any{"hook_event_name": "PostToolUse", "tool_name": "Bash", "tool_input": in,
			"tool_use_id": id + "ok", "tool_response": map[string]any{"stdout": "ok", "stderr": ""}})
		// Failing twice makes a strike whose target is the command.
		for k := range 2 {
			emit(map[string]any{"hook_event_name": "PostToolUseFailure", "tool_name": "Bash", "tool_input": in,
				"tool_use_id": id + "f" + itoa(k), "error": "Exit code 1\nerror: auth failed for " + c})
		}
	}
	stored := string(r.loader.sessions["s1"])
	if s, _ := r.loader.state(t, "s1"); !strings.Contains(stored, "sshpass") || len(strikes.Key.Of(s).Targets) == 0 {
		t.Fatalf("the test did not record what it meant to: %s", stored)
	}
	for _, s := range secrets {
		if strings.Contains(stored, s) {
			t.Errorf("secret %q kept in the session record:\n%s", s, stored)
		}
	}
}
