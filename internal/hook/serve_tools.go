package hook

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/agenttools"
	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/host/opencode"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/serve"
	"github.com/atreides-dev/atreides/internal/state"
)

// toolCallTimeout is the deadline of one tool call over serve: a tool may
// wait for background work (background_output's wait), so it gets far
// longer than a hook. The call runs beside the hooks (serve orders
// requests per session, and tool calls have none), so a waiting tool
// never holds up the runner's ticks or the children's hooks.
const toolCallTimeout = 65 * time.Minute

// toolServer answers the plugin's tool and background runner methods.
type toolServer struct {
	proc  *Process
	host  string // the served host's name
	roots *servedRoots
	m     *opencode.Mapper
	tools func() []agenttools.Tool
	now   func() time.Time
}

func (ts *toolServer) handle(ctx context.Context, method string, params json.RawMessage) (any, error) {
	switch method {
	case opencode.MethodTools:
		var p struct{ Directory string }
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, serve.Errorf(serve.CodeParams, "tools.list: %v", err)
		}
		return ts.list(ts.root(p.Directory)), nil
	case opencode.MethodToolCall:
		var p opencode.ToolCall
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, serve.Errorf(serve.CodeParams, "tool.call: %v", err)
		}
		return ts.call(ctx, p), nil
	case opencode.MethodTick:
		var p opencode.Tick
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, serve.Errorf(serve.CodeParams, "background.tick: %v", err)
		}
		return ts.tick(ctx, p)
	}
	return nil, serve.Errorf(serve.CodeMethod, "unknown method %q", method)
}

func (ts *toolServer) root(dir string) string {
	if dir == "" {
		dir, _ = ts.proc.Getwd()
	}
	return project.Root("", dir)
}

// runnerConfig is the project's background.opencode section (the
// defaults when the configuration cannot be read: the hooks report that).
func runnerConfig(s *Settings) config.BackgroundOpenCode {
	return s.configOrBuiltin().Background.OpenCode
}

func (ts *toolServer) list(root string) opencode.ToolList {
	s, _ := ts.roots.get(root)
	out := opencode.ToolList{Tools: []opencode.ToolSpec{}, PollMS: runnerConfig(s).PollMS}
	for _, t := range ts.tools() {
		out.Tools = append(out.Tools, opencode.ToolSpec{Name: opencode.ToolPrefix + t.Name, Description: t.Description, Schema: t.Schema})
	}
	return out
}

// call runs one tool for the session that called it. A tool's error is
// the result's Error (the model reads it), not a protocol error.
func (ts *toolServer) call(ctx context.Context, p opencode.ToolCall) opencode.ToolResult {
	name := strings.TrimPrefix(p.Tool, opencode.ToolPrefix)
	var tool *agenttools.Tool
	for _, t := range ts.tools() {
		if t.Name == name {
			tool = &t
			break
		}
	}
	if tool == nil {
		return opencode.ToolResult{Error: fmt.Sprintf("atreides has no tool %q", p.Tool)}
	}
	root := ts.root(p.Directory)
	if root == "" {
		return opencode.ToolResult{Error: project.ErrNoProject.Error()}
	}
	s, log := ts.roots.get(root)
	sess, agent := ts.m.Caller(root, p.SessionID)
	env := &agenttools.Env{Root: root, Store: s.store(log), Host: ts.host, Session: sess, Agent: agent,
		Now: ts.now, Getenv: ts.proc.Getenv, Logf: log.Logf, SkillDirs: all.SkillDirs(),
		Hosts: all.Facts(), Guard: s.guard()}
	args := p.Args
	if len(args) == 0 || string(args) == "null" {
		args = json.RawMessage(`{}`)
	}
	out, err := tool.Call(ctx, env, args)
	// Any tool may have queued, cancelled or ended background work; a
	// tick right away starts it without waiting for the timer.
	if err != nil {
		return opencode.ToolResult{Error: err.Error(), Tick: true}
	}
	return opencode.ToolResult{Output: out, Tick: true}
}

// tick is one step of the OpenCode runner, in one transaction of the
// registry (which also fails lost process runners and launches the
// process tasks whose slot this tick freed): the plugin's reports in, its
// next actions out.
func (ts *toolServer) tick(ctx context.Context, p opencode.Tick) (opencode.TickResult, error) {
	root := ts.root(p.Directory)
	if root == "" {
		return opencode.TickResult{}, nil // no project, no background tasks
	}
	s, log := ts.roots.get(root)
	rc := runnerConfig(s)
	tm := background.Timing{Stable: time.Duration(rc.StableMS) * time.Millisecond, Stale: time.Duration(rc.StaleSeconds) * time.Second}
	// The registry on the served configuration: a tick comes every
	// poll_ms, and background.Open would parse the files each time.
	r := &background.Registry{Root: root, Store: s.store(log), Opts: s.background(),
		Alive: background.ProcAlive, Now: ts.now, Logf: log.Logf}
	var out background.TickOut
	err := r.Update(ctx, func(pr *state.Project, now time.Time) error {
		out = background.Tick(bgtasks.Key.Of(pr), p.TickIn, r.Opts.Limits, tm, now)
		return nil
	})
	if err != nil {
		return opencode.TickResult{}, fmt.Errorf("background tick: %w", err)
	}
	for _, id := range out.Ended {
		log.Logf("background: %s ended (OpenCode child session)", id)
	}
	r.Launch(ctx, out.Others)
	// The registry keeps the head of a prompt; the child gets it whole.
	for i := range out.Launch {
		if full, err := background.PromptOf(root, out.Launch[i].Task); err == nil {
			out.Launch[i].Prompt = full
		}
	}
	return opencode.TickResult{TickOut: out, PollMS: rc.PollMS}, nil
}

var servedTools = agenttools.All
