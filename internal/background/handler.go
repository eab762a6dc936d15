package background

import (
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// HandlerKinds are the events [Handler]'s handler runs on: a hook
// builds it for those alone.
var HandlerKinds = []event.Kind{event.SessionStart, event.UserPrompt, event.PreTool, event.PostTool, event.Stop, event.SubagentStop}

// Handler tells a parent agent when its background tasks have ended (one
// batched notification, through the context collector, on the parent's
// next event that carries context) and keeps its Stop from ending the
// turn silently while they run. It declares only the background group
// and the session's error outbox: a project with no tasks stores an
// empty section, as a session with no waiting errors does, which costs
// nothing to load, and the handler returns at once.
//
// Lost runners are recovered on the events that start or end a turn,
// not on every tool call (that would read /proc per running task); they
// go to the error log through the session's outbox.
func Handler(root string, opts func() Options) engine.Handler {
	return engine.Handler{
		Name: "background", Priority: engine.Normal,
		Kinds:  HandlerKinds,
		Groups: bgtasks.Key.Group() | tasks.OutboxKey.Group(),
		Handle: func(c *engine.Call) (event.Result, error) { return handle(c, root, opts) },
	}
}

// CallerHandlerKinds are the events [CallerHandler]'s handler runs on: a hook
// builds it for those alone.
var CallerHandlerKinds = []event.Kind{event.SessionStart, event.PreTool}

// CallerHandler binds the host process to the session for its MCP server
// (see [BindCaller]) at the session's start and right before each call
// of an atreides MCP tool; a failure leaves the server unable to tell the
// session, said once in the log. It is a handler of its own, apart from
// the background tasks' (full preset only), because every preset that
// installs the MCP server needs it.
func CallerHandler(root string) engine.Handler {
	return engine.Handler{
		Name: "mcp-caller", Priority: engine.Normal,
		Kinds:  CallerHandlerKinds,
		Groups: state.NoGroups,
		Handle: func(c *engine.Call) (event.Result, error) {
			bindCaller(c, root)
			return event.Result{}, nil
		},
	}
}

func bindCaller(c *engine.Call, root string) {
	ev := c.Event
	ours := ev.Kind == event.PreTool && strings.HasPrefix(string(ev.Tool.Name), "mcp:atreides__")
	if ev.Kind != event.SessionStart && !ours {
		return
	}
	if ev.Kind == event.SessionStart {
		PruneBindings(root)
	}
	if err := BindCaller(root, ev.SessionID); err != nil {
		c.Env.Logf("mcp caller binding: %v", err)
	}
}

func handle(c *engine.Call, root string, opts func() Options) (event.Result, error) {
	b, ev := bgtasks.Key.Of(c.State.Project), c.Event
	if len(b.Tasks) == 0 {
		return event.Result{}, nil
	}
	if ev.Kind == event.Stop || ev.Kind == event.UserPrompt || ev.Kind == event.SessionStart {
		if lost := Recover(b, ProcAlive, ev.Time); len(lost) > 0 {
			c.Env.Logf("background tasks %s: runner lost, failed", strings.Join(lost, ", "))
			for _, id := range lost {
				// The board is not loaded here: the session's outbox
				// takes the failure to it.
				tasks.QueueError(c.State.Session, failureEvent(b.Task(id)))
			}
			o := opts()
			for _, id := range Schedule(b, o.Limits, ev.Time) {
				// The supervisor waits for this transaction's lock,
				// so it sees the task running once this commits.
				if b.Task(id).Runner == RunnerOpenCode {
					continue // the plugin runs it
				}
				if err := Launch(o.Exe, root, id); err != nil {
					c.Env.Logf("background task %s: supervisor not started: %v", id, err)
				}
			}
		}
	}
	if !mine(b, ev.SessionID) {
		return event.Result{}, nil
	}
	o := opts()
	var res event.Result
	if o.Notify {
		if done := TakeNotification(b, ev.SessionID, ev.AgentID); len(done) > 0 {
			text := Notification(done, ev.HostFacts().ToolName)
			if ev.Kind == event.Stop && !ev.InSubagent() {
				// The agent is about to stop: it reads the results now.
				return event.Result{Block: true, BlockReason: text}, nil
			}
			res.Context = event.Note("background", "done-"+done[len(done)-1].ID, event.High, text)
		}
	}
	if ev.Kind == event.Stop && !ev.InSubagent() {
		if pending := pendingOf(b, ev.SessionID, ev.AgentID); len(pending) > 0 {
			gate(c, b, pending, o, &res)
		}
	}
	return res, nil
}

// mine reports whether the session launched any task.
func mine(b *bgtasks.Background, session string) bool {
	for i := range b.Tasks {
		if b.Tasks[i].Parent == session {
			return true
		}
	}
	return false
}

func pendingOf(b *bgtasks.Background, parent, agent string) []*bgtasks.Task {
	var out []*bgtasks.Task
	for _, t := range Of(b, parent) {
		if t.ParentAgent == agent && Pending(t) {
			out = append(out, t)
		}
	}
	return out
}

// gate blocks a stop while tasks are pending, at most MaxBlocks times per
// batch (each pending task counts the blocks it has seen, so a new task
// is a new batch). It joins a block the todo stop gate already made
// rather than adding one: the reasons are merged into one.
func gate(c *engine.Call, b *bgtasks.Background, pending []*bgtasks.Task, o Options, res *event.Result) {
	most := 0
	for _, t := range pending {
		most = max(most, t.Blocks)
	}
	if most >= o.MaxBlocks {
		c.Env.Logf("session %s: stop let through with %d background task(s) pending, blocked %d times (session.stop.max_blocks)", c.Event.SessionID, len(pending), most)
		return
	}
	for _, t := range pending {
		t.Blocks++
	}
	res.Block, res.BlockReason = true, stopReason(b, pending, c.Event.HostFacts().ToolName, most+1, o.MaxBlocks, c.Event.Time)
}

func stopReason(b *bgtasks.Background, pending []*bgtasks.Task, name func(string) string, n, limit int, now time.Time) string {
	var s strings.Builder
	fmt.Fprintf(&s, "atreides: %d background task(s) you launched are still pending:\n", len(pending))
	for _, t := range pending {
		if t.Status == Queued {
			fmt.Fprintf(&s, "- %s (%s): queued %s, position %d — %s\n", t.ID, t.Agent, Runtime(t, now), QueuePosition(b, t.ID), t.Description)
		} else {
			fmt.Fprintf(&s, "- %s (%s): running for %s — %s\n", t.ID, t.Agent, Runtime(t, now), t.Description)
		}
	}
	fmt.Fprintf(&s, "Wait for them with %s (wait: seconds), or cancel those you no longer need with %s, then stop. (stop block %d of at most %d)",
		name("background_output"), name("background_cancel"), n, limit)
	return s.String()
}

// summaryLen bounds each task's summary in a notification.
const summaryLen = 600

// Notification is the one message that tells the parent its batch ended.
func Notification(done []*bgtasks.Task, name func(string) string) string {
	var s strings.Builder
	fmt.Fprintf(&s, "atreides: your background task(s) ended (%d):\n", len(done))
	for _, t := range done {
		fmt.Fprintf(&s, "- %s (%s) %s — %s\n", t.ID, t.Agent, t.Status, t.Description)
		if t.Error != "" {
			fmt.Fprintf(&s, "  error: %s\n", t.Error)
		}
		if sum := summary(t.Result); sum != "" {
			fmt.Fprintf(&s, "  result: %s\n", sum)
		}
	}
	fmt.Fprintf(&s, "Read a whole result with %s (task_id), or .atreides/background/<id>/result.md.", name("background_output"))
	return s.String()
}

// summary is the first paragraph of a result, bounded, on one line.
func summary(r string) string {
	r = strings.TrimSpace(r)
	if i := strings.Index(r, "\n\n"); i >= 0 {
		r = r[:i]
	}
	r = strings.Join(strings.Fields(r), " ")
	if len(r) > summaryLen {
		r = r[:summaryLen] + "…"
	}
	return r
}
