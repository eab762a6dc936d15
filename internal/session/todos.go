package session

import (
	"cmp"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/agenttodos"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/tasks"
	"github.com/atreides-dev/atreides/internal/todos"
)

// todoTrackerKinds are the events TodoTracker's handler runs on: a hook
// builds it for those alone.
var todoTrackerKinds = []event.Kind{event.PreTool, event.PostTool}

// TodoTracker mirrors the agent's own todo list into the session, so that
// the stop gate and the compaction snapshot see it. Two shapes of todo
// tool are understood, by their input: whole-list tools (Claude Code's
// TodoWrite, OpenCode's todowrite, Gemini's write_todos) send every item
// each time and replace the list; per-item tools (Claude Code's TaskCreate
// and TaskUpdate) change one item, known by the id the host gave it. A
// per-item change is taken from PostToolUse only: the id of a new task is
// in the tool's response, and a call that failed changed nothing. A
// subagent's todos are its own and are not mirrored.
//
// Claude Code also fires TaskCreated and TaskCompleted hook events; they
// tell nothing the tools' PostToolUse does not, so install does not
// register them (two more processes per task for no gain).
func TodoTracker() engine.Handler {
	return engine.Handler{
		Name: "todo-tracker", Priority: engine.Normal,
		Kinds:  todoTrackerKinds,
		Groups: agenttodos.Key.Group(),
		Handle: func(c *engine.Call) (event.Result, error) {
			ev := c.Event
			if ev.Tool.Name != event.Todo || ev.InSubagent() || ev.Failed {
				return event.Result{}, nil
			}
			if ev.Kind == event.PreTool && c.Decision.Verdict == event.Deny {
				return event.Result{}, nil
			}
			ch, err := parseTodoTool(ev.Tool.Input)
			if err != nil {
				return event.Result{}, err
			}
			g := agenttodos.Key.Of(c.State.Session)
			switch {
			case ch.whole:
				g.Agent = replaceWhole(g.Agent, ch.todos)
			case ev.Kind == event.PostTool && ch.item != nil:
				g.Agent = applyItem(g.Agent, *ch.item, ev.Output)
			}
			return event.Result{}, nil
		},
	}
}

// todoChange is what one call of a todo tool does to the mirrored list.
type todoChange struct {
	whole bool              // todos replace the whole-list items
	todos []agenttodos.Todo // whole: the new list
	item  *itemChange       // a per-item tool's change
}

// itemChange is one call of a per-item todo tool: a new task (ID empty;
// the host's response names it) or a change to task ID.
type itemChange struct {
	ID, Subject, Status, Active string
}

// parseTodoTool reads a todo tool's input: {todos:[{content|description,
// status,activeForm}]} is a whole list; {taskId, status?, subject?} a
// change to one task; {subject, description} a new task.
func parseTodoTool(input json.RawMessage) (todoChange, error) {
	var in struct {
		Todos *[]struct {
			Content     string `json:"content"`
			Description string `json:"description"`
			Status      string `json:"status"`
			ActiveForm  string `json:"activeForm"`
		} `json:"todos"`
		TaskID     string `json:"taskId"`
		Subject    string `json:"subject"`
		Status     string `json:"status"`
		ActiveForm string `json:"activeForm"`
	}
	if len(input) == 0 {
		return todoChange{}, nil
	}
	if err := json.Unmarshal(input, &in); err != nil {
		return todoChange{}, fmt.Errorf("todo tool input: %w", err)
	}
	switch {
	case in.Todos != nil:
		out := make([]agenttodos.Todo, 0, len(*in.Todos))
		for _, t := range *in.Todos {
			text := strings.TrimSpace(t.Content)
			if text == "" {
				text = strings.TrimSpace(t.Description)
			}
			if text == "" {
				continue
			}
			out = append(out, agenttodos.Todo{Content: text, Status: t.Status, Active: t.ActiveForm})
		}
		return todoChange{whole: true, todos: out}, nil
	case in.TaskID != "":
		return todoChange{item: &itemChange{ID: in.TaskID, Subject: strings.TrimSpace(in.Subject), Status: in.Status, Active: in.ActiveForm}}, nil
	case strings.TrimSpace(in.Subject) != "":
		return todoChange{item: &itemChange{Subject: strings.TrimSpace(in.Subject), Status: todos.Pending, Active: in.ActiveForm}}, nil
	}
	return todoChange{}, nil
}

// replaceWhole puts a whole-list tool's items in place of the earlier
// ones, keeping the per-item tool's tasks.
func replaceWhole(old, todos []agenttodos.Todo) []agenttodos.Todo {
	out := make([]agenttodos.Todo, 0, len(old)+len(todos))
	for _, t := range old {
		if t.ID != "" {
			out = append(out, t)
		}
	}
	return append(out, todos...)
}

