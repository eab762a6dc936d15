package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/agenttools"
	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// testTools stands in for agenttools.All: "whoami" answers with the
// caller, "hold" waits until release is closed.
func testTools(release chan struct{}) func() []agenttools.Tool {
	return func() []agenttools.Tool {
		return []agenttools.Tool{
			{Name: "whoami", Description: "who calls", Schema: json.RawMessage(`{"type":"object","properties":{"x":{"type":"string"}}}`),
				Call: func(_ context.Context, env *agenttools.Env, args json.RawMessage) (string, error) {
					if strings.Contains(string(args), "fail") {
						return "", fmt.Errorf("asked to fail")
					}
					return fmt.Sprintf("host=%s session=%s agent=%s args=%s", env.Host, env.Session, env.Agent, args), nil
				}},
			{Name: "hold", Description: "waits", Schema: json.RawMessage(`{"type":"object"}`),
				Call: func(ctx context.Context, _ *agenttools.Env, _ json.RawMessage) (string, error) {
					select {
					case <-release:
						return "released", nil
					case <-ctx.Done():
						return "", ctx.Err()
					}
				}},
		}
	}
}

func TestServeTools(t *testing.T) {
	release := make(chan struct{})
	old := servedTools
	servedTools = testTools(release)
	t.Cleanup(func() { servedTools = old })
	dir := servedProject(t)
	c := startServe(t, dir)

	list := c.call("tools.list", map[string]any{"directory": dir})
	tools, _ := list["tools"].([]any)
	if len(tools) != 2 || tools[0].(map[string]any)["name"] != "atreides_whoami" || list["poll_ms"] == nil {
		t.Fatalf("tools.list = %v", list)
	}
	if s := tools[0].(map[string]any)["schema"].(map[string]any); s["type"] != "object" {
		t.Fatalf("schema not relayed: %v", s)
	}

	got := c.call("tool.call", map[string]any{"directory": dir, "tool": "atreides_whoami", "sessionID": "ses_lead", "agent": "build", "args": map[string]any{"x": "1"}})
	if got["output"] != `host=opencode session=ses_lead agent= args={"x":"1"}` || got["tick"] != true {
		t.Fatalf("lead call = %v", got)
	}
	// A child session (created with a parent) calls as an agent of its parent.
	c.call("event", map[string]any{"directory": dir, "input": map[string]any{"event": map[string]any{"type": "session.created",
		"properties": map[string]any{"sessionID": "ses_child", "info": map[string]any{"id": "ses_child", "parentID": "ses_lead"}}}}})
	got = c.call("tool.call", map[string]any{"directory": dir, "tool": "atreides_whoami", "sessionID": "ses_child", "args": nil})
	if got["output"] != "host=opencode session=ses_lead agent=ses_child args={}" {
		t.Fatalf("child call = %v", got)
	}
	if got := c.call("tool.call", map[string]any{"directory": dir, "tool": "atreides_whoami", "sessionID": "s", "args": map[string]any{"x": "fail"}}); got["error"] != "asked to fail" {
		t.Fatalf("a tool's error = %v", got)
	}
	if got := c.call("tool.call", map[string]any{"directory": dir, "tool": "atreides_nope", "sessionID": "s"}); !strings.Contains(fmt.Sprint(got["error"]), "no tool") {
		t.Fatalf("unknown tool = %v", got)
	}

	// A waiting tool holds up neither the runner's tick nor the session's
	// hooks: both are answered while it waits.
	send := func(id int, method string, params any) {
		p, _ := json.Marshal(params)
		fmt.Fprintf(c.in, `{"v":1,"id":%d,"method":%q,"params":%s}`+"\n", id, method, p)
	}
	send(100, "tool.call", map[string]any{"directory": dir, "tool": "atreides_hold", "sessionID": "ses_lead"})
	send(101, "background.tick", map[string]any{"directory": dir})
	send(102, "tool.before", toolBefore(dir, "ses_lead", "c1", "ls"))
	var order []int
	for range 3 {
		line := c.line()
		var r serveResp
		_ = json.Unmarshal(line, &r)
		if r.Error != nil {
			t.Fatalf("%s", line)
		}
		order = append(order, r.ID)
		if len(order) == 2 {
			close(release)
		}
	}
	if order[2] != 100 {
		t.Fatalf("answers came %v: the waiting tool held the others up", order)
	}
}

func TestServeBackgroundTick(t *testing.T) {
	dir := servedProject(t)
	if err := os.MkdirAll(filepath.Join(dir, ".atreides"), 0o755); err != nil {
		t.Fatal(err)
	}
	cfg := "background:\n  opencode:\n    stable_ms: 0\n    poll_ms: 250\n"
	if err := os.WriteFile(filepath.Join(dir, ".atreides", "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := fleet.Open(dir).Update(context.Background(), func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			background.Add(bgtasks.Key.Of(p), bgtasks.Task{Parent: "ses_p", Runner: background.RunnerOpenCode, Host: "opencode", Key: "k", Prompt: "find it", Agent: "explore"}, time.Now())
			background.Schedule(bgtasks.Key.Of(p), background.Limits{Default: 1}, time.Now())
			return nil
		})
	}); err != nil {
		t.Fatal(err)
	}
	c := startServe(t, dir)
	tick := func(params map[string]any) map[string]any {
		params["directory"] = dir
		return c.call("background.tick", params)
	}
	out := tick(map[string]any{})
	launch, _ := out["launch"].([]any)
	if len(launch) != 1 || out["pending"] != true || out["poll_ms"] != 250.0 {
		t.Fatalf("first tick = %v", out)
	}
	if l := launch[0].(map[string]any); l["task"] != "bg-1" || l["parent"] != "ses_p" || l["prompt"] != "find it" || l["agent"] != "explore" || !strings.Contains(l["title"].(string), "bg-1") {
		t.Fatalf("launch = %v", l)
	}
	out = tick(map[string]any{"launched": []any{map[string]any{"task": "bg-1", "child": "ses_c"}}})
	if fmt.Sprint(out["watch"]) != "[map[child:ses_c task:bg-1]]" {
		t.Fatalf("watch = %v", out)
	}
	obs := map[string]any{"task": "bg-1", "child": "ses_c", "status": "idle", "messages": 2, "answered": true, "last": "FOUND IT", "open_todos": 0}
	tick(map[string]any{"observed": []any{obs}})
	out = tick(map[string]any{"observed": []any{obs}})
	if out["pending"] != false {
		t.Fatalf("still pending after a stable idle answer: %v", out)
	}
	var p *state.Project
	err := store.Open(project.StateDir(dir)).View(context.Background(), func(tx *store.Tx) error {
		var err error
		p, err = state.LoadProject(tx)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if task := bgtasks.Key.Of(p).Task("bg-1"); task.Status != background.Completed || task.Result != "FOUND IT" {
		t.Fatalf("task = %+v", task)
	}
}
