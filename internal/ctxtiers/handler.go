package ctxtiers

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/collector"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/slash"
	"github.com/atreides-dev/atreides/internal/state"
)

// Source is the context entries' source.
const Source = "tiers"

// memoKey keeps the entry Prepare built for Handle.
type memoKey struct{}

// HandlerKinds are the events [Handler]'s handler runs on: a hook
// builds it for those alone.
var HandlerKinds = []event.Kind{event.SessionStart, event.UserPrompt, event.SubagentStart, event.PostTool}

// Handler loads the tier an event calls for (see the package comment).
// The session's, a command's and a started agent's sets are read in
// Prepare, outside the state lock; an agent's set at its first tool call
// (hosts without a subagent-start event) is read in Handle, only when the
// agent has not had it, so that its later tool calls read nothing.
func Handler(opts func() Options) engine.Handler {
	return engine.Handler{
		Name: "context-tiers", Priority: engine.Normal,
		Kinds:  HandlerKinds,
		Groups: state.NoGroups,
		Prepare: func(c *engine.Call) {
			if c.Event.Kind == event.PostTool {
				return
			}
			o := opts()
			if e, ok := entryFor(c.Event, o, c.Env.Logf); ok && o.Enabled {
				c.Memo.Set(memoKey{}, e)
			}
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			if c.Event.Kind == event.PostTool {
				return firstCall(c, opts)
			}
			v, ok := c.Memo.Get(memoKey{})
			if !ok {
				return event.Result{}, nil
			}
			return event.Result{Context: []event.Entry{v.(event.Entry)}}, nil
		},
	}
}

// entryFor is the set ev calls for, as an entry; false when none.
func entryFor(ev *event.Event, o Options, logf func(string, ...any)) (event.Entry, bool) {
	root := ev.ProjectDir
	switch {
	case root == "":
		return event.Entry{}, false
	case ev.Kind == event.SessionStart && o.BackgroundAgent != "":
		return standing(agentSet(root, agents.IDOf(o.BackgroundAgent), o.Agent, logf))
	case ev.Kind == event.SessionStart:
		return standing(set(root, "", o.Session, "the lead agent's minimal set, loaded at session start", logf))
	case ev.Kind == event.SubagentStart:
		id := agents.IDOf(ev.AgentType)
		text, ok := agentSet(root, id, o.Agent, logf)
		return event.Entry{Source: Source, ID: "agent:" + id, Priority: event.Normal, Text: text, Once: true}, ok
	case ev.Kind == event.UserPrompt && !ev.InSubagent():
		name := Command(ev.Prompt)
		if name == "" {
			return event.Entry{}, false
		}
		text, ok := set(root, "commands/"+name, o.Command, "the set of /"+slash.HostName(name)+", loaded as it runs", logf)
		return event.Entry{Source: Source, ID: "command:" + name + "@" + hash(text), Priority: event.Normal, Text: text, Once: true}, ok
	}
	return event.Entry{}, false
}

// standing is the session's set as an entry: decided afresh at every
// session start (after a compaction too), like the session's identity.
func standing(text string, ok bool) (event.Entry, bool) {
	return event.Entry{Source: Source, ID: "session", Priority: event.Normal, Text: text, Standing: true}, ok
}

// agentSet is the domain set of the roster agent id.
func agentSet(root, id string, budget int, logf func(string, ...any)) (string, bool) {
	return set(root, "agents/"+id, budget, "the set of agent "+id+", loaded as it starts", logf)
}

// set reads and renders one set; false when it has no file or its
// budget is 0.
func set(root, sub string, budget int, what string, logf func(string, ...any)) (string, bool) {
	if budget <= 0 || sub != "" && !validName(sub[strings.IndexByte(sub, '/')+1:]) {
		return "", false
	}
	fs := load(root, sub, logf)
	if len(fs) == 0 {
		return "", false
	}
	return render(fs, budget, what)
}

// firstCall gives an agent its set at its first tool call, on a host
// that sends no subagent start (or whose start carried nothing): the
// entry has the same key as a start's, so an agent that had its set
// reads nothing here.
func firstCall(c *engine.Call, opts func() Options) (event.Result, error) {
	ev := c.Event
	if !ev.InSubagent() || ev.AgentType == "" || ev.ProjectDir == "" {
		return event.Result{}, nil
	}
	id := agents.IDOf(ev.AgentType)
	e := event.Entry{Source: Source, ID: "agent:" + id}
	if collector.Delivered(collector.StateKey.Of(c.State.Session), ev.AgentID, e) {
		return event.Result{}, nil
	}
	o := opts()
	if !o.Enabled {
		return event.Result{}, nil
	}
	text, ok := agentSet(ev.ProjectDir, id, o.Agent, c.Env.Logf)
	if !ok {
		return event.Result{}, nil
	}
	e.Priority, e.Text, e.Once = event.Normal, text, true
	return event.Result{Context: []event.Entry{e}}, nil
}

// Command is the atreides slash command a prompt runs ("research" for
// "/at-research 3"), "" for none: the prompt as the user typed it (what
// Claude Code and Copilot CLI send), or the command's text as a host
// that expands it before the hook sends it, which opens with "You are
// running the /at-NAME command". The host adapters hand over the user's
// prompt without atreides's own context (Gemini CLI's -p mode puts it in
// front: internal/host/gemini strips it).
func Command(prompt string) string {
	s := strings.TrimSpace(prompt)
	lead := "/" + slash.NamePrefix
	if rest, ok := strings.CutPrefix(s, lead); ok {
		return name(rest)
	}
	const running = "You are running the "
	if i := strings.Index(s, running+lead); i >= 0 && i < 512 {
		return name(s[i+len(running)+len(lead):])
	}
	return ""
}

// name is the command's name at the start of s, lower case; "" when it
// is no valid name.
func name(s string) string {
	if i := strings.IndexAny(s, " \t\n"); i >= 0 {
		s = s[:i]
	}
	s = strings.ToLower(s)
	if !validName(s) {
		return ""
	}
	return s
}
