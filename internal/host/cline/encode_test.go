package cline

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

func answer(t *testing.T, name, input string, d event.Decision) output {
	t.Helper()
	ev, err := Decode(pre(name, input), time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	ans := Encode(ev, &d)
	var out output
	if len(ans.Stdout) > 0 {
		if err := json.Unmarshal(ans.Stdout, &out); err != nil {
			t.Fatalf("%s: %v", ans.Stdout, err)
		}
	}
	return out
}

// The command that stands in for a refused one prints the reason, quotes
// and all, and fails.
func TestRefusedCommandRuns(t *testing.T) {
	reason := `it's "rm -rf" $HOME; ` + "`x`\nsecond line"
	out := answer(t, "run_commands", `{"commands":["rm -rf ~"]}`, event.Decision{Verdict: event.Deny, Reason: reason})
	var in struct{ Commands []string }
	if err := json.Unmarshal(out.OverrideInput, &in); err != nil || len(in.Commands) != 1 || out.Cancel {
		t.Fatalf("answer %+v", out)
	}
	cmd := exec.Command("sh", "-c", in.Commands[0])
	var stderr strings.Builder
	cmd.Stderr = &stderr
	err := cmd.Run()
	if err == nil || stderr.String() != "atreides blocked this call: "+reason+"\n" {
		t.Errorf("ran %q: %v, stderr %q", in.Commands[0], err, stderr.String())
	}
	if !strings.Contains(out.Context, reason) {
		t.Errorf("context %q", out.Context)
	}
}

func TestEncode(t *testing.T) {
	deny := event.Decision{Verdict: event.Deny, Reason: "no"}
	if out := answer(t, "read_files", `{"files":[{"path":"/home/u/.ssh/id_rsa"}]}`, deny); string(out.OverrideInput) != `{"atreides_blocked":"atreides blocked this call: no"}` || out.Cancel {
		t.Errorf("read_files refusal %+v", out)
	}
	if out := answer(t, "some_mcp_tool", `{}`, deny); !out.Cancel || out.OverrideInput != nil {
		t.Errorf("unknown tool refusal %+v", out)
	}
	ask := answer(t, "editor", `{"path":"/p/a","new_text":"x"}`, event.Decision{Verdict: event.Ask, Reason: "sure?"})
	if !strings.Contains(ask.Context, "ask the user") && !strings.Contains(ask.Context, "Ask the user") {
		t.Errorf("ask %+v", ask)
	}
	// Several commands run as the one script that was judged.
	if out := answer(t, "run_commands", `{"commands":["echo a","echo b"]}`, event.Decision{}); string(out.OverrideInput) != `{"commands":["echo a\necho b"]}` {
		t.Errorf("several commands: %+v", out)
	}
	if out := answer(t, "run_commands", `{"commands":["echo a"]}`, event.Decision{}); out.OverrideInput != nil || out.Context != "" {
		t.Errorf("one command: %+v", out)
	}
}

// The PostToolUse of a refused call is no event: the call never ran.
func TestRefusedPostTool(t *testing.T) {
	for _, tool := range []string{"run_commands", "read_files"} {
		out := answer(t, tool, `{"commands":["rm -rf ~"]}`, event.Decision{Verdict: event.Deny, Reason: "it's bad"})
		if !Refused(tool, out.OverrideInput) {
			t.Errorf("%s: %s not recognised as a refusal", tool, out.OverrideInput)
		}
	}
	for _, in := range []string{
		`{"commands":["printf '%s\\n' 'atreides blocked this call: x' >&2; exit 1; rm -rf ~"]}`,
		`{"commands":["printf '%s\\n' 'atreides blocked this call: x' >&2; exit 1","rm -rf ~"]}`,
		`{"commands":["echo atreides blocked this call: x"]}`,
		`{"atreides_blocked":"x"}`,
	} {
		if Refused("run_commands", json.RawMessage(in)) {
			t.Errorf("%s taken for a refusal", in)
		}
	}
}
