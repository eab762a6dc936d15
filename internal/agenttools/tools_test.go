package agenttools

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/host/gemini"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// call runs the named tool of All with args.
func call(t *testing.T, e *Env, name, args string) (string, error) {
	t.Helper()
	for _, tl := range All() {
		if tl.Name == name {
			return tl.Call(context.Background(), e, json.RawMessage(args))
		}
	}
	t.Fatalf("no tool %s", name)
	return "", nil
}

func testEnv(root string, vars map[string]string) *Env {
	return &Env{
		Root: root, Store: store.Open(project.StateDir(root)), Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		Getenv: func(k string) string { return vars[k] }, Guard: testGuard,
	}
}

func newProject(t *testing.T) string {
	root := t.TempDir()
	os.MkdirAll(filepath.Join(root, ".atreides"), 0o755)
	os.WriteFile(filepath.Join(root, ".atreides", "intents.yaml"), []byte(`intents:
  - id: auth
    title: Auth rework
    owned_scope: [src/auth/**]
    acceptance_criteria: [tests pass]
`), 0o644)
	return root
}

// TestSchemas: every schema is an object schema that forbids unknown
// arguments and requires only properties it declares, and names are unique.
func TestSchemas(t *testing.T) {
	seen := map[string]bool{}
	for _, tl := range All() {
		var s struct {
			Type       string                     `json:"type"`
			Properties map[string]json.RawMessage `json:"properties"`
			Required   []string                   `json:"required"`
			Additional *bool                      `json:"additionalProperties"`
		}
		if err := json.Unmarshal(tl.Schema, &s); err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		if s.Type != "object" || s.Properties == nil || s.Additional == nil || *s.Additional || tl.Description == "" || seen[tl.Name] {
			t.Errorf("%s: schema %s", tl.Name, tl.Schema)
		}
		for _, r := range s.Required {
			if _, ok := s.Properties[r]; !ok {
				t.Errorf("%s requires undeclared %s", tl.Name, r)
			}
		}
		seen[tl.Name] = true
	}
	if want := 13 + len(Background()) + len(Review()); len(seen) != want {
		t.Errorf("%d tools, want %d", len(seen), want)
	}
}

