package agenttools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// launchExe overrides the supervisor's argv in tests (nil: atreides bg run).
var launchExe []string

// Background is the background task tools (package background).
func Background() []Tool {
	return []Tool{
		{Name: "background_task", Description: "Start a task in the background: another agent works on the prompt in this project while you continue. Returns the task id at once (and its queue position when the concurrency limit is full). You are told when all your background tasks have ended; read a result with background_output.",
			Schema: json.RawMessage(taskSchema), Call: backgroundTask},
		{Name: "background_output", Description: "Show a background task's status and result (or all of yours without task_id). With wait, wait up to that many seconds for it (or all of them) to end.",
			Schema: json.RawMessage(outputSchema), Call: backgroundOutput},
		{Name: "background_cancel", Description: "Cancel a background task (task_id), or all of your pending ones (all: true). A running task's process is stopped.",
			Schema: json.RawMessage(cancelSchema), Call: backgroundCancel},
		{Name: "delegate_task", Description: "Hand a task to an agent (agent) or a category of agent (category). run_in_background false runs it and waits for its answer (bounded; past the bound it keeps running in the background); true returns at once like background_task. resume continues an earlier task's conversation with a new prompt.",
			Schema: json.RawMessage(delegateSchema), Call: delegateTask},
	}
}

const agentProp = `{"type":"string","maxLength":4096,"description":"the agent to run it: atreides-explore (read-only search), atreides-librarian (docs and references), atreides-build (implementation), atreides-plan (plans only), atreides-stilgar (hard decisions), or a category: quick, deep, writing, general; omitted: routed by the task's language (tasks.routing) and whether the prompt asks for a change"}`

// operationProp is the launch's operation, which sets its timeout.
const operationProp = `{"type":"string","enum":["research","planning","implementation","simple"],"maxLength":32,"description":"the kind of work, which sets how long it may run (research 1 h, planning 30 min, implementation 2 h, simple 5 min by default); omitted: the agent's own"}`

const taskSchema = `{"type":"object","properties":{
"description":{"type":"string","maxLength":4096,"description":"a few words on what the task does, shown in lists"},
"prompt":{"type":"string","maxLength":65536,"description":"the whole task: the agent sees nothing of your conversation"},
"agent":` + agentProp + `,
"skills":{"type":"array","maxItems":256,"items":{"type":"string","maxLength":4096},"description":"skills (.atreides/skills/<name>/SKILL.md) to give the agent"},
"operation":` + operationProp + `},
"required":["description","prompt"],"additionalProperties":false}`

const outputSchema = `{"type":"object","properties":{
"task_id":{"type":"string","maxLength":4096,"description":"the task (bg-N); omitted: all of yours"},
"wait":{"type":"integer","minimum":0,"description":"seconds to wait for it to end (bounded by background.wait_seconds)"}},
"additionalProperties":false}`

const cancelSchema = `{"type":"object","properties":{
"task_id":{"type":"string","maxLength":4096,"description":"the task to cancel (bg-N)"},
"all":{"type":"boolean","description":"cancel all of your pending tasks"}},
"additionalProperties":false}`

const delegateSchema = `{"type":"object","properties":{
"description":{"type":"string","maxLength":4096,"description":"a few words on what the task does"},
"prompt":{"type":"string","maxLength":65536,"description":"the whole task: the agent sees nothing of your conversation"},
"agent":` + agentProp + `,
"category":{"type":"string","maxLength":4096,"description":"a category instead of an agent: quick, deep, writing, general"},
"run_in_background":{"type":"boolean","description":"true: return at once with the task id; false: wait for the answer"},
"skills":{"type":"array","maxItems":256,"items":{"type":"string","maxLength":4096},"description":"skills (.atreides/skills/<name>/SKILL.md) to give the agent"},
"resume":{"type":"string","maxLength":4096,"description":"an earlier task (bg-N) whose conversation to continue with this prompt"},
"operation":` + operationProp + `},
"required":["prompt","run_in_background"],"additionalProperties":false}`

