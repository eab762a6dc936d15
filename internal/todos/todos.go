package todos

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// Todos is the project's todos, in id order, and the number of the last
// one added. In JSON (older records) they are members of the project's
// own object, as they always were.
type Todos struct {
	Next int    `json:"next_id"`
	List []Todo `json:"todos,omitempty"`
}

// Todo statuses.
const (
	Pending    = "pending"
	InProgress = "in_progress"
	Done       = "done"
	Cancelled  = "cancelled"
)

// Todo levels, from the widest: an epic holds tasks, a task holds
// subtasks. A todo goes only under a wider one, so an epic is always at the
// top and a subtask always has a parent.
const (
	Epic    = "epic"
	Task    = "task"
	Subtask = "subtask"
)

// levels lists the levels widest first; a level's index is its depth.
var levels = []string{Epic, Task, Subtask}

// Todo is one of atreides's own todos.
type Todo struct {
	ID      int    `json:"id"`
	Parent  int    `json:"parent,omitempty"`
	Level   string `json:"level"` // epic | task | subtask
	Title   string `json:"title"`
	Status  string `json:"status"`
	Session string `json:"session,omitempty"` // the session that created it, if any
	// Priority is critical, high, medium or low; empty when none was given.
	Priority string `json:"priority,omitempty"`
	// File and Line say where the work is (Line only with File).
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Agent is the agent the todo belongs to (a subagent type or name);
	// empty: whoever works in the session.
	Agent string `json:"agent,omitempty"`
	// Task is the number of the task on the project's board that the todo
	// is a step of (docs/work-items.md); 0: none.
	Task    int       `json:"task,omitempty"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// Origin is the checkout that added it, in a team's store (the zero
	// Origin elsewhere).
	Origin store.Origin `json:"origin,omitzero"`
}

// Location is "file:line", "file" or "".
func (t Todo) Location() string {
	if t.Line > 0 {
		return t.File + ":" + strconv.Itoa(t.Line)
	}
	return t.File
}

// Open reports whether the todo still needs work.
func (t Todo) Open() bool { return t.Status == Pending || t.Status == InProgress }

// New is what a caller asks for when it adds a todo; [Add] checks it.
// Level may be empty: one level below the parent, else a task.
type New struct {
	Title    string
	Level    string
	Parent   int
	Priority string
	File     string // "path" or "path:line"
	Line     int
	Agent    string
	Session  string
	Task     int // the board's task it is a step of; the caller checks it exists
}

// Bounds of a todo's free text.
const (
	maxTodoTitle = 1000
	maxTodoFile  = 1024
	maxTodoAgent = 100
)

// ParseLevel checks a todo level; empty stays empty (the parent decides).
func ParseLevel(s string) (string, error) {
	l := strings.ToLower(strings.TrimSpace(s))
	if l == "" || slices.Contains(levels, l) {
		return l, nil
	}
	return "", fmt.Errorf("level %q is not one of epic, task, subtask", s)
}

// parseStatus checks a todo status.
func parseStatus(s string) (string, error) {
	switch st := strings.ToLower(strings.TrimSpace(s)); st {
	case Pending, InProgress, Done, Cancelled:
		return st, nil
	}
	return "", fmt.Errorf("status %q is not one of pending, in_progress, done, cancelled", s)
}

// depth is a level's depth; a level written by an older atreides that is
// none of the three counts as a task.
func depth(level string) int {
	if i := slices.Index(levels, level); i >= 0 {
		return i
	}
	return 1
}

// Add checks n against the project's todos and adds it as a pending
// todo, stamped with where the record is written ([state.Project.Here]).
// It is the one place todo rules live; the command line and the MCP tools
// both come here.
func Add(p *state.Project, n New, now time.Time) (Todo, error) {
	g := Key.Of(p)
	t, err := g.check(n)
	if err != nil {
		return Todo{}, err
	}
	g.Next++
	t.ID, t.Status, t.Created, t.Updated, t.Origin = g.Next, Pending, now, now, p.Here()
	g.List = append(g.List, t)
	return t, nil
}

func (g *Todos) check(n New) (Todo, error) {
	t := Todo{Title: strings.TrimSpace(n.Title), Parent: n.Parent, Session: n.Session}
	switch {
	case t.Title == "":
		return Todo{}, fmt.Errorf("a todo needs a title")
	case len(t.Title) > maxTodoTitle:
		return Todo{}, fmt.Errorf("a todo title is at most %d bytes (got %d)", maxTodoTitle, len(t.Title))
	}
	var err error
	if t.Level, err = g.checkLevel(n.Level, n.Parent); err != nil {
		return Todo{}, err
	}
	if t.Priority, err = anchors.CheckPriority(n.Priority); err != nil {
		return Todo{}, err
	}
	if t.File, t.Line, err = checkLocation(n.File, n.Line); err != nil {
		return Todo{}, err
	}
	if t.Agent, err = oneLineField("agent", n.Agent, maxTodoAgent); err != nil {
		return Todo{}, err
	}
	if n.Task < 0 {
		return Todo{}, fmt.Errorf("%d is not a task number", n.Task)
	}
	t.Task = n.Task
	return t, nil
}

// checkLevel applies the hierarchy: a subtask needs a parent, and a todo
// goes only under a wider, still open one.
func (g *Todos) checkLevel(level string, parent int) (string, error) {
	l, err := ParseLevel(level)
	if err != nil {
		return "", err
	}
	if parent == 0 {
		switch l {
		case "":
			return Task, nil
		case Subtask:
			return "", fmt.Errorf("a subtask needs a parent: give the id of its task")
		}
		return l, nil
	}
	par := g.Todo(parent)
	if par == nil {
		return "", fmt.Errorf("no todo #%d to be the parent", parent)
	}
	if !par.Open() {
		return "", fmt.Errorf("todo #%d is %s; a new todo cannot go under it (start it again first)", parent, par.Status)
	}
	pd := depth(par.Level)
	if l == "" {
		if pd+1 >= len(levels) {
			return "", fmt.Errorf("todo #%d is %s, which cannot have todos under it", parent, withArticle(par.Level))
		}
		return levels[pd+1], nil
	}
	if depth(l) <= pd {
		return "", fmt.Errorf("%s cannot go under %s (#%d): levels go epic > task > subtask", withArticle(l), withArticle(par.Level), parent)
	}
	return l, nil
}

func withArticle(level string) string {
	if level == Epic {
		return "an epic"
	}
	return "a " + level
}

// checkLocation checks a file and line; "path:line" in file is split when
// no line is given.
func checkLocation(file string, line int) (string, int, error) {
	file = strings.TrimSpace(file)
	if line == 0 {
		if i := strings.LastIndexByte(file, ':'); i > 0 {
			if n, err := strconv.Atoi(file[i+1:]); err == nil && n > 0 {
				file, line = file[:i], n
			}
		}
	}
	switch {
	case line < 0:
		return "", 0, fmt.Errorf("line %d is not a line number", line)
	case line > 0 && file == "":
		return "", 0, fmt.Errorf("a line needs a file")
	}
	file, err := oneLineField("file", file, maxTodoFile)
	return file, line, err
}

// oneLineField checks a short free-text field: one line, at most max bytes.
func oneLineField(name, v string, max int) (string, error) {
	v = strings.TrimSpace(v)
	switch {
	case len(v) > max:
		return "", fmt.Errorf("%s is at most %d bytes (got %d)", name, max, len(v))
	case strings.ContainsFunc(v, func(r rune) bool { return r < ' ' || r == 0x7f }):
		return "", fmt.Errorf("%s %q has a control character", name, v)
	}
	return v, nil
}

// Open returns the todos that still need work, in id order.
func (g *Todos) Open() []Todo {
	var out []Todo
	for _, t := range g.List {
		if t.Open() {
			out = append(out, t)
		}
	}
	return out
}

// Todo returns the todo with the id, or nil.
func (g *Todos) Todo(id int) *Todo {
	for i := range g.List {
		if g.List[i].ID == id {
			return &g.List[i]
		}
	}
	return nil
}

// SetStatus changes a todo's status.
func (g *Todos) SetStatus(id int, status string, now time.Time) error {
	st, err := parseStatus(status)
	if err != nil {
		return err
	}
	t := g.Todo(id)
	if t == nil {
		return fmt.Errorf("no todo #%d", id)
	}
	t.Status, t.Updated = st, now
	return nil
}

// Salvaged implements [state.Salvager]: the counter is raised past the
// todos kept.
func (g *Todos) Salvaged() {
	for _, t := range g.List {
		g.Next = max(g.Next, t.ID)
	}
}

// Key is the group's key. Its section's tag, 1, is in records on disk,
// and so are those of the origins, 6, and of the tasks todos point at,
// 10, which came later in sections of their own so that an older
// atreides keeps them as a newer build's group instead of finding bytes
// it does not know in its todos.
var Key = state.ProjectKey[Todos]{Tag: 1, Name: "todos", JSON: "", Fields: (*Todos).fields,
	More: []state.Section[Todos]{
		{Tag: 6, Name: "todo origins", Fields: func(g *Todos, c *binrec.Codec) {
			state.CodeOrigins(c, g.List, func(t *Todo) (int, *store.Origin) { return t.ID, &t.Origin })
		}},
		{Tag: 10, Name: "todo tasks", Fields: (*Todos).tasks},
	}}

// tasks codes the todos' tasks as (todo id, task number) pairs, only
// those of todos that point at one: nothing when none does, so that the
// section is left out.
func (g *Todos) tasks(c *binrec.Codec) {
	if c.Decoding() {
		g.decodeTasks(c)
		return
	}
	n := 0
	for _, t := range g.List {
		if t.Task != 0 {
			n++
		}
	}
	if n == 0 {
		return
	}
	c.W.Uint(uint64(n))
	for _, t := range g.List {
		if t.Task != 0 {
			c.Int(&t.ID, &t.Task)
		}
	}
}

// decodeTasks reads the (todo id, task number) pairs back. The todos are
// indexed by id once, on the first pair: Todo walks the list, and a walk
// per pair would grow with the square of the list on every load.
func (g *Todos) decodeTasks(c *binrec.Codec) {
	var at map[int]int // todo id → index in List; the first of an id, as Todo finds
	for range c.R.Count(2) {
		var id, task int
		c.Int(&id, &task)
		if at == nil {
			at = make(map[int]int, len(g.List))
			for i := range g.List {
				if _, dup := at[g.List[i].ID]; !dup {
					at[g.List[i].ID] = i
				}
			}
		}
		if i, ok := at[id]; ok {
			g.List[i].Task = task
		}
	}
}

func (g *Todos) fields(c *binrec.Codec) {
	c.Int(&g.Next)
	binrec.List(c, &g.List, func(t *Todo, c *binrec.Codec) {
		c.Int(&t.ID, &t.Parent)
		c.Str(&t.Level, &t.Title, &t.Status, &t.Session, &t.Priority, &t.File)
		c.Int(&t.Line)
		c.Str(&t.Agent)
		c.Time(&t.Created, &t.Updated)
	})
}
