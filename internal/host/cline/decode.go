package cline

import (
	"encoding/json"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// Host is this adapter's host name in events and state.
const Host = "cline"

// The hook names Cline 3.0.65 puts in a payload's hookName, and the event
// (the hook file's name) each fires.
var hookEvents = []struct{ hook, event string }{
	{"agent_start", "TaskStart"},
	{"agent_resume", "TaskResume"},
	{"agent_abort", "TaskCancel"},
	{"agent_end", "TaskComplete"},
	{"agent_error", "TaskError"},
	{"tool_call", "PreToolUse"},
	{"tool_result", "PostToolUse"},
	{"prompt_submit", "UserPromptSubmit"},
	{"pre_compact", "PreCompact"},
	{"session_shutdown", "SessionShutdown"},
}

// eventOf is the event a payload's hookName fires; "" for a name 3.0.65
// does not send.
func eventOf(hookName string) string {
	for _, h := range hookEvents {
		if h.hook == hookName {
			return h.event
		}
	}
	return ""
}

// kindOf is atreides's kind of one of Cline's events. TaskCancel and
// TaskError end a run the user may resume: no kind. PreCompact never
// fires in 3.0.65.
func kindOf(name string) event.Kind {
	switch name {
	case "TaskStart", "TaskResume":
		return event.SessionStart
	case "PreToolUse":
		return event.PreTool
	case "PostToolUse":
		return event.PostTool
	case "UserPromptSubmit":
		return event.UserPrompt
	case "TaskComplete":
		return event.Stop
	case "SessionShutdown":
		return event.SessionEnd
	}
	return event.Unknown
}

// payload is what Cline 3.0.65 writes on a hook's stdin (captured; see
// testdata). preToolUse and postToolUse repeat the tool call with every
// parameter JSON-encoded as a string: atreides reads the call from
// tool_call and tool_result, which hold the input the tool runs with.
type payload struct {
	TaskID         string `json:"taskId"`
	SessionContext *struct {
		RootSessionID string `json:"rootSessionId"`
	} `json:"sessionContext"`
	WorkspaceRoots []string `json:"workspaceRoots"`
	WorkspaceInfo  *struct {
		RootPath string `json:"rootPath"`
	} `json:"workspaceInfo"`
	AgentID       string     `json:"agent_id"`
	ParentAgentID *string    `json:"parent_agent_id"`
	HookName      string     `json:"hookName"`
	ToolCall      *toolCall  `json:"tool_call"`
	ToolResult    *toolCall  `json:"tool_result"`
	Turn          *turn      `json:"turn"`
	Prompt        *promptMsg `json:"userPromptSubmit"`
	Reason        string     `json:"reason"`
}

// toolCall is tool_call, and tool_result, which adds the output.
type toolCall struct {
	ID     string          `json:"id"`
	Name   string          `json:"name"`
	Input  json.RawMessage `json:"input"`
	Output json.RawMessage `json:"output"`
	// Error is set when the tool failed: a string.
	Error      json.RawMessage `json:"error"`
	DurationMs float64         `json:"durationMs"`
}

type turn struct {
	OutputText string `json:"outputText"`
}

type promptMsg struct {
	Prompt string `json:"prompt"`
}

// sniffEvent finds the event of bytes that do not parse, from hookName
// (Cline writes it before the tool call, so it survives a cut).
func sniffEvent(data []byte) string { return eventOf(host.SniffString(data, "hookName")) }

// Decode decodes one hook payload. On a malformed payload it returns
// [host.ErrMalformed] (wrapped) and an event whose HostEvent is whatever
// could be recovered, so a tool call still fails closed.
func Decode(data []byte, now time.Time) (*event.Event, error) {
	var p payload
	if err := strictjson.Unmarshal(data, &p); err != nil {
		name := sniffEvent(data)
		return &event.Event{Host: Host, Facts: &Facts, HostEvent: name, Kind: kindOf(name), SessionID: host.SniffString(data, "taskId"), Time: now}, host.Malformed("%v", err)
	}
	name := eventOf(p.HookName)
	ev := &event.Event{Host: Host, Facts: &Facts, HostEvent: name, Kind: kindOf(name), Time: now, SessionID: p.sessionID()}
	if name == "" {
		return ev, host.Malformed("unknown hookName %q", p.HookName)
	}
	ev.ProjectDir = p.root()
	ev.Cwd = ev.ProjectDir
	if p.ParentAgentID != nil && *p.ParentAgentID != "" {
		// Every agent has an id, the main one too: only a spawned one
		// has a parent. A spawned agent's run starts and completes with
		// the same events as the lead's (captured).
		ev.AgentID, ev.AgentType = p.AgentID, Facts.DefaultAgent
		switch ev.Kind {
		case event.SessionStart:
			ev.Kind = event.SubagentStart
		case event.Stop:
			ev.Kind = event.SubagentStop
		}
	}
	if ev.Kind == event.SessionStart {
		ev.Source = "startup"
		if name == "TaskResume" {
			ev.Source = "resume"
		}
	}
	if p.Turn != nil {
		ev.LastMessage = p.Turn.OutputText
	}
	if p.Prompt != nil {
		ev.Prompt = p.Prompt.Prompt
	}
	return ev, p.tool(ev)
}

// sessionID is the session of the run: its root session (the id `cline
// --id` resumes), or the task when a payload names none.
func (p *payload) sessionID() string {
	if p.SessionContext != nil && p.SessionContext.RootSessionID != "" {
		return p.SessionContext.RootSessionID
	}
	return p.TaskID
}

// root is the workspace root: Cline names no cwd of its own.
func (p *payload) root() string {
	if p.WorkspaceInfo != nil && p.WorkspaceInfo.RootPath != "" {
		return p.WorkspaceInfo.RootPath
	}
	if len(p.WorkspaceRoots) > 0 {
		return p.WorkspaceRoots[0]
	}
	return ""
}

// tool reads the tool call of PreToolUse and PostToolUse into ev.
func (p *payload) tool(ev *event.Event) error {
	c := p.ToolCall
	if ev.HostEvent == "PostToolUse" {
		c = p.ToolResult
	}
	if ev.Kind != event.PreTool && ev.Kind != event.PostTool {
		return nil
	}
	if c == nil || c.Name == "" {
		return host.Malformed("%s without a tool call", ev.HostEvent)
	}
	t, err := NormalizeTool(c.Name, c.Input)
	if ev.Kind == event.PreTool {
		t.Added = nil // nothing is written yet
	}
	ev.Tool, ev.ToolUseID = t, c.ID
	if err != nil {
		return host.Malformed("input of %s: %v", c.Name, err)
	}
	if ev.Kind == event.PostTool {
		if Refused(c.Name, c.Input) {
			// atreides refused the call: what ran was its stand-in, not
			// the agent's call, so nothing follows from it (no failure
			// counted against the agent).
			ev.Kind = event.Unknown
			return nil
		}
		result(ev, c)
	}
	return nil
}

// result reads a tool's outcome: its output, as Cline shows it to the
// model (JSON), and its error.
func result(ev *event.Event, c *toolCall) {
	es := entries(c.Output)
	ev.Response = c.Output
	ev.FullOutput = outputText(c.Output, es)
	ev.Output = host.Clip(ev.FullOutput)
	ev.Duration = time.Duration(c.DurationMs * float64(time.Millisecond))
	if len(c.Error) > 0 && string(c.Error) != "null" {
		var msg string
		if json.Unmarshal(c.Error, &msg) != nil {
			msg = string(c.Error)
		}
		ev.Failed, ev.Error = true, host.Clip(msg)
	}
	for _, r := range es {
		if !r.Success {
			ev.Failed = true
			if ev.Error == "" {
				ev.Error = host.Clip(r.Error)
			}
		}
	}
}

// entry is one result of a tool that takes a list (a command, a file):
// what it was asked, what came back.
type entry struct {
	Query   string `json:"query"`
	Result  string `json:"result"`
	Error   string `json:"error"`
	Success bool   `json:"success"`
}

// entries reads a list tool's output; nil for any other shape.
func entries(out json.RawMessage) []entry {
	var es []entry
	if len(out) == 0 || out[0] != '[' || strictjson.Unmarshal(out, &es) != nil {
		return nil
	}
	return es
}

// outputText is the text of a tool's output: each of its entries' result
// in turn (es, as entries read them), else the output as it is (a
// string's text, other JSON raw).
func outputText(out json.RawMessage, es []entry) string {
	if es != nil {
		var b strings.Builder
		for i, e := range es {
			if i > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(e.Result)
		}
		return b.String()
	}
	var s string
	if json.Unmarshal(out, &s) == nil {
		return s
	}
	if len(out) == 0 || string(out) == "null" {
		return ""
	}
	return string(out)
}