type taskIn struct {
	Description string   `json:"description"`
	Prompt      string   `json:"prompt"`
	Agent       string   `json:"agent"`
	Category    string   `json:"category"`
	Skills      []string `json:"skills"`
	Resume      string   `json:"resume"`
	Operation   string   `json:"operation"`
	Background  *bool    `json:"run_in_background"`
}

func registry(env *Env) *background.Registry {
	o := background.LoadOptions(env.Root)
	o.SkillDirs = env.SkillDirs
	o.Headless = background.HeadlessOf(env.Hosts)
	o.Exe = launchExe
	st := env.Store
	if st == nil {
		st = fleet.Open(env.Root)
	}
	logf := env.Logf
	if logf == nil {
		logf = func(string, ...any) {}
	}
	now := env.Now
	if now == nil {
		now = time.Now
	}
	return &background.Registry{Root: env.Root, Store: st, Opts: o, Alive: background.ProcAlive, Now: now, Logf: logf}
}

// caller is the calling session (see [Env.session]).
func caller(env *Env, p *state.Project) string {
	id, _ := env.session(p)
	return id
}

func (env *Env) getenv(k string) string {
	if env.Getenv == nil {
		return os.Getenv(k)
	}
	return env.Getenv(k)
}

// path is the caller's chain of background agents, from the environment
// the supervisor gives its CLI (see background.Supervise).
func path(env *Env) []string {
	if p := env.getenv(background.PathEnv); p != "" {
		return strings.Split(p, ",")
	}
	return nil
}

// launch queues a task for the calling session and returns it and its
// queue position.
func launch(ctx context.Context, env *Env, r *background.Registry, in taskIn) (bgtasks.Task, int, error) {
	var (
		t   bgtasks.Task
		pos int
	)
	// The caller's host is read before the update, in a view of its own:
	// a store transaction inside the update's would wait on the update's
	// own lock (the 10 s stall of a server that does not know its host).
	parent, host, err := callerHost(ctx, env, r)
	if err != nil {
		return t, 0, err
	}
	if err := guarded(ctx, env, r, host); err != nil {
		return t, 0, err
	}
	err = r.Update(ctx, func(p *state.Project, now time.Time) error {
		q := background.Request{Parent: parent, ParentAgent: env.Agent, Host: host, Facts: env.Hosts[host], Agent: in.Agent,
			Description: in.Description, Prompt: in.Prompt, Skills: in.Skills, Resume: in.Resume, Path: path(env),
			ParentModel: parentModel(env, r, host), Operation: in.Operation}
		if in.Resume != "" {
			if err := resumable(bgtasks.Key.Of(p), r.Opts, in.Resume, host, parent, q.Facts != nil && q.Facts.PluginRunsTasks); err != nil {
				return err
			}
		}
		added, err := r.Add(p, q, now)
		if err != nil {
			return err
		}
		t = *added
		return nil
	})
	if err != nil {
		return t, 0, err
	}
	// Schedule ran at the end of the update: read where it left the task.
	err = r.View(ctx, func(p *state.Project) error {
		if cur := bgtasks.Key.Of(p).Task(t.ID); cur != nil {
			t = *cur
		}
		pos = background.QueuePosition(bgtasks.Key.Of(p), t.ID)
		return nil
	})
	return t, pos, err
}

// callerHost is the calling session and its host: the server's (known
// from how it was started), else the host of the session's record, else
// the default host; read in one view, outside any update.
func callerHost(ctx context.Context, env *Env, r *background.Registry) (parent, host string, err error) {
	host = env.Host
	err = r.Store.View(ctx, func(tx *store.Tx) error {
		p, err := state.LoadProject(tx)
		if err != nil {
			return err
		}
		parent = caller(env, p)
		if host == "" && parent != "" {
			host = env.DefaultHost
			if s, _ := state.FindSession(tx, parent); s != nil && s.Host != "" {
				host = s.Host
			}
		}
		return nil
	})
	if err == nil && parent == "" {
		err = errNoCaller
	}
	return parent, host, err
}

