package copilot

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// Host is this adapter's host name in events and state.
const Host = "copilot"

// payload is the union of the camelCase payloads Copilot CLI 1.0.102
// writes for the events atreides handles (captured: see the package doc).
// No key names the event, save permissionRequest's hookName: the event is
// told by which keys the payload has (eventOf).
type payload struct {
	HookName      string `json:"hookName"`
	SessionID     string `json:"sessionId"`
	Timestamp     int64  `json:"timestamp"` // epoch ms; atreides keeps its own clock
	Cwd           string `json:"cwd"`
	AgentID       string `json:"agentId"`
	AgentType     string `json:"agentType"`
	ParentAgentID string `json:"parentAgentId"`

	Source        *string `json:"source"` // sessionStart
	InitialPrompt string  `json:"initialPrompt"`
	Prompt        *string `json:"prompt"` // userPromptSubmitted

	ToolName   string          `json:"toolName"`
	ToolArgs   json.RawMessage `json:"toolArgs"`
	ToolResult *toolResult     `json:"toolResult"` // postToolUse
	Error      *string         `json:"error"`      // postToolUseFailure (and sessionEnd's optional error)

	TranscriptPath   string  `json:"transcriptPath"`
	StopReason       *string `json:"stopReason"` // agentStop, subagentStop
	StopHookActive   bool    `json:"stop_hook_active"`
	AgentName        *string `json:"agentName"` // subagentStart, subagentStop
	AgentDisplayName string  `json:"agentDisplayName"`
	AgentDescription string  `json:"agentDescription"`
	Response         string  `json:"response"` // subagentStop: the child's last message

	Reason       *string `json:"reason"` // sessionEnd
	FinalMessage string  `json:"finalMessage"`

	Trigger            *string `json:"trigger"` // preCompact: "auto" or "manual"
	CustomInstructions string  `json:"customInstructions"`
}

// toolResult is postToolUse's toolResult: what the model is shown.
type toolResult struct {
	ResultType       string `json:"resultType"`
	TextResultForLLM string `json:"textResultForLlm"`
}

// The events, as Copilot CLI names them in its hooks files.
const (
	SessionStart       = "sessionStart"
	UserPrompt         = "userPromptSubmitted"
	PreToolUse         = "preToolUse"
	PostToolUse        = "postToolUse"
	PostToolUseFailure = "postToolUseFailure"
	AgentStop          = "agentStop"
	SubagentStart      = "subagentStart"
	SubagentStop       = "subagentStop"
	SessionEnd         = "sessionEnd"
	PreCompact         = "preCompact"
)

// kindOf is the kind of one of Copilot's events; Unknown for the events
// atreides does not handle (errorOccurred, notification,
// permissionRequest, userPromptTransformed, preMcpToolCall).
func kindOf(name string) event.Kind {
	switch name {
	case SessionStart:
		return event.SessionStart
	case UserPrompt:
		return event.UserPrompt
	case PreToolUse:
		return event.PreTool
	case PostToolUse, PostToolUseFailure:
		return event.PostTool
	case AgentStop:
		return event.Stop
	case SubagentStart:
		return event.SubagentStart
	case SubagentStop:
		return event.SubagentStop
	case SessionEnd:
		return event.SessionEnd
	case PreCompact:
		return event.PreCompact
	}
	return event.Unknown
}

// eventOf tells the event by the keys its payload carries: each event
// atreides handles has a key no other has (checked against the captured
// payloads). "" when none fits.
func (p *payload) eventOf() string {
	switch {
	case p.HookName != "":
		return p.HookName
	case p.ToolName != "" && p.ToolResult != nil:
		return PostToolUse
	case p.ToolName != "" && p.Error != nil:
		return PostToolUseFailure
	case p.ToolName != "":
		return PreToolUse
	case p.AgentName != nil && p.StopReason != nil:
		return SubagentStop
	case p.AgentName != nil:
		return SubagentStart
	case p.StopReason != nil:
		return AgentStop
	case p.Source != nil:
		return SessionStart
	case p.Prompt != nil:
		return UserPrompt
	case p.Reason != nil:
		return SessionEnd
	case p.Trigger != nil:
		return PreCompact
	}
	return ""
}

// carriers are the events whose additionalContext Copilot CLI puts into
// the model's context (verified with markers: sessionStart's as a text
// block before the first prompt, userPromptSubmitted's in a
// <system_reminder> after the prompt, postToolUse's after the tool's
// result, postToolUseFailure's likewise after the error; subagentStart's
// is put before the child's prompt).
func carries(name string) int {
	switch name {
	case SessionStart, UserPrompt, PostToolUse, PostToolUseFailure, SubagentStart:
		return MaxContext
	}
	return 0
}