func TestTools(t *testing.T) {
	root := newProject(t)
	a := testEnv(root, map[string]string{"ATREIDES_SESSION_ID": "s-a"})
	b := testEnv(root, map[string]string{"CLAUDE_CODE_SESSION_ID": "s-b"})
	for _, tc := range []struct {
		env        *Env
		tool, args string
		want       []string // substrings of the result or error
		err        bool
	}{
		{a, "select_active_intent", `{"intent_id":"auth"}`, []string{"Owned scope (you may write only here): src/auth/**", "tests pass", "session s-a"}, false},
		{b, "select_active_intent", `{"intent_id":"auth"}`, []string{"held by session s-a"}, true},
		{b, "select_active_intent", `{"intent_id":"nope"}`, []string{"open intents: auth"}, true},
		{b, "select_active_intent", `{}`, []string{`"intent_id" is required`}, true},
		{a, "list_intents", ``, []string{"- auth [open]: Auth rework; owned scope: src/auth/**; held by session s-a since 2026-01-02T03:04:05Z"}, false},
		{a, "request_scope_expansion", `{"intent_id":"auth","paths":["README.md"],"reason":"docs"}`, []string{"request #1 recorded for intent auth (README.md)"}, false},
		{a, "request_scope_expansion", `{"intent_id":"auth","reason":"docs"}`, []string{`"paths" is required`}, true},
		{a, "todo_add", `{"title":"epic one","level":"epic"}`, []string{"added todo #1 (epic): epic one"}, false},
		{a, "todo_add", `{"title":"child","parent":1}`, []string{"added todo #2 (task): child"}, false},
		{a, "todo_update", `{"id":2,"status":"in_progress"}`, []string{"todo #2 is in_progress"}, false},
		// Levels, priorities and statuses are checked by package state, as
		// for the command line; the arguments by their schema.
		{a, "todo_add", `{"title":"orphan","level":"subtask"}`, nil, true},
		{a, "todo_add", `{"title":"epic below","level":"epic","parent":2}`, nil, true},
		{a, "todo_add", `{"title":"x","priority":"urgent"}`, nil, true},
		{a, "todo_add", `{"title":"x","prio":"high"}`, []string{`unknown field "prio"`}, true},
		{a, "todo_add", `{"title":"x","parent":"one"}`, []string{"invalid arguments"}, true},
		{a, "todo_add", `[]`, []string{"invalid arguments"}, true},
		{a, "todo_update", `{"id":2,"status":"finished"}`, nil, true},
		{a, "todo_add", `{"title":"fix parse","parent":2,"priority":"high","file":"src/auth/p.go:12","agent":"oracle"}`, []string{"#3 (subtask, high, src/auth/p.go:12, agent oracle)"}, false},
		{a, "todo_list", `{}`, []string{"  - #2 [in_progress] child (task, yours)", "    - #3 [pending] fix parse (subtask, high, src/auth/p.go:12, agent oracle, yours)"}, false},
		{a, "todo_list", `null`, []string{"- #1 [pending] epic one (epic, yours)"}, false},
		{b, "todo_list", `{}`, []string{"- #1 [pending] epic one (epic, session s-a)"}, false},
		// A todo may be a step of a task of the board, which must exist.
		{a, "todo_add", `{"title":"step","task":9}`, []string{"task 9 does not exist"}, true},
		{a, "task_create", `{"title":"Ship the release"}`, nil, false},
		{a, "todo_add", `{"title":"step","task":1}`, []string{"added todo #4 (task, for task 1): step"}, false},
		{a, "session_status", `{}`, []string{"Session s-a (from $ATREIDES_SESSION_ID)", "Active intent: auth", "#1 [pending] epic one"}, false},
		{b, "session_status", `{}`, []string{"Session s-b (from $CLAUDE_CODE_SESSION_ID)", "No active intent: call select_active_intent before writing."}, false},
		{b, "session_status", `{"verbose":true}`, []string{`unknown field "verbose"`}, true},
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
}

// TestSession: who a call acts for, and how the host names tools in the
// messages of the one tool that names another.
func TestSession(t *testing.T) {
	root := newProject(t)
	st := store.Open(project.StateDir(root))
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			govstate.Key.Of(p).Recent = []govstate.SeenSession{{ID: "recent"}}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		env  *Env
		want string
	}{
		{"named by the host", &Env{Root: root, Store: st, Session: "s-host", Getenv: func(string) string { return "s-env" }}, "Session s-host (named by the host)"},
		{"the host's var first: ATREIDES_SESSION_ID cannot impersonate", testEnv(root, map[string]string{"ATREIDES_SESSION_ID": "s1", "CLAUDE_CODE_SESSION_ID": "s2"}), "Session s2 (from $CLAUDE_CODE_SESSION_ID)"},
		{"most recent", testEnv(root, nil), "Session recent (the project's most recently active session)"},
		{"host's tool name", &Env{Root: root, Store: st, Host: gemini.Host, Hosts: testHosts}, "call mcp_atreides_select_active_intent before writing"},
	} {
		tc.env.Now = time.Now
		out, err := call(t, tc.env, "session_status", `{}`)
		if err != nil || !strings.Contains(out, tc.want) {
			t.Errorf("%s: %q %v, want %q", tc.name, out, err, tc.want)
		}
	}
}

// TestEverySchemaCapsItsArguments: every string argument declares a
// maxLength and every array a maxItems (and its string items a
// maxLength), which capped enforces; a new argument without one fails
// here.
func TestEverySchemaCapsItsArguments(t *testing.T) {
	for _, tl := range All() {
		var s struct {
			Properties map[string]propCaps `json:"properties"`
		}
		if err := json.Unmarshal(tl.Schema, &s); err != nil {
			t.Fatalf("%s: %v", tl.Name, err)
		}
		for name, p := range s.Properties {
			switch {
			case p.Type == "string" && p.MaxLength == 0:
				t.Errorf("%s: %s has no maxLength", tl.Name, name)
			case p.Type == "array" && p.MaxItems == 0:
				t.Errorf("%s: %s has no maxItems", tl.Name, name)
			case p.Type == "array" && p.Items != nil && p.Items.Type == "string" && p.Items.MaxLength == 0:
				t.Errorf("%s: %s's items have no maxLength", tl.Name, name)
			}
		}
	}
}

func TestCheckCaps(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","properties":{
"title":{"type":"string","maxLength":4},
"paths":{"type":"array","maxItems":2,"items":{"type":"string","maxLength":3}}}}`)
	for _, tc := range []struct{ args, err string }{
		{`{"title":"abcd","paths":["a","bcd"]}`, ""},
		{`{"title":"ééé"}`, ""}, // characters, not bytes
		{`{"title":"abcde"}`, "title is 5 characters; at most 4"},
		{`{"paths":["a","b","c"]}`, "paths has 3 items; at most 2"},
		{`{"paths":["a","bcde"]}`, "paths[1] is 4 characters; at most 3"},
		{`{"title":7}`, ""}, // a wrong type is the tool's parsing's to report
		{`[1]`, ""},
	} {
		caps, err := schemaCaps(schema)
		if err == nil {
			err = checkCaps(caps, json.RawMessage(tc.args))
		}
		if got := fmt.Sprint(err); tc.err == "" && err != nil || tc.err != "" && !strings.Contains(got, tc.err) {
			t.Errorf("%s: %v, want %q", tc.args, err, tc.err)
		}
	}
}
