package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"text/tabwriter"
	"time"
)

// scriptedSession is the scripted standard session of issue 35: 30 Claude
// Code hook events through real hook processes (start, prompts with "ok",
// "continue" and "go on", reads, a todo list, edits, a test that fails
// three times, a compaction, a stop). Each step is one hook event.
type scriptStep struct {
	label   string
	payload map[string]any
	// continuation marks a prompt that only says "go on".
	continuation bool
}

func scriptedSession(dir string) []scriptStep {
	const sid = "ctx-budget-session"
	base := func(ev string) map[string]any {
		return map[string]any{"session_id": sid, "transcript_path": filepath.Join(dir, "t.jsonl"), "cwd": dir,
			"permission_mode": "default", "hook_event_name": ev}
	}
	with := func(m map[string]any, kv ...any) map[string]any {
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i].(string)] = kv[i+1]
		}
		return m
	}
	n := 0
	tool := func(name string, input map[string]any) (pre, post map[string]any) {
		n++
		id := fmt.Sprintf("toolu_ctx_%d", n)
		pre = with(base("PreToolUse"), "tool_name", name, "tool_input", input, "tool_use_id", id)
		post = with(base("PostToolUse"), "tool_name", name, "tool_input", input, "tool_use_id", id, "duration_ms", 120)
		return pre, post
	}
	calc := filepath.Join(dir, "calc.go")
	readPre, readPost := tool("Read", map[string]any{"file_path": calc})
	readPost["tool_response"] = map[string]any{"type": "text", "file": map[string]any{"filePath": calc, "content": "package calc\n", "numLines": 1, "startLine": 1, "totalLines": 1}}
	grepPre, grepPost := tool("Grep", map[string]any{"pattern": "func Add", "path": dir})
	grepPost["tool_response"] = map[string]any{"mode": "files_with_matches", "filenames": []string{calc}, "numFiles": 1}
	todos := func(status string) []map[string]any {
		return []map[string]any{
			{"content": "Fix Add in calc.go", "status": status, "activeForm": "Fixing Add"},
			{"content": "Run the calc tests", "status": "pending", "activeForm": "Running the calc tests"},
		}
	}
	todoPre, todoPost := tool("TodoWrite", map[string]any{"todos": todos("in_progress")})
	todoPost["tool_response"] = map[string]any{"oldTodos": []any{}, "newTodos": todos("in_progress")}
	edit := map[string]any{"file_path": calc, "old_string": "return a - b", "new_string": "return a + b"}
	editPre, editPost := tool("Edit", edit)
	editPost["tool_response"] = map[string]any{"filePath": calc, "oldString": "return a - b", "newString": "return a + b", "structuredPatch": []any{}}
	test := map[string]any{"command": "go test ./...", "description": "Run the tests"}
	var fails []scriptStep
	for i := range 3 {
		pre, post := tool("Bash", test)
		post["hook_event_name"] = "PostToolUseFailure"
		post["error"] = "Exit code 1\n--- FAIL: TestAdd (0.00s)\n    calc_test.go:9: Add(2, 2) = 0, want 4\nFAIL\nFAIL\texample.com/calc\t0.003s"
		fails = append(fails, scriptStep{label: fmt.Sprintf("go test (fails, %d)", i+1), payload: pre},
			scriptStep{label: fmt.Sprintf("go test failed %d", i+1), payload: post})
	}
	edit2Pre, edit2Post := tool("Edit", map[string]any{"file_path": calc, "old_string": "a + b", "new_string": "b + a"})
	edit2Post["tool_response"] = map[string]any{"filePath": calc, "structuredPatch": []any{}}
	passPre, passPost := tool("Bash", test)
	passPost["tool_response"] = map[string]any{"stdout": "ok  \texample.com/calc\t0.003s", "stderr": "", "interrupted": false}
	doneTodoPre, doneTodoPost := tool("TodoWrite", map[string]any{"todos": todos("completed")})
	doneTodoPost["tool_response"] = map[string]any{"newTodos": todos("completed")}
	read2Pre, read2Post := tool("Read", map[string]any{"file_path": calc})
	read2Post["tool_response"] = readPost["tool_response"]
	prompt := func(p string) map[string]any { return with(base("UserPromptSubmit"), "prompt", p) }

	steps := []scriptStep{
		{label: "session start", payload: with(base("SessionStart"), "source", "startup")},
		{label: "prompt: fix the test", payload: prompt("The calc tests fail: fix Add so that go test passes.")},
		{label: "read calc.go", payload: readPre}, {label: "read calc.go done", payload: readPost},
		{label: "grep", payload: grepPre}, {label: "grep done", payload: grepPost},
		{label: "prompt: ok", payload: prompt("ok"), continuation: true},
		{label: "todos", payload: todoPre}, {label: "todos done", payload: todoPost},
		{label: "edit calc.go", payload: editPre}, {label: "edit calc.go done", payload: editPost},
	}
	steps = append(steps, fails...)
	steps = append(steps,
		scriptStep{label: "prompt: continue", payload: prompt("continue"), continuation: true},
		scriptStep{label: "edit again", payload: edit2Pre}, scriptStep{label: "edit again done", payload: edit2Post},
		scriptStep{label: "go test (passes)", payload: passPre}, scriptStep{label: "go test passed", payload: passPost},
		scriptStep{label: "pre-compact", payload: with(base("PreCompact"), "trigger", "auto", "custom_instructions", "")},
		scriptStep{label: "start after compaction", payload: with(base("SessionStart"), "source", "compact")},
		scriptStep{label: "prompt: go on", payload: prompt("go on"), continuation: true},
		scriptStep{label: "todos completed", payload: doneTodoPre}, scriptStep{label: "todos completed done", payload: doneTodoPost},
		scriptStep{label: "read calc.go again", payload: read2Pre}, scriptStep{label: "read again done", payload: read2Post},
		scriptStep{label: "stop", payload: with(base("Stop"), "stop_hook_active", false, "last_assistant_message", "Done: go test passes.")},
	)
	return steps
}