// Decode decodes one hook payload. projectDir is COPILOT_PROJECT_DIR when
// set. On a malformed payload it returns [host.ErrMalformed] (wrapped) and
// an event whose HostEvent is what the bytes still tell (sniffed), so a
// cut-off tool call fails closed.
func Decode(data []byte, projectDir string, now time.Time) (*event.Event, error) {
	var p payload
	if err := strictjson.Unmarshal(data, &p); err != nil {
		name := sniffEvent(data)
		return &event.Event{Host: Host, Facts: &Facts, HostEvent: name, Kind: kindOf(name), SessionID: host.SniffString(data, "sessionId"), Time: now}, host.Malformed("%v", err)
	}
	name := p.eventOf()
	ev := &event.Event{Host: Host, Facts: &Facts, HostEvent: name, Kind: kindOf(name), Time: now,
		SessionID: p.SessionID, Cwd: p.Cwd, ProjectDir: projectDir, TranscriptPath: p.TranscriptPath,
		AgentID: p.AgentID, AgentType: p.AgentType, StopHookActive: p.StopHookActive, ContextCap: carries(name)}
	if name == "" {
		return ev, host.Malformed("no event of Copilot CLI's has these keys")
	}
	inChild(&p, ev)
	fields(&p, ev)
	if p.ToolName != "" && (ev.Kind == event.PreTool || ev.Kind == event.PostTool) {
		t, err := NormalizeTool(p.ToolName, p.ToolArgs)
		if err != nil {
			return ev, host.Malformed("%v", err)
		}
		ev.Tool = t
		result(&p, ev)
	}
	return ev, host.RequireTool(ev, p.ToolName)
}

// inChild files a subagent's own events (its tool calls, its prompt, its
// stops), which name the child's session (sessionId is its agentId) and
// its parent in parentAgentId, under the parent's session with the
// agent's id, as Claude Code reports a subagent's. The child's prompt is
// the task's, which subagentStart has already carried context for: it is
// no prompt of the user's, and gets no answer.
func inChild(p *payload, ev *event.Event) {
	if p.AgentID == "" || p.SessionID != p.AgentID || p.ParentAgentID == "" {
		return
	}
	ev.SessionID = p.ParentAgentID
	if ev.Kind == event.UserPrompt {
		ev.Kind = event.Unknown
	}
}

// fields reads each event's own fields.
func fields(p *payload, ev *event.Event) {
	switch {
	case p.Source != nil:
		ev.Source = *p.Source
		ev.Prompt = p.InitialPrompt
	case p.Prompt != nil:
		ev.Prompt = *p.Prompt
	case p.Reason != nil:
		ev.Source = *p.Reason
		ev.LastMessage = p.FinalMessage
	case p.Trigger != nil:
		ev.Source = *p.Trigger
	}
	if p.AgentName != nil && ev.AgentType == "" {
		ev.AgentType = *p.AgentName
	}
	if ev.Kind == event.SubagentStop {
		ev.LastMessage = p.Response
	}
}

// result reads a tool's outcome: postToolUse's result text, or
// postToolUseFailure's error.
func result(p *payload, ev *event.Event) {
	switch {
	case p.ToolResult != nil:
		ev.FullOutput = p.ToolResult.TextResultForLLM
		ev.Output = host.Clip(ev.FullOutput)
		ev.Response, _ = json.Marshal(p.ToolResult)
		// postToolUse's modifiedResult replaces what the model is shown.
		ev.ReplacesOutput = true
		if p.ToolResult.ResultType != "success" {
			ev.Failed, ev.Error = true, host.Clip(p.ToolResult.TextResultForLLM)
		} else if ev.Tool.Name == event.Shell {
			// A failing command is a "success" too: its exit line says.
			ev.Error, ev.Failed = shellFailure(ev.FullOutput)
		} else if ev.Tool.Name == event.Write || ev.Tool.Name == event.Edit {
			ev.Tool.Added = added(ev.Tool)
		}
	case p.Error != nil:
		ev.Failed, ev.Error = true, host.Clip(*p.Error)
	}
}

// sniffEvent tells the event of bytes that do not parse, for failing
// closed: a payload naming a tool is taken for a tool call (preToolUse)
// unless a result already follows its arguments.
func sniffEvent(data []byte) string {
	if n := host.SniffString(data, "hookName"); n != "" {
		return n
	}
	if !bytes.Contains(data, []byte(`"toolName"`)) {
		return ""
	}
	if bytes.Contains(data, []byte(`"toolResult"`)) {
		return PostToolUse
	}
	return PreToolUse
}