// taskDeleted is the status a per-item tool deletes a task with.
const taskDeleted = "deleted"

// applyItem applies a per-item tool's change, given the tool's response:
// a new task's id is in it ({"task":{"id":…}}), and a response that says
// the change failed ({"success":false}) changes nothing. A change to a
// task atreides never saw (made before atreides was installed) is kept
// only when it says enough to list it.
func applyItem(todos []agenttodos.Todo, ch itemChange, output string) []agenttodos.Todo {
	var resp struct {
		Success *bool `json:"success"`
		Task    struct {
			ID string `json:"id"`
		} `json:"task"`
	}
	_ = json.Unmarshal([]byte(output), &resp) // a clipped or unexpected response still records the change
	if resp.Success != nil && !*resp.Success {
		return todos
	}
	if ch.ID == "" {
		ch.ID = resp.Task.ID
	}
	i := slices.IndexFunc(todos, func(t agenttodos.Todo) bool { return ch.ID != "" && t.ID == ch.ID })
	switch {
	case ch.Status == taskDeleted:
		if i >= 0 {
			todos = slices.Delete(todos, i, i+1)
		}
	case i >= 0:
		t := &todos[i]
		t.Status = cmp.Or(ch.Status, t.Status)
		t.Content = cmp.Or(ch.Subject, t.Content)
		t.Active = cmp.Or(ch.Active, t.Active)
	case ch.Subject != "" && ch.Status != "":
		todos = append(todos, agenttodos.Todo{ID: cmp.Or(ch.ID, "?"), Content: ch.Subject, Status: ch.Status, Active: ch.Active})
	}
	return todos
}

// Where a pending item comes from; the stop gate's message says how to
// close each kind that is in its list, and only those.
const (
	fromTodo    = "atreides"          // the session's own atreides todo
	fromHost    = "your todo list"    // the host's todo tool, mirrored
	fromMessage = "from your message" // an unchecked box of a reply, kept
	fromTask    = "task"              // the task the session claimed
)

// pendingItem is one open item as the stop gate lists it.
type pendingItem struct {
	Source string // one of the from* words
	Text   string
}

// pendingTodos gathers what holds this session's stop (docs/work-items.md):
// its own atreides todos (todos.Todos.Held: none added by a person at a
// terminal or by another session, none from another checkout), the
// mirrored list of the host's todo tool with the checkboxes (`- [ ] ...`)
// of the agent's replies, and the task the session claimed and holds in
// progress. The boxes of lastMessage are applied to the list first
// (agenttodos.SyncBoxes): a box stays open until a reply checks or
// cancels it; the stop gate's bounds keep a forgotten one from trapping
// the agent.
func pendingTodos(p *state.Project, s *state.Session, lastMessage string) []pendingItem {
	var out []pendingItem
	seen := map[string]bool{}
	add := func(src, text, key string) {
		k := strings.ToLower(strings.TrimSpace(key))
		if k == "" || seen[k] {
			return
		}
		seen[k] = true
		out = append(out, pendingItem{Source: src, Text: text})
	}
	for _, t := range todos.Key.Read(p).Held(p, s.ID) {
		text := fmt.Sprintf("#%d %s", t.ID, t.Title)
		if t.Status == todos.InProgress {
			text += " (in progress)"
		}
		add(fromTodo, text, t.Title)
	}
	g := agenttodos.Key.Of(s)
	if lastMessage != "" {
		g.SyncBoxes(replyBoxes(lastMessage))
	}
	for _, t := range g.Agent {
		switch {
		case !t.Open():
		case t.IsBox():
			add(fromMessage, t.ID+" "+t.Content, t.Content)
		default:
			text := t.Content
			if t.Status == todos.InProgress {
				text += " (in progress)"
			}
			add(fromHost, text, t.Content)
		}
	}
	if text := taskPhaseItem(tasks.SessionTaskKey.Of(s)); text != "" {
		add(fromTask, text, text)
	}
	return out
}