// injected is what one hook answer put before the model: the additional
// context, a tool call's decision reason and a block's reason. The system
// message is shown to the user, not the model, and is counted apart.
type injected struct {
	model, user string
}

func readInjected(t *testing.T, out []byte) injected {
	t.Helper()
	if len(bytes.TrimSpace(out)) == 0 {
		return injected{}
	}
	var a struct {
		Decision, Reason, SystemMessage string
		HookSpecificOutput              struct {
			AdditionalContext        string `json:"additionalContext"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatalf("hook answer %q: %v", out, err)
	}
	var parts []string
	for _, s := range []string{a.HookSpecificOutput.AdditionalContext, a.HookSpecificOutput.PermissionDecisionReason, a.Reason} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	return injected{model: strings.Join(parts, "\n"), user: a.SystemMessage}
}

// scriptResult is a run of the scripted session.
type scriptResult struct {
	steps   []scriptStep
	answers []injected
	total   int
	byKind  map[string]int // from the audit trail's context_bytes; empty for a build without it
	status  int            // the session's total as `status --json` reports it
}

// runScriptedSession runs the scripted session in a fresh project of the
// given preset, with bin as atreides (the test binary when bin is "").
func runScriptedSession(t *testing.T, bin, preset string) scriptResult {
	t.Helper()
	dir := t.TempDir()
	writeCtxProject(t, dir, preset)
	// The project's preset applies whole once the user trusts the file.
	if _, stderr, code := runCtxMain(t, bin, dir, nil, "trust", "--yes"); code != 0 {
		t.Fatalf("trust: exit %d: %s", code, stderr)
	}
	steps := scriptedSession(dir)
	r := scriptResult{steps: steps, byKind: map[string]int{}}
	for _, st := range steps {
		payload, _ := json.Marshal(st.payload)
		out, stderr, code := runCtxHook(t, bin, dir, payload)
		if code != 0 && code != 2 {
			t.Fatalf("%s: exit %d: %s", st.label, code, stderr)
		}
		in := readInjected(t, out)
		r.answers = append(r.answers, in)
		r.total += len(in.model)
	}
	r.byKind = auditKinds(t, bin, dir)
	r.status = statusContext(t, bin, dir)
	return r
}

func writeCtxProject(t *testing.T, dir, preset string) {
	t.Helper()
	files := map[string]string{
		".atreides/config.yaml": "preset: " + preset + "\n",
		"AGENTS.md":             "# Rules\n\n- Run go test before saying done.\n- Keep functions small.\n\n# Testing\n\nTable tests.\n",
		"CLAUDE.md":             "@AGENTS.md\n",
		"go.mod":                "module example.com/calc\n\ngo 1.22\n",
		"calc.go":               "package calc\n\nfunc Add(a, b int) int { return a - b }\n",
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runCtxHook runs `atreides hook claude` once: the test binary, or bin.
func runCtxHook(t *testing.T, bin, dir string, payload []byte) (out, stderr []byte, code int) {
	t.Helper()
	return runCtxMain(t, bin, dir, payload, "hook", "claude")
}

func runCtxMain(t *testing.T, bin, dir string, stdin []byte, args ...string) (out, stderr []byte, code int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := mainCmd(ctx, dir, stdin, args...)
	if bin != "" {
		cmd.Path, cmd.Args = bin, append([]string{bin}, args...)
	}
	cmd.Env = append(cmd.Env, "XDG_CONFIG_HOME="+filepath.Join(filepath.Dir(dir), "xdg-"+filepath.Base(dir)))
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("atreides %s did not end in a minute", strings.Join(args, " "))
	}
	if _, ok := err.(*exec.ExitError); err != nil && !ok {
		t.Fatal(err)
	}
	return o.Bytes(), e.Bytes(), cmd.ProcessState.ExitCode()
}

// auditKinds sums the audit trail's bytes injected per kind, read through
// `atreides log --json` as a user would.
func auditKinds(t *testing.T, bin, dir string) map[string]int {
	t.Helper()
	out, stderr, code := runCtxMain(t, bin, dir, nil, "log", "--json")
	if code != 0 {
		t.Fatalf("log --json: exit %d: %s", code, stderr)
	}
	sum := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var rec struct {
			Context map[string]int `json:"context_bytes"`
		}
		if err := dec.Decode(&rec); err != nil {
			t.Fatalf("log --json: %v: %s", err, out)
		}
		for k, n := range rec.Context {
			sum[k] += n
		}
	}
	return sum
}

// statusContext is the scripted session's context total that `status
// --json` reports (0 from a build without it).
func statusContext(t *testing.T, bin, dir string) int {
	t.Helper()
	out, stderr, code := runCtxMain(t, bin, dir, nil, "status", "--json")
	if code != 0 {
		t.Fatalf("status --json: exit %d: %s", code, stderr)
	}
	var doc struct {
		Sessions []struct {
			ID      string `json:"id"`
			Context struct {
				Total int `json:"total"`
			} `json:"context"`
		} `json:"sessions"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("status --json: %v", err)
	}
	for _, s := range doc.Sessions {
		if s.ID == "ctx-budget-session" {
			return s.Context.Total
		}
	}
	return 0
}

// logScript prints the run: each event's bytes, then the kinds.
func logScript(t *testing.T, name string, r scriptResult) {
	t.Helper()
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintf(w, "#\tevent\tmodel bytes\tuser bytes\n")
	for i, st := range r.steps {
		fmt.Fprintf(w, "%d\t%s\t%d\t%d\n", i+1, st.label, len(r.answers[i].model), len(r.answers[i].user))
		if testing.Verbose() && os.Getenv("ATREIDES_CTX_TEXT") != "" && r.answers[i].model != "" {
			fmt.Fprintf(w, "\t%q\n", r.answers[i].model)
		}
	}
	fmt.Fprintf(w, "\ttotal\t%d\t\n", r.total)
	kinds := slices.Sorted(func(yield func(string) bool) {
		for k := range r.byKind {
			if !yield(k) {
				return
			}
		}
	})
	for _, k := range kinds {
		fmt.Fprintf(w, "\tkind %s\t%d\t\n", k, r.byKind[k])
	}
	w.Flush()
	t.Logf("%s:\n%s", name, b.String())
}

// TestScriptedSessionMeasure prints the scripted session's figures for the
// binary ATREIDES_CTX_BIN names (a build of another commit), for each
// preset: how the baselines below were measured.
func TestScriptedSessionMeasure(t *testing.T) {
	bin := os.Getenv("ATREIDES_CTX_BIN")
	if bin == "" {
		t.Skip("ATREIDES_CTX_BIN names no binary to measure")
	}
	for _, preset := range []string{"guard", "standard", "full"} {
		logScript(t, preset, runScriptedSession(t, bin, preset))
	}
}

// Today's figures of the scripted session, before issue 35's context
// budget: measured with the build of eeabcc0 (go build -o
// /tmp/atreides-base ./cmd/atreides, then
// ATREIDES_CTX_BIN=/tmp/atreides-base go test ./internal/cli -run
// TestScriptedSessionMeasure -v). Per kind, from a build that only added
// the accounting (391fe7c, same text): standard = strikes 825 + memory 764
// + the stop gate's block 424; full = session 1740 + phase 1422 + strikes
// 935 + memory 784 + block 424 (+2 of separators).
const (
	baselineStandard = 2013
	baselineFull     = 5307
)

// The session start's and the post-compaction context's budgets by
// default (context.budget.start, session.memory.budget).
const (
	startBudget   = 600
	compactBudget = 1200
)

// TestScriptedSessionContext is issue 35's proof of the context budget:
// the scripted session through real hook processes, per preset. It prints
// each event's bytes and the kinds (go test -v), and asserts that the
// standard and full presets' totals are each at most half of today's; that no continuation prompt gets a phase
// line; that the session start and the post-compaction context fit their
// budgets; that AGENTS.md, which the project's CLAUDE.md imports, is never
// injected; that the guard preset says nothing; and that the audit trail's
// bytes per kind and `status`'s total agree.
func TestScriptedSessionContext(t *testing.T) {
	for _, preset := range []string{"guard", "standard", "full"} {
		t.Run(preset, func(t *testing.T) {
			r := runScriptedSession(t, "", preset)
			logScript(t, preset, r)
			checkScript(t, preset, r)
		})
	}
}

func checkScript(t *testing.T, preset string, r scriptResult) {
	t.Helper()
	for i, st := range r.steps {
		text := r.answers[i].model
		if st.continuation && strings.Contains(text, "phase") {
			t.Errorf("%s: a continuation prompt got a phase line: %q", st.label, text)
		}
		if strings.Contains(text, "Run go test before saying done") {
			t.Errorf("%s: AGENTS.md injected though CLAUDE.md imports it: %q", st.label, text)
		}
		if strings.Contains(text, "/tmp/") || strings.Contains(text, os.TempDir()+"/") {
			t.Errorf("%s: an absolute path reached the model: %q", st.label, text)
		}
		switch st.label {
		case "session start":
			if len(text) > startBudget {
				t.Errorf("session start: %d bytes, budget %d", len(text), startBudget)
			}
		case "start after compaction":
			if len(text) > compactBudget {
				t.Errorf("post-compaction context: %d bytes, budget %d", len(text), compactBudget)
			}
		}
	}
	sum := 0
	for _, n := range r.byKind {
		sum += n
	}
	if sum > r.total || r.total > 0 && sum == 0 {
		t.Errorf("the audit trail's kinds sum to %d bytes, the answers to %d", sum, r.total)
	}
	if got := r.status; got != sum {
		t.Errorf("status says %d bytes put before the model, the audit trail %d", got, sum)
	}
	switch preset {
	case "guard":
		if r.total != 0 {
			t.Errorf("guard preset: %d bytes said to the model, want none", r.total)
		}
	case "standard":
		t.Logf("standard: %d bytes, today %d", r.total, baselineStandard)
		if 2*r.total > baselineStandard {
			t.Errorf("standard: %d bytes, more than half of today's %d", r.total, baselineStandard)
		}
	case "full":
		t.Logf("full: %d bytes, today %d", r.total, baselineFull)
		if r.total > baselineFull/2 {
			t.Errorf("full: %d bytes, more than half of today's %d", r.total, baselineFull)
		}
	}
}
