// Package mcpserver serves atreides's agent tools over MCP (stdio) with the
// official Go SDK: select_active_intent, list_intents,
// request_scope_expansion, todo_add, todo_update, todo_list and
// session_status, and the background task tools of package agenttools
// (background_task, background_output, background_cancel, delegate_task).
//
// It is linked only into cmd/atreides-mcp, never into the hook binary: the
// SDK and net/http would add about 1.6 ms of package init to every hook
// call (see TestHookBinaryDoesNotLinkMCP).
//
// Session binding: the tools act for one agent session. When the server's
// environment names it (ATREIDES_SESSION_ID, else CLAUDE_CODE_SESSION_ID),
// that is the session. Otherwise each call binds to the session of the
// project that sent the most recent hook event, which is the caller
// whenever one agent works in the project at a time.
//
// Claude Code 2.1.330 starts one server process per claude process and sets
// CLAUDE_CODE_SESSION_ID in its environment to the session_id its hooks
// receive (also CLAUDE_PROJECT_DIR, CLAUDE_CODE_LAUNCHED_BY_SESSION_IDS and
// CLAUDECODE=1); observed with a wrapper that dumped the server's
// environment, and asserted end to end in test/e2e/governance_test.go
// (session_status answers "from $CLAUDE_CODE_SESSION_ID" with the run's
// session id). Subagents share their parent's server, hence its session.
package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/atreides-dev/atreides/internal/agenttools"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// Server holds what the tools need.
type Server struct {
	Root    string
	Getenv  func(string) string
	Now     func() time.Time
	Version string
	st      *store.Store
	log     *project.Log
}

// New builds the MCP server for the project at root.
func New(root string, getenv func(string) string, version string) *mcp.Server {
	s := &Server{Root: root, Getenv: getenv, Now: time.Now, Version: version, st: store.Open(project.StateDir(root))}
	s.log = project.NewLog(project.StateDir(root))
	s.st.OnRecover = func(msg string) { s.log.Logf("state store: %s", msg) }
	srv := mcp.NewServer(&mcp.Implementation{Name: "atreides", Version: version}, nil)
	s.register(srv)
	AddTools(srv, s.env, agenttools.Background())
	return srv
}

// env is who calls the agent tools: the session as [Server.session]
// binds it (the tools resolve it per call), the host as its environment
// shows it.
func (s *Server) env() *agenttools.Env {
	return &agenttools.Env{Root: s.Root, Store: s.st, Host: HostOf(s.Getenv), Now: s.Now, Getenv: s.Getenv, Logf: s.log.Logf}
}

// HostOf is the host that started the server, from the variables it sets
// in an MCP server's environment: Claude Code CLAUDECODE=1 (and
// CLAUDE_CODE_SESSION_ID), Gemini CLI GEMINI_CLI=1; ATREIDES_HOST, which
// an install may put in the server's env, wins. Codex gives its servers
// only a fixed allowlist of variables, none its own. "" when unknown or
// ambiguous (a headless child inherits its launcher's markers): the tools
// then take the host from the calling session's record.
func HostOf(getenv func(string) string) string {
	if h := getenv("ATREIDES_HOST"); h != "" {
		return h
	}
	claude := getenv("CLAUDECODE") == "1" || getenv("CLAUDE_CODE_SESSION_ID") != ""
	gemini := getenv("GEMINI_CLI") == "1"
	switch {
	case claude && !gemini:
		return "claude"
	case gemini && !claude:
		return "gemini"
	}
	return ""
}

