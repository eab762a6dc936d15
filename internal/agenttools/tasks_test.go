package agenttools

import (
	"context"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/state"
)

// TestTaskTools: create, claim (a lost claim names the holder), ready,
// and the lifecycle through the tools, with the board's checks; the
// task's claim ends with it.
func TestTaskTools(t *testing.T) {
	root := newProject(t)
	a := testEnv(root, map[string]string{"ATREIDES_SESSION_ID": "s-a"})
	b := testEnv(root, map[string]string{"CLAUDE_CODE_SESSION_ID": "s-b"})
	b.ToolName = func(s string) string { return "mcp__atreides__" + s }
	for _, tc := range []struct {
		env        *Env
		tool, args string
		want       []string // substrings of the result or error
		err        bool
	}{
		{a, "task_create", `{"title":"add a health endpoint","language":"go"}`, []string{"created task 1 (medium): add a health endpoint"}, false},
		{a, "task_create", `{"title":"document it","priority":"low","blocked_by":[1]}`, []string{"created task 2 (low)"}, false},
		{a, "task_create", `{"title":"  "}`, []string{"a task needs a title"}, true},
		{a, "task_create", `{"title":"x","priority":"urgent"}`, []string{`priority "urgent"`}, true},
		{a, "task_create", `{"title":"x","blocked_by":[9]}`, []string{"task 9 does not exist"}, true},
		{a, "task_create", `{"name":"x"}`, []string{`"title" is required`}, true},
		{a, "task_ready", `{}`, []string{"1 [NOT STARTED] medium: add a health endpoint"}, false},
		{a, "task_claim", `{"number":1}`, []string{"task 1 is claimed by session s-a"}, false},
		{a, "task_claim", `{"number":1}`, []string{"task 1 is claimed by session s-a"}, false},
		{b, "task_claim", `{"number":1}`, []string{"task 1 is claimed by session s-a since 2026-01-02T03:04:05Z", "mcp__atreides__task_ready"}, true},
		{b, "task_claim", `{"number":7}`, []string{"task 7 does not exist"}, true},
		{b, "task_ready", ``, []string{"No task is ready"}, false},
		{a, "task_update_status", `{"number":2,"status":"start"}`, []string{"task 2 waits for task 1"}, true},
		{a, "task_update_status", `{"number":1,"status":"block"}`, []string{"needs a reason"}, true},
		{a, "task_update_status", `{"number":1,"status":"finished"}`, []string{`status "finished" is not one of`}, true},
		{a, "task_update_status", `{"number":1,"status":"planned"}`, []string{"task 1 is now planned"}, false},
		{a, "task_update_status", `{"number":1,"status":"start"}`, []string{"task 1 is now in progress"}, false},
		{a, "task_update_status", `{"number":1,"status":"done"}`, []string{"task 1 is now completed"}, false},
		{b, "task_ready", `{}`, []string{"2 [NOT STARTED] low: document it"}, false},
		{a, "task_update_status", `{"number":2,"status":"block","reason":"waiting for review"}`, []string{"task 2 is now blocked: document it (waiting for review)"}, false},
		{a, "task_update_status", `{"number":1,"status":"abandon"}`, []string{"task 1 is already completed"}, true},
	} {
		out, err := call(t, tc.env, tc.tool, tc.args)
		got := out
		if err != nil {
			got = err.Error()
		}
		if (err != nil) != tc.err {
			t.Errorf("%s %s: error %v, want error %v (%q)", tc.tool, tc.args, err, tc.err, got)
		}
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s %s = %q, want %q in it", tc.tool, tc.args, got, w)
			}
		}
	}
	// Every change went through the board's one update (which writes
	// the files): the generation moved with each.
	err := a.board().View(context.Background(), func(bd *state.Tasks) error {
		if bd.Files.Gen != bd.Gen || bd.Gen != 8 || bd.Task(1).Claim != (state.TaskClaim{}) {
			t.Errorf("board gen %d, files gen %d, task 1 claim %+v", bd.Gen, bd.Files.Gen, bd.Task(1).Claim)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestTaskClaimWithoutSession: a claim needs a session; with none known
// it fails and says why.
func TestTaskClaimWithoutSession(t *testing.T) {
	e := testEnv(newProject(t), nil)
	if _, err := call(t, e, "task_create", `{"title":"x"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := call(t, e, "task_claim", `{"number":1}`); err == nil || !strings.Contains(err.Error(), "has not seen a session") {
		t.Errorf("claim without a session: %v", err)
	}
}