// taskPhaseItem is the open work of the task the session claimed and
// holds in progress: its current plan phase, once every phase is
// completed the task itself, and the task itself when it has no plan (or
// a plan without phases) and the project asks for none. A task whose
// plan waits for the user's approval has nothing for the agent to go on
// with. A task claimed by a person at a terminal is in no session's
// record, so it holds no agent.
func taskPhaseItem(t *tasks.SessionTask) string {
	switch {
	case t.Number == 0 || !t.Approved:
		return ""
	case t.Plan == "" || t.Phases == 0:
		return fmt.Sprintf("task %d (%s) is in progress: finish it and mark it done (`atreides task done %d`), or give it up (`atreides task claim --release %d`)", t.Number, t.Title, t.Number, t.Number)
	case t.Phase == 0:
		return fmt.Sprintf("task %d (%s): every phase of its plan is completed; mark the task done (`atreides task done %d`)", t.Number, t.Title, t.Number)
	}
	text := fmt.Sprintf("task %d (%s), phase %d of %d: %s", t.Number, t.Title, t.Phase, t.Phases, t.PhaseTitle)
	if t.Verify != "" {
		text += fmt.Sprintf(" (verify: `%s`)", t.Verify)
	}
	return text + fmt.Sprintf("; when it is done, `atreides plan phase-done %d` runs the verification and marks the phase completed", t.Number)
}

// replyBoxes finds the markdown task items of a reply, outside fenced
// code blocks: `[ ]` open, `[x]` done, `[-]` or `[~]` cancelled.
func replyBoxes(msg string) []agenttodos.Box {
	var out []agenttodos.Box
	fenced := false
	for _, line := range strings.Split(msg, "\n") {
		l := strings.TrimSpace(line)
		if strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		// strip the list marker: "-", "*", "+" or "1."
		switch {
		case strings.HasPrefix(l, "- "), strings.HasPrefix(l, "* "), strings.HasPrefix(l, "+ "):
			l = l[2:]
		default:
			i := 0
			for i < len(l) && l[i] >= '0' && l[i] <= '9' {
				i++
			}
			if i == 0 || i+1 >= len(l) || (l[i] != '.' && l[i] != ')') || l[i+1] != ' ' {
				continue
			}
			l = l[i+2:]
		}
		if b, ok := parseBox(l); ok {
			out = append(out, b)
		}
	}
	return out
}

// boxMarks are the marks of a checkbox and the status each means.
var boxMarks = []struct{ mark, status string }{
	{"[ ] ", todos.Pending}, {"[x] ", agenttodos.Completed}, {"[X] ", agenttodos.Completed},
	{"[-] ", todos.Cancelled}, {"[~] ", todos.Cancelled},
}

// parseBox reads one list item's checkbox, its marker already cut off.
func parseBox(l string) (agenttodos.Box, bool) {
	for _, m := range boxMarks {
		if rest, ok := strings.CutPrefix(l, m.mark); ok && strings.TrimSpace(rest) != "" {
			return agenttodos.Box{Text: strings.TrimSpace(rest), Status: m.status}, true
		}
	}
	return agenttodos.Box{}, false
}

// finished counts what this session finished so far: its own atreides
// todos done or cancelled, the host list's items completed, and its
// task's completed phases.
func finished(p *state.Project, s *state.Session) int {
	n := todos.Key.Read(p).Finished(s.ID)
	for _, t := range agenttodos.Key.Of(s).Agent {
		if !t.Open() {
			n++
		}
	}
	return n + tasks.SessionTaskKey.Of(s).Done
}