// guarded refuses a task whose host's CLI would run it without
// atreides's hooks (event.Headless.Guarded: Codex's exec skips untrusted
// hooks silently). Asked before the launch's update, which must not wait
// on another program while it holds the project's lock.
func guarded(ctx context.Context, env *Env, r *background.Registry, host string) error {
	h, cmd := r.Opts.Headless[host], r.Opts.Commands[host]
	if h == nil || h.Guarded == nil || len(cmd) == 0 {
		return nil
	}
	if f := env.Hosts[host]; f != nil && f.PluginRunsTasks {
		return nil
	}
	return h.Guarded(ctx, cmd[0], r.Root)
}

// parentModel is the launching agent's model on host: the model of the
// background task it runs as (from the environment its supervisor gave
// it), else its roster agent's model there; "" when neither is known
// (the CLI's default then applies).
func parentModel(env *Env, r *background.Registry, host string) string {
	if m := env.getenv(background.ModelEnv); m != "" {
		return m
	}
	if a, ok := r.Opts.Roster.Get(env.Agent); ok {
		return a.ModelFor(host)
	}
	return ""
}

// resumable checks that a task can continue the earlier one: it is the
// caller's, it ended, its CLI reported a session, and the host's CLI can
// resume one.
// (A host whose plugin runs tasks resumes by prompting the child session
// again.)
func resumable(b *bgtasks.Background, o background.Options, id, host, caller string, plugin bool) error {
	old := b.Task(id)
	switch {
	case old == nil:
		return fmt.Errorf("cannot resume %s: no such task (it may have been forgotten)", id)
	case old.Parent != caller:
		return errNotYours(id)
	case background.Pending(old):
		return fmt.Errorf("cannot resume %s: it is still %s; wait for it (background_output wait) first", id, old.Status)
	case o.Resume[host] == nil && !plugin:
		return fmt.Errorf("cannot resume %s: %s's headless CLI has no resume command configured (background.resume); start a new task and include what it needs", id, host)
	case old.Child == "":
		return fmt.Errorf("cannot resume %s: its CLI reported no session id", id)
	case old.Host != host:
		return fmt.Errorf("cannot resume %s: it ran on %s, not %s", id, old.Host, host)
	}
	return nil
}

func backgroundTask(ctx context.Context, env *Env, args json.RawMessage) (string, error) {
	var in taskIn
	if err := json.Unmarshal(args, &in); err != nil {
		return "", fmt.Errorf("invalid arguments: %w", err)
	}
	routed := ""
	if in.Agent == "" {
		routed = route(ctx, env, &in)
	}
	t, pos, err := launch(ctx, env, registry(env), in)
	if err != nil {
		return "", err
	}
	return routed + launched(t, pos), nil
}

func launched(t bgtasks.Task, pos int) string {
	if pos > 0 {
		return fmt.Sprintf("Background task %s (%s) queued: position %d for %s's concurrency limit. You will be told when your background tasks have ended; background_output task_id=%s shows it meanwhile.", t.ID, t.Agent, pos, t.Key, t.ID)
	}
	return fmt.Sprintf("Background task %s (%s) started. You will be told when your background tasks have ended; background_output task_id=%s shows it meanwhile.", t.ID, t.Agent, t.ID)
}

type outputIn struct {
	TaskID string `json:"task_id"`
	Wait   int    `json:"wait"`
}

// pollEvery is how often a wait looks at the registry; the store's lock
// is held only for each look.
var pollEvery = 500 * time.Millisecond

