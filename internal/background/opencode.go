package background

import (
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/bgtasks"
)

// RunnerOpenCode is the runner of tasks launched from an OpenCode
// session: each runs as a child session of its parent, started and
// watched by the atreides plugin inside OpenCode, which has the
// in-process client the engine lacks. The engine decides everything
// ([Tick]); the plugin only does the I/O.
const RunnerOpenCode = "opencode"

// Start asks the plugin to start a task: create a child session of
// Parent titled Title, prompt it with Prompt as Agent ("" for OpenCode's
// default agent), and report the child's id in the next tick.
type Start struct {
	Task   string `json:"task"`
	Parent string `json:"parent"`
	Agent  string `json:"agent,omitempty"`
	Prompt string `json:"prompt"`
	Title  string `json:"title"`
	// Model is the task's model ("provider/model", as OpenCode names
	// one; "" for the agent's own), and Session the child session a
	// resume prompts again instead of creating one.
	Model   string `json:"model,omitempty"`
	Session string `json:"session,omitempty"`
}

// Launched is the plugin's report of a launch: the child session's id,
// or why it could not be started.
type Launched struct {
	Task  string `json:"task"`
	Child string `json:"child,omitempty"`
	Error string `json:"error,omitempty"`
}

// Child names a task's child session, to observe or to abort.
type Child struct {
	Task  string `json:"task"`
	Child string `json:"child"`
}

// TickIn is what the plugin reports in one tick.
type TickIn struct {
	Launched []Launched    `json:"launched,omitempty"`
	Observed []Observation `json:"observed,omitempty"`
}

// TickOut is what the plugin must do: start Launch, observe Watch in the
// next tick, abort Abort; Pending says whether OpenCode tasks are queued
// or running, so whether to tick again.
type TickOut struct {
	Launch  []Start `json:"launch,omitempty"`
	Watch   []Child `json:"watch,omitempty"`
	Abort   []Child `json:"abort,omitempty"`
	Pending bool    `json:"pending"`
	// Ended are the tasks this tick ended, and Others the tasks of other
	// runners it started (a slot they waited for was freed here), for
	// the caller to launch.
	Ended  []string `json:"-"`
	Others []string `json:"-"`
}

// Tick applies one tick of the OpenCode runner to the registry: it
// records the launches and observations reported, ends the tasks whose
// child is done (or lost, or stale), starts what their slots allow, and
// says what the plugin must do next. A child whose task has ended (a
// cancel, a stale verdict) while it still works is aborted.
func Tick(b *bgtasks.Background, in TickIn, l Limits, tm Timing, now time.Time) TickOut {
	var out TickOut
	end := func(t *bgtasks.Task, v Verdict) {
		if ok, _ := Finish(b, t.ID, v.Status, v.Result, v.Error, now); ok {
			out.Ended = append(out.Ended, t.ID)
		}
	}
	for _, r := range in.Launched {
		t := b.Task(r.Task)
		switch {
		case t == nil || !Pending(t) || t.Child != "":
			if r.Child != "" && (t == nil || t.Child != r.Child) {
				out.Abort = append(out.Abort, Child{Task: r.Task, Child: r.Child})
			}
		case r.Error != "":
			end(t, Verdict{Status: Failed, Error: "could not start the child session: " + r.Error})
		default:
			t.Child, t.Observed, t.Changed, t.Messages = r.Child, now, now, 0
		}
	}
	for _, o := range in.Observed {
		t := b.Task(o.Task)
		if t == nil || t.Child != o.Child {
			continue
		}
		if !Pending(t) {
			if o.Status == "busy" || o.Status == "retry" {
				out.Abort = append(out.Abort, Child{Task: t.ID, Child: t.Child})
			}
			continue
		}
		if v := Observe(t, o, tm, now); v.Status != "" {
			end(t, v)
			if v.Status == Failed && o.Status != "idle" {
				out.Abort = append(out.Abort, Child{Task: t.ID, Child: t.Child})
			}
		}
	}
	for i := range b.Tasks {
		if t := &b.Tasks[i]; t.Runner == RunnerOpenCode && t.Status == Running && LaunchLost(t, tm, now) {
			end(t, Verdict{Status: Failed, Error: "the OpenCode plugin never reported the child session it was to start"})
		}
	}
	for _, id := range Schedule(b, l, now) {
		if t := b.Task(id); t.Runner != RunnerOpenCode {
			out.Others = append(out.Others, id)
		}
	}
	for i := range b.Tasks {
		t := &b.Tasks[i]
		if t.Runner != RunnerOpenCode || !Pending(t) {
			continue
		}
		out.Pending = true
		switch {
		case t.Status != Running:
		case t.Child != "":
			out.Watch = append(out.Watch, Child{Task: t.ID, Child: t.Child})
		case t.Observed.IsZero():
			// Handed out once: Observed marks it taken until the child's
			// id comes back (or LaunchLost gives up on it).
			t.Observed = now
			st := Start{Task: t.ID, Parent: t.Parent, Agent: t.Agent, Prompt: t.Prompt, Title: title(t), Model: t.Model}
			if old := b.Task(t.Resume); old != nil {
				st.Session = old.Child
			}
			out.Launch = append(out.Launch, st)
		}
	}
	return out
}

// title is the child session's title, which OpenCode shows in its
// session list: the task's id and description (or its prompt's first
// line), so the user can tell which task a child runs.
func title(t *bgtasks.Task) string {
	s := t.Description
	if s == "" {
		s, _, _ = strings.Cut(strings.TrimSpace(t.Prompt), "\n")
	}
	if r := []rune(s); len(r) > 60 {
		s = string(r[:60]) + "…"
	}
	return "atreides " + t.ID + ": " + s
}