func fingerprint(items []pendingItem) string {
	keys := make([]string, len(items))
	for i, it := range items {
		keys[i] = it.Source + "\x00" + it.Text
	}
	slices.Sort(keys)
	h := fnv.New64a()
	for _, k := range keys {
		h.Write([]byte(k))
		h.Write([]byte{0})
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// StopGate keeps the agent going while todos are open, and is built to
// never trap it. It lets a stop through
//
//   - inside a subagent (the parent's todos are not the subagent's job);
//   - when nothing is open;
//   - after the user interrupted a tool call or the turn (until the next prompt), or
//     when the agent's last message ends with a question for the user;
//   - when the stop is already the result of a block (stop_hook_active)
//     and no todo was finished since that block: a block is repeated only
//     for real progress, fewer open todos, never for status changes;
//   - after MaxBlocks blocks in a row (always below Claude Code's cap of
//     8), and after StagnantTurns blocks without progress, until progress
//     is made (this count survives prompts, so a session that keeps not
//     working on its todos stops being nagged).
//
// Options are asked for only when a block is due, so a stop with nothing
// open never loads the configuration.
func StopGate(opts OptionsFunc) engine.Handler {
	return StopGateWith(opts, transcriptInterrupted)
}

// stopGateKinds are the events StopGateWith's handler runs on: a hook
// builds it for those alone.
var stopGateKinds = []event.Kind{event.Stop}

// StopGateWith is StopGate with the transcript check swapped, for tests.
func StopGateWith(opts OptionsFunc, interrupted func(path string) bool) engine.Handler {
	return engine.Handler{
		Name: "stop-gate", Priority: engine.Normal,
		Kinds:  stopGateKinds,
		Groups: StopKey.Group() | agenttodos.Key.Group() | todos.Key.Group() | tasks.SessionTaskKey.Group(),
		Handle: func(c *engine.Call) (event.Result, error) {
			return stopGate(c, opts, interrupted)
		},
	}
}

func stopGate(c *engine.Call, opts OptionsFunc, interrupted func(string) bool) (event.Result, error) {
	ev, s := c.Event, c.State.Session
	st := StopKey.Of(s)
	if ev.InSubagent() {
		return event.Result{}, nil
	}
	if ev.Interrupted {
		// The host says the user stopped the turn (OpenCode's Esc ends it
		// with MessageAbortedError): an interrupt, until the next prompt.
		st.Interrupted = true
	}
	pending := pendingTodos(c.State.Project, s, ev.LastMessage)
	letGo := func(why string) (event.Result, error) {
		st.Blocks = 0
		st.GaveUp = why
		return event.Result{}, nil
	}
	if len(pending) == 0 {
		// A fresh gate; an interrupt lasts until the next prompt.
		*st = StopState{Interrupted: st.Interrupted}
		return event.Result{}, nil
	}
	if st.Interrupted {
		return letGo("the user interrupted")
	}
	if asksUser(ev.LastMessage) {
		return letGo("the agent asked the user a question")
	}
	o := opts().normalize()
	done := finished(c.State.Project, s)
	// Progress is monotonic: fewer open or more finished than at the last
	// block. Status flips, rewording and reordering are not progress.
	progress := st.Fingerprint != "" && (len(pending) < st.Pending || done > st.Done)
	if progress {
		st.Stagnant = 0
	}
	switch {
	case ev.StopHookActive && !progress:
		return letGo("no todo finished since the last block")
	case st.Blocks >= o.MaxBlocks:
		return letGo(fmt.Sprintf("blocked %d times in a row (session.stop.max_blocks)", st.Blocks))
	case st.Stagnant >= o.StagnantTurns:
		return letGo(fmt.Sprintf("%d blocked stops without progress", st.Stagnant))
	}
	path := ev.TranscriptPath
	if path == "" {
		path = s.Transcript
	}
	if path != "" && interrupted(path) {
		return letGo("the user interrupted (transcript)")
	}
	st.Blocks++
	st.Stagnant++
	st.Pending = len(pending)
	st.Done = done
	st.Fingerprint = fingerprint(pending)
	st.Last = ev.Time
	st.GaveUp = ""
	return event.Result{Block: true, BlockReason: stopReason(pending, ev.HostFacts(), st.Blocks, o.MaxBlocks)}, nil
}

func stopReason(pending []pendingItem, facts *event.HostFacts, n, max int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "atreides: %d todo(s) still open in this session:\n", len(pending))
	const maxListed = 20
	var kinds []string
	for i, it := range pending {
		if !slices.Contains(kinds, it.Source) {
			kinds = append(kinds, it.Source)
		}
		switch {
		case i == maxListed:
			fmt.Fprintf(&b, "- … and %d more (atreides todo list)\n", len(pending)-maxListed)
		case i > maxListed:
		case it.Source == fromTodo, it.Source == fromTask:
			fmt.Fprintf(&b, "- [ ] %s\n", it.Text)
		default:
			fmt.Fprintf(&b, "- [ ] %s (%s)\n", it.Text, it.Source)
		}
	}
	// Short: the agent reads it at every blocked stop (issue 35's budget).
	b.WriteString("Finish them, or close those that no longer apply or only the user can do")
	if how := closeHow(kinds, facts); how != "" {
		b.WriteString(" (" + how + ")")
	}
	fmt.Fprintf(&b, ". Stop block %d of %d.", n, max)
	return b.String()
}

// closeHow says how to close the kinds of item in the gate's list, and
// only those: the host's own todo tool by the name the host gives it
// (event.HostFacts.TodoTool), never another host's. A task's line says
// itself how it is closed.
func closeHow(kinds []string, facts *event.HostFacts) string {
	var how []string
	for _, k := range kinds {
		switch k {
		case fromTodo:
			how = append(how, "`atreides todo done ID` or `atreides todo cancel ID`")
		case fromHost:
			tool := "with the todo tool that listed them"
			if facts != nil && facts.TodoTool != "" {
				tool = facts.TodoTool
			}
			how = append(how, "complete them "+tool)
		case fromMessage:
			how = append(how, "a box from your messages: write it checked, `- [x] ID`, or cancelled, `- [-] ID`")
		}
	}
	return strings.Join(how, "; ")
}

// asksUser reports whether the agent's last message ends with a question:
// it is waiting for the user, and pushing it on would answer for them.
func asksUser(msg string) bool {
	msg = strings.TrimSpace(msg)
	msg = strings.TrimRight(msg, "*_`) ")
	return strings.HasSuffix(msg, "?")
}