func backgroundOutput(ctx context.Context, env *Env, args json.RawMessage) (string, error) {
	var in outputIn
	if err := json.Unmarshal(args, &in); err != nil {
		return "", fmt.Errorf("invalid arguments: %w", err)
	}
	if in.Wait < 0 {
		return "", errors.New("wait must be 0 or more seconds")
	}
	r := registry(env)
	wait := min(time.Duration(in.Wait)*time.Second, r.Opts.WaitMax)
	tasks, waited, err := await(ctx, env, r, in.TaskID, wait)
	if err != nil {
		return "", err
	}
	return render(r, tasks, waited, wait), nil
}

// await polls until the task (or every task of the caller) has ended or
// wait passed; it returns the tasks as last seen and whether it gave up
// waiting.
func await(ctx context.Context, env *Env, r *background.Registry, id string, wait time.Duration) ([]bgtasks.Task, bool, error) {
	deadline := r.Now().Add(wait)
	for {
		var (
			tasks []bgtasks.Task
			pend  bool
		)
		// An update, not a view: a lost runner must end the wait.
		err := r.Update(ctx, func(p *state.Project, _ time.Time) error {
			tasks, pend = nil, false
			if id != "" {
				t, err := ownTask(env, p, id)
				if err != nil {
					return err
				}
				tasks = append(tasks, *t)
			} else {
				for _, t := range background.Of(bgtasks.Key.Of(p), caller(env, p)) {
					tasks = append(tasks, *t)
				}
			}
			for i := range tasks {
				pend = pend || background.Pending(&tasks[i])
			}
			return nil
		})
		if err != nil || !pend || !r.Now().Before(deadline) {
			return tasks, pend && wait > 0, err
		}
		select {
		case <-ctx.Done():
			return tasks, true, nil
		case <-time.After(min(pollEvery, time.Until(deadline))):
		}
	}
}

// maxOutput bounds the result text background_output returns per task.
const maxOutput = 32 << 10

func render(r *background.Registry, tasks []bgtasks.Task, timedOut bool, wait time.Duration) string {
	if len(tasks) == 0 {
		return "You have no background tasks."
	}
	var b strings.Builder
	now := r.Now()
	for i := range tasks {
		t := &tasks[i]
		fmt.Fprintf(&b, "%s (%s, %s): %s — %s\n", t.ID, t.Agent, background.Runtime(t, now), t.Status, t.Description)
		switch {
		case t.Status == background.Queued:
			fmt.Fprintf(&b, "queued behind other %s tasks\n", t.Key)
		case t.Error != "":
			fmt.Fprintf(&b, "error: %s\n", t.Error)
		}
		if !background.Pending(t) {
			res := background.ResultOf(r.Root, t.ID, t.Result)
			if len(res) > maxOutput {
				res = res[:maxOutput] + fmt.Sprintf("\n… cut; the whole answer is in %s", filepath.Join(".atreides", "background", t.ID, "result.md"))
			}
			if res != "" {
				fmt.Fprintf(&b, "result:\n%s\n", res)
			}
		}
		b.WriteString("\n")
	}
	if timedOut {
		fmt.Fprintf(&b, "Still pending after waiting %s; wait again, continue other work, or cancel with background_cancel.\n", wait)
	}
	return strings.TrimSpace(b.String())
}

type cancelIn struct {
	TaskID string `json:"task_id"`
	All    bool   `json:"all"`
}