func text(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// SelectIn is select_active_intent's input.
type SelectIn struct {
	IntentID string `json:"intent_id" jsonschema:"the id of the intent this work belongs to (see list_intents)"`
}

// ExpansionIn is request_scope_expansion's input.
type ExpansionIn struct {
	IntentID string   `json:"intent_id" jsonschema:"the intent whose owned scope should grow"`
	Paths    []string `json:"paths" jsonschema:"project-relative path globs the intent should also own"`
	Reason   string   `json:"reason" jsonschema:"why the change needs these paths"`
}

// TodoAddIn is todo_add's input.
type TodoAddIn struct {
	Title    string `json:"title" jsonschema:"what needs doing"`
	Level    string `json:"level,omitempty" jsonschema:"epic, task or subtask (default: one level below the parent, else task); a subtask needs a parent, and a todo goes only under a wider one"`
	Parent   int    `json:"parent,omitempty" jsonschema:"id of the parent todo"`
	Priority string `json:"priority,omitempty" jsonschema:"critical, high, medium or low"`
	File     string `json:"file,omitempty" jsonschema:"the file the work is in, project-relative (path or path:line)"`
	Line     int    `json:"line,omitempty" jsonschema:"the line in file"`
	Agent    string `json:"agent,omitempty" jsonschema:"the agent the todo belongs to (a subagent type or name)"`
}

// TodoUpdateIn is todo_update's input.
type TodoUpdateIn struct {
	ID     int    `json:"id" jsonschema:"the todo's id"`
	Status string `json:"status" jsonschema:"pending, in_progress, done or cancelled"`
}

// TodoListIn is todo_list's input.
type TodoListIn struct {
	All bool `json:"all,omitempty" jsonschema:"include done and cancelled todos"`
}

// Empty is the input of tools that take none.
type Empty struct{}

func (s *Server) register(srv *mcp.Server) {
	mcp.AddTool(srv, &mcp.Tool{Name: "select_active_intent", Description: "Select the intent your work belongs to. Required before any write when governance is on; returns the intent's goal, owned scope, constraints and acceptance criteria. An intent is held by one session at a time."}, s.selectIntent)
	mcp.AddTool(srv, &mcp.Tool{Name: "list_intents", Description: "List the project's intents with status, owned scope and current holder."}, s.listIntents)
	mcp.AddTool(srv, &mcp.Tool{Name: "request_scope_expansion", Description: "Ask a human to let an intent own more paths. Records the request; it does not grant it."}, s.requestExpansion)
	mcp.AddTool(srv, &mcp.Tool{Name: "todo_add", Description: "Add a todo to atreides's project todo list (epic > task > subtask)."}, s.todoAdd)
	mcp.AddTool(srv, &mcp.Tool{Name: "todo_update", Description: "Change a todo's status."}, s.todoUpdate)
	mcp.AddTool(srv, &mcp.Tool{Name: "todo_list", Description: "List the project's todos."}, s.todoList)
	mcp.AddTool(srv, &mcp.Tool{Name: "session_status", Description: "Show this session's active intent, its scope and lease, subagents, and open todos."}, s.sessionStatus)
}

// session returns the session the tools act for and how it was found.
func (s *Server) session(p *state.Project) (string, string) {
	for _, k := range []string{"ATREIDES_SESSION_ID", "CLAUDE_CODE_SESSION_ID"} {
		if v := s.Getenv(k); v != "" {
			return v, "from $" + k
		}
	}
	if len(p.Governance.Recent) > 0 {
		return p.Governance.Recent[0].ID, "the project's most recently active session"
	}
	return "", ""
}

func (s *Server) lease() time.Duration {
	if c, err := config.Load(config.DefaultPaths(s.Root)); err == nil {
		return time.Duration(c.Governance.LeaseMinutes) * time.Minute
	}
	return governance.DefaultOptions().Lease
}

func (s *Server) intents() (*intent.File, error) {
	f, err := intent.Load(governance.IntentsPath(s.Root))
	if err != nil && !intent.NotExist(err) {
		return nil, fmt.Errorf("the intents file is invalid; ask the user to fix it:\n%w", err)
	}
	return f, nil
}

func (s *Server) update(ctx context.Context, fn func(p *state.Project) error) error {
	return s.st.Update(ctx, func(tx *store.Tx) error { return state.UpdateProject(tx, fn) })
}

func (s *Server) project(ctx context.Context) (*state.Project, error) {
	var p *state.Project
	err := s.st.View(ctx, func(tx *store.Tx) error {
		var err error
		p, err = state.LoadProject(tx)
		return err
	})
	return p, err
}

func (s *Server) selectIntent(ctx context.Context, _ *mcp.CallToolRequest, in SelectIn) (*mcp.CallToolResult, any, error) {
	f, err := s.intents()
	if err != nil {
		return nil, nil, err
	}
	var (
		got     *intent.Intent
		session string
	)
	lease := s.lease()
	err = s.update(ctx, func(p *state.Project) error {
		session, _ = s.session(p)
		if session == "" {
			return errors.New("atreides has not seen a session of this project yet; make any tool call first, then retry")
		}
		var err error
		got, err = governance.Select(&p.Governance, f, session, "mcp", strings.TrimSpace(in.IntentID), s.Now().UTC(), lease)
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return text("Intent %s is now active for session %s. Work only inside its owned scope.\n%s", got.ID, session, got.Summary()), nil, nil
}

func (s *Server) listIntents(ctx context.Context, _ *mcp.CallToolRequest, _ Empty) (*mcp.CallToolResult, any, error) {
	f, err := s.intents()
	if err != nil {
		return nil, nil, err
	}
	p, err := s.project(ctx)
	if err != nil {
		return nil, nil, err
	}
	if len(f.Intents) == 0 {
		return text("No intents are defined. Ask the user to add one (atreides intent add)."), nil, nil
	}
	var b strings.Builder
	for _, in := range f.Intents {
		fmt.Fprintf(&b, "- %s [%s]: %s; owned scope: %s", in.ID, in.Status, in.Title, strings.Join(in.Scope, ", "))
		if l := p.Governance.Lock(in.ID); l != nil {
			fmt.Fprintf(&b, "; held by session %s since %s", l.Session, l.Since.UTC().Format(time.RFC3339))
		}
		b.WriteString("\n")
	}
	return text("%s", b.String()), nil, nil
}

func (s *Server) requestExpansion(ctx context.Context, _ *mcp.CallToolRequest, in ExpansionIn) (*mcp.CallToolResult, any, error) {
	f, err := s.intents()
	if err != nil {
		return nil, nil, err
	}
	var r state.ScopeRequest
	err = s.update(ctx, func(p *state.Project) error {
		session, _ := s.session(p)
		var err error
		r, err = governance.RequestExpansion(&p.Governance, f, session, in.IntentID, in.Paths, in.Reason, s.Now().UTC())
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return text("Scope expansion request #%d recorded for intent %s (%s). A human must approve it by adding the paths to the intent's owned_scope; until then writes there stay blocked. Continue with work inside the scope.", r.ID, r.Intent, strings.Join(r.Paths, ", ")), nil, nil
}

func (s *Server) todoAdd(ctx context.Context, _ *mcp.CallToolRequest, in TodoAddIn) (*mcp.CallToolResult, any, error) {
	var t state.Todo
	err := s.update(ctx, func(p *state.Project) error {
		session, _ := s.session(p)
		var err error
		t, err = p.AddTodo(state.NewTodo{
			Title: in.Title, Level: in.Level, Parent: in.Parent, Priority: in.Priority,
			File: in.File, Line: in.Line, Agent: in.Agent, Session: session,
		}, s.Now().UTC())
		return err
	})
	if err != nil {
		return nil, nil, err
	}
	return text("added todo #%d (%s): %s", t.ID, todoDetails(t), t.Title), nil, nil
}

// todoDetails is a todo's level and whatever else it carries, for one line.
func todoDetails(t state.Todo) string {
	parts := []string{t.Level}
	if t.Priority != "" {
		parts = append(parts, t.Priority)
	}
	if loc := t.Location(); loc != "" {
		parts = append(parts, loc)
	}
	if t.Agent != "" {
		parts = append(parts, "agent "+t.Agent)
	}
	return strings.Join(parts, ", ")
}

func (s *Server) todoUpdate(ctx context.Context, _ *mcp.CallToolRequest, in TodoUpdateIn) (*mcp.CallToolResult, any, error) {
	err := s.update(ctx, func(p *state.Project) error { return p.SetStatus(in.ID, in.Status, s.Now().UTC()) })
	if err != nil {
		return nil, nil, err
	}
	return text("todo #%d is %s", in.ID, in.Status), nil, nil
}

func (s *Server) todoList(ctx context.Context, _ *mcp.CallToolRequest, in TodoListIn) (*mcp.CallToolResult, any, error) {
	p, err := s.project(ctx)
	if err != nil {
		return nil, nil, err
	}
	return text("%s", renderTodos(p, in.All)), nil, nil
}

func renderTodos(p *state.Project, all bool) string {
	var b strings.Builder
	var walk func(parent, depth int)
	walk = func(parent, depth int) {
		for _, t := range p.Todos {
			if t.Parent != parent || (!all && !t.Open()) {
				continue
			}
			fmt.Fprintf(&b, "%s- #%d [%s] %s (%s)\n", strings.Repeat("  ", depth), t.ID, t.Status, t.Title, todoDetails(t))
			if depth < 3 {
				walk(t.ID, depth+1)
			}
		}
	}
	walk(0, 0)
	if b.Len() == 0 {
		return "no todos\n"
	}
	return b.String()
}

func (s *Server) sessionStatus(ctx context.Context, _ *mcp.CallToolRequest, _ Empty) (*mcp.CallToolResult, any, error) {
	var (
		p    *state.Project
		sess *state.Session
		id   string
		how  string
	)
	var unreadable error
	err := s.st.View(ctx, func(tx *store.Tx) error {
		var err error
		if p, err = state.LoadProject(tx); err != nil {
			return err
		}
		id, how = s.session(p)
		// A damaged record of this session is moved aside by its next
		// event; until then the status shows the rest.
		sess, unreadable = state.FindSession(tx, id)
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	if id == "" {
		return text("atreides has not seen a session of this project yet."), nil, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Session %s (%s).\n", id, how)
	if l := p.Governance.HeldBy(id); l != nil {
		fmt.Fprintf(&b, "Active intent: %s, held since %s, last active %s.\n", l.Intent, l.Since.UTC().Format(time.RFC3339), l.Renewed.UTC().Format(time.RFC3339))
		if f, err := s.intents(); err == nil {
			if in := f.Find(l.Intent); in != nil {
				b.WriteString(in.Summary() + "\n")
			}
		}
	} else {
		b.WriteString("No active intent: call select_active_intent before writing.\n")
	}
	if unreadable != nil {
		fmt.Fprintf(&b, "This session's state record is unreadable (%v); it starts afresh with its next event.\n", unreadable)
	}
	if sess != nil {
		fmt.Fprintf(&b, "Phase: %s. Tool calls: %d (denied %d, failed %d).\n", orNone(sess.Phase.Current, "none"), sess.Counters.ToolCalls, sess.Counters.Denied, sess.Counters.Failed)
		for _, a := range sess.Governance.Agents {
			fmt.Fprintf(&b, "Subagent %s (%s) depth %d: %s\n", a.ID, a.Type, a.Depth, orNone(a.Outcome, "running"))
		}
	}
	fmt.Fprintf(&b, "Open todos:\n%s", renderTodos(p, false))
	return text("%s", b.String()), nil, nil
}

func orNone(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