func backgroundCancel(ctx context.Context, env *Env, args json.RawMessage) (string, error) {
	var in cancelIn
	if err := json.Unmarshal(args, &in); err != nil {
		return "", fmt.Errorf("invalid arguments: %w", err)
	}
	if (in.TaskID == "") == !in.All {
		return "", errors.New("give task_id, or all: true (not both)")
	}
	r := registry(env)
	var done []string
	err := r.Update(ctx, func(p *state.Project, now time.Time) error {
		done = nil
		ids := []string{in.TaskID}
		if in.All {
			ids = nil
			for _, t := range background.Of(bgtasks.Key.Of(p), caller(env, p)) {
				if background.Pending(t) {
					ids = append(ids, t.ID)
				}
			}
		}
		if !in.All {
			if _, err := ownTask(env, p, in.TaskID); err != nil {
				return err
			}
		}
		for _, id := range ids {
			if err := background.CancelTask(bgtasks.Key.Of(p), id, now, r.Alive); err != nil {
				return err
			}
			done = append(done, id)
		}
		return nil
	})
	switch {
	case err != nil:
		return "", err
	case len(done) == 0:
		return "You have no pending background tasks.", nil
	}
	return "Cancelled " + strings.Join(done, ", ") + ".", nil
}

// ownTask is the caller's task with the id: a session sees and acts on
// its own background tasks only (another's prompt and result are that
// session's, and cancelling them would stop its work).
func ownTask(env *Env, p *state.Project, id string) (*bgtasks.Task, error) {
	t := bgtasks.Key.Of(p).Task(id)
	switch {
	case t == nil:
		return nil, fmt.Errorf("no background task %s", id)
	case t.Parent != caller(env, p):
		return nil, errNotYours(id)
	}
	return t, nil
}

func errNotYours(id string) error {
	return fmt.Errorf("task %s belongs to another session: a session can read, cancel and resume only its own background tasks", id)
}

func delegateTask(ctx context.Context, env *Env, args json.RawMessage) (string, error) {
	var in taskIn
	if err := json.Unmarshal(args, &in); err != nil {
		return "", fmt.Errorf("invalid arguments: %w", err)
	}
	switch {
	case in.Background == nil:
		return "", errors.New("run_in_background is required: true to continue while it runs, false to wait for its answer")
	case in.Agent != "" && in.Category != "":
		return "", errors.New("give agent or category, not both")
	case in.Agent == "":
		in.Agent = in.Category
	}
	routed := ""
	if in.Agent == "" && in.Resume == "" {
		routed = route(ctx, env, &in)
	}
	r := registry(env)
	if in.Agent == "" { // a resume runs as the agent it continues
		_ = r.View(ctx, func(p *state.Project) error {
			if t := bgtasks.Key.Of(p).Task(in.Resume); t != nil {
				in.Agent = t.Agent
			}
			return nil
		})
	}
	if in.Description == "" {
		in.Description = firstLine(in.Prompt)
	}
	t, pos, err := launch(ctx, env, r, in)
	if err != nil || *in.Background {
		return routed + launched(t, pos), err
	}
	tasks, pending, err := await(ctx, env, r, t.ID, r.Opts.WaitMax)
	if err != nil {
		return "", err
	}
	if pending {
		return fmt.Sprintf("%s is still running after %s; it continues in the background and you will be told when it ends (background_output task_id=%s wait=… to wait more).", t.ID, r.Opts.WaitMax, t.ID), nil
	}
	return routed + render(r, tasks, false, 0), nil
}

// route picks the agent of a task that names none, by the routing table
// (tasks.PickFor: the language of the file names in its description and
// prompt, research unless the prompt asks for a change), and says which
// it picked and why, for the caller's answer; an MCP server the
// language's agents work with that the host lacks is named with the
// fallback, and logged once to the error log (tasks.ToolsNote).
func route(ctx context.Context, env *Env, in *taskIn) string {
	p := tasks.PickFor(env.Root, env.Host, in.Description, in.Prompt)
	in.Agent = p.Agent
	note := tasks.ToolsNote(ctx, env.Root, env.Host, p, func() ([]string, bool, error) {
		home, _ := os.UserHomeDir()
		return all.MCPServers(env.Host, env.Root, home, env.getenv)
	})
	return fmt.Sprintf("Routed to %s (%s).\n", p.Agent, p.Why) + note
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	if len(s) > 60 {
		s = s[:60] + "…"
	}
	return s
}
