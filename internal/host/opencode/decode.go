package opencode

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
	"github.com/atreides-dev/atreides/internal/lazy"
	"github.com/atreides-dev/atreides/internal/project"
)

// Host is this adapter's host name in events and state.
const Host = "opencode"

// The methods of the serve protocol that carry OpenCode hooks.
const (
	MethodToolBefore = "tool.before"
	MethodToolAfter  = "tool.after"
	MethodSystem     = "system.transform"
	MethodMessages   = "messages.transform"
	MethodText       = "text.complete"
	MethodCompacting = "session.compacting"
	MethodChat       = "chat.message"
	MethodEvent      = "event"
)

// Methods lists the hook methods, in the order the plugin registers them.
func Methods() []string {
	return []string{MethodToolBefore, MethodToolAfter, MethodMessages, MethodSystem, MethodCompacting, MethodChat, MethodText, MethodEvent, MethodConfig}
}

// hookNames are OpenCode's names for the hooks behind each method; they
// are the events' HostEvent (for MethodEvent, the bus event's type is).
var hookNames = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{
		MethodToolBefore: "tool.execute.before",
		MethodToolAfter:  "tool.execute.after",
		MethodSystem:     "experimental.chat.system.transform",
		MethodMessages:   "experimental.chat.messages.transform",
		MethodText:       "experimental.text.complete",
		MethodCompacting: "experimental.session.compacting",
		MethodChat:       "chat.message",
	}
}}

// HookName is OpenCode's hook behind a method ("" for none).
func HookName(method string) string {
	if method == MethodEvent {
		return "event"
	}
	return hookNames.Get()[method]
}

// Params is what the plugin sends with every hook: the directory OpenCode
// runs in and the hook's own input and output objects, untouched.
type Params struct {
	Directory string          `json:"directory"`
	Worktree  string          `json:"worktree,omitempty"`
	Input     json.RawMessage `json:"input"`
	Output    json.RawMessage `json:"output,omitempty"`
}

type hookInput struct {
	Tool      string          `json:"tool"`
	SessionID string          `json:"sessionID"`
	CallID    string          `json:"callID"`
	Args      json.RawMessage `json:"args"`
	Agent     string          `json:"agent"`
	Event     *busEvent       `json:"event"`
}

type busEvent struct {
	ID         string          `json:"id"`
	Type       string          `json:"type"`
	Properties json.RawMessage `json:"properties"`
}

type busProps struct {
	SessionID string          `json:"sessionID"`
	Info      json.RawMessage `json:"info"`
	Error     json.RawMessage `json:"error"`
	File      string          `json:"file"`
}

type sessionInfo struct {
	ID        string `json:"id"`
	ParentID  string `json:"parentID"`
	Agent     string `json:"agent"` // the agent a child session was created for
	Title     string `json:"title"`
	Directory string `json:"directory"`
	Role      string `json:"role"`
	// An assistant message's token counts; Summary marks the compaction's
	// own message, whose counts are the context before it.
	Tokens  *messageTokens `json:"tokens"`
	Summary bool           `json:"summary"`
}

// messageTokens are an assistant message's token counts.
type messageTokens struct {
	Input, Output int
	Cache         struct{ Read, Write int }
}

// contextSize is what the message's request put into the context and
// its answer added: OpenCode counts cached input apart from input.
// Reasoning is left out: it is not sent back with later requests.
func (t *messageTokens) contextSize() int {
	return t.Input + t.Cache.Read + t.Cache.Write + t.Output
}

type toolAfterOutput struct {
	Title    string          `json:"title"`
	Output   json.RawMessage `json:"output"` // a string; kept raw as the event's Response
	Metadata struct {
		Exit *int `json:"exit"`
		// OutputPath is where OpenCode saved an output it truncated
		// itself (metadata.truncated): output then holds only part of it.
		OutputPath string `json:"outputPath"`
	} `json:"metadata"`
}

type chatOutput struct {
	// Message is the user message OpenCode made of the prompt; its agent
	// is the one that answers it (the input names one only when the
	// prompt asked for it).
	Message struct {
		Agent string `json:"agent"`
	} `json:"message"`
	Parts []struct {
		Type      string `json:"type"`
		Text      string `json:"text"`
		Synthetic bool   `json:"synthetic"`
		Ignored   bool   `json:"ignored"`
	} `json:"parts"`
}

// titlePrompt opens the system prompt of OpenCode's title agent, whose
// requests get no session context.
const titlePrompt = "You are a title generator"

// busKinds maps the bus events the engine hears about. Other events
// (todo.updated, file.edited, message.*) decode to Unknown: the mapper
// keeps what it needs of them, the engine sees nothing.
var busKinds = lazy.Value[map[string]event.Kind]{New: func() map[string]event.Kind {
	return map[string]event.Kind{
		"session.created":   event.SessionStart,
		"session.idle":      event.Stop,
		"session.compacted": event.PostCompact,
		"session.deleted":   event.SessionEnd,
		"session.error":     event.Notification,
	}
}}

// DecodeRequest decodes `{"method":…,"params":…}`, the shape of a serve
// request without its envelope. On malformed bytes the returned event
// carries the hook name when it could be recovered, so a tool call fails
// closed.
func DecodeRequest(data []byte, now time.Time) (*event.Event, error) {
	return OpenCode().DecodeRequest(data, now)
}

// DecodeRequest is [DecodeRequest] for the flavor's host.
func (f Flavor) DecodeRequest(data []byte, now time.Time) (*event.Event, error) {
	f = f.or()
	var r struct {
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		ev := &event.Event{Host: f.Name, Facts: f.Facts, HostEvent: HookName(host.SniffString(data, "method")), Kind: event.Unknown, Time: now}
		if ev.HostEvent == "tool.execute.before" {
			ev.Kind = event.PreTool
		}
		return ev, host.Malformed("%v", err)
	}
	return f.Decode(r.Method, r.Params, now)
}

// Decode decodes one hook's params. It keeps no state: what depends on
// earlier events (a stop that follows atreides's own continuation, a
// compaction) is filled in by [Mapper].
func Decode(method string, raw json.RawMessage, now time.Time) (*event.Event, error) {
	return OpenCode().Decode(method, raw, now)
}

// Decode is [Decode] for the flavor's host: its events name it and carry
// its facts.
func (f Flavor) Decode(method string, raw json.RawMessage, now time.Time) (*event.Event, error) {
	f = f.or()
	ev := &event.Event{Host: f.Name, Facts: f.Facts, HostEvent: HookName(method), Kind: event.Unknown, Time: now}
	if ev.HostEvent == "" {
		return ev, host.Malformed("unknown method %q", method)
	}
	if method == MethodToolBefore {
		ev.Kind = event.PreTool // so that a failure below fails closed
	}
	var p Params
	if err := strictjson.Unmarshal(raw, &p); err != nil {
		return ev, host.Malformed("%v", err)
	}
	ev.Cwd = p.Directory
	var in hookInput
	if len(p.Input) > 0 {
		if err := strictjson.Unmarshal(p.Input, &in); err != nil {
			return ev, host.Malformed("input: %v", err)
		}
	}
	ev.SessionID = in.SessionID
	switch method {
	case MethodToolBefore:
		var out struct {
			Args json.RawMessage `json:"args"`
		}
		if len(p.Output) > 0 {
			if err := json.Unmarshal(p.Output, &out); err != nil {
				return ev, host.Malformed("output: %v", err)
			}
		}
		if in.Tool == "" {
			return ev, host.Malformed("tool.execute.before without a tool")
		}
		return ev, decodeTool(ev, in, out.Args)
	case MethodToolAfter:
		ev.Kind, ev.ContextCap = event.PostTool, MaxContext
		var out toolAfterOutput
		if len(p.Output) > 0 {
			if err := json.Unmarshal(p.Output, &out); err != nil {
				return ev, host.Malformed("output: %v", err)
			}
		}
		var text string
		if len(out.Output) > 0 && string(out.Output) != "null" {
			if err := json.Unmarshal(out.Output, &text); err != nil {
				return ev, host.Malformed("output.output: %v", err)
			}
		}
		// Every tool's output is a string the plugin may replace.
		ev.Response, ev.FullOutput, ev.OutputFile, ev.ReplacesOutput = out.Output, text, out.Metadata.OutputPath, true
		ev.Output = host.Clip(text)
		if out.Metadata.Exit != nil && *out.Metadata.Exit != 0 {
			ev.Failed = true
			ev.Error = fmt.Sprintf("exit status %d", *out.Metadata.Exit)
		}
		if err := decodeTool(ev, in, in.Args); err != nil {
			return ev, err
		}
		if !ev.Failed && (ev.Tool.Name == event.Write || ev.Tool.Name == event.Edit) {
			ev.Tool.Added = addedLines(ev.Tool)
		}
		return ev, nil
	case MethodSystem:
		var out struct {
			System []string `json:"system"`
		}
		if len(p.Output) > 0 {
			if err := json.Unmarshal(p.Output, &out); err != nil {
				return ev, host.Malformed("output: %v", err)
			}
		}
		if ev.SessionID == "" || (len(out.System) > 0 && strings.HasPrefix(out.System[0], titlePrompt)) {
			return ev, nil // not a session's main request: nothing to add
		}
		// Every main-agent request: a SessionStart so the session context
		// rides along (see doc.go), but not a new start; that was
		// session.created.
		ev.Kind, ev.Source, ev.ContextCap = event.SessionStart, "prompt", MaxContext
	case MethodMessages:
		if ev.SessionID == "" {
			return ev, nil // no message names its session: nothing to add
		}
		// Before every model request of a session: its start context is
		// decided here, as system.transform did, and what the request
		// carries is split by the mapper (see doc.go).
		ev.Kind, ev.Source, ev.ContextCap = event.SessionStart, "prompt", MaxContext
	case MethodCompacting:
		ev.Kind, ev.Source = event.PreCompact, "auto"
	case MethodChat:
		var out chatOutput
		if len(p.Output) > 0 {
			if err := json.Unmarshal(p.Output, &out); err != nil {
				return ev, host.Malformed("output: %v", err)
			}
		}
		var texts []string
		for _, part := range out.Parts {
			if part.Type == "text" && !part.Synthetic && !part.Ignored && part.Text != "" {
				texts = append(texts, part.Text)
			}
		}
		ev.Kind, ev.Prompt, ev.AgentType = event.UserPrompt, strings.Join(texts, "\n"), host.OrDefault(in.Agent, out.Message.Agent)
	case MethodEvent:
		return ev, decodeBus(ev, in.Event)
	}
	return ev, nil
}

func decodeTool(ev *event.Event, in hookInput, args json.RawMessage) error {
	tool, workdir, err := NormalizeTool(in.Tool, args)
	ev.Tool, ev.ToolUseID = tool, in.CallID
	if workdir != "" && !filepath.IsAbs(workdir) {
		// Resolved from OpenCode's directory, as OpenCode does; with no
		// directory to resolve it from it cannot be judged.
		if !filepath.IsAbs(ev.Cwd) {
			return host.Malformed("relative workdir %q without a directory", workdir)
		}
		workdir = filepath.Join(ev.Cwd, workdir)
	}
	if workdir != "" && workdir != ev.Cwd {
		// The command runs in workdir, but the project is still the one
		// OpenCode was started in.
		ev.ProjectDir = project.Root("", ev.Cwd)
		ev.Cwd = workdir
	}
	if err != nil {
		return host.Malformed("%v", err)
	}
	return nil
}

func decodeBus(ev *event.Event, be *busEvent) error {
	if be == nil || be.Type == "" {
		return host.Malformed("event without a type")
	}
	ev.HostEvent = be.Type
	var props busProps
	if len(be.Properties) > 0 && be.Properties[0] == '{' {
		if err := json.Unmarshal(be.Properties, &props); err != nil {
			return host.Malformed("%s properties: %v", be.Type, err)
		}
	}
	ev.SessionID = props.SessionID
	var info sessionInfo
	if len(props.Info) > 0 && props.Info[0] == '{' {
		_ = json.Unmarshal(props.Info, &info) // informational only
	}
	kind, ok := busKinds.Get()[be.Type]
	if !ok {
		return nil
	}
	ev.Kind = kind
	switch be.Type {
	case "session.created":
		ev.Source = "startup"
		if ev.SessionID == "" {
			ev.SessionID = info.ID
		}
		if info.Directory != "" {
			ev.Cwd = info.Directory
		}
	case "session.deleted":
		ev.Source = "deleted"
		if ev.SessionID == "" {
			ev.SessionID = info.ID
		}
	case "session.compacted":
		ev.Source = "auto"
	case "session.error":
		ev.Message = errorText(props.Error)
		// The user's Esc (the TUI's interrupt, or an abort over the API):
		// the turn ends with this error, and is no failure of the agent.
		ev.Interrupted = errorName(props.Error) == abortedError
	}
	if ev.SessionID == "" {
		// Every event the engine handles belongs to a session; one that
		// names none (a global session.error) is only logged.
		ev.Kind = event.Unknown
	}
	return nil
}

// abortedError is the name of the error OpenCode ends a turn with when
// the user interrupts it (1.18.33's MessageAbortedError; its TUI shows the
// turn as "interrupted" and no error toast).
const abortedError = "MessageAbortedError"

// errorName is the name of OpenCode's error object ("" if none).
func errorName(raw json.RawMessage) string {
	var e struct {
		Name string `json:"name"`
	}
	if len(raw) == 0 || json.Unmarshal(raw, &e) != nil {
		return ""
	}
	return e.Name
}

// errorText pulls a message out of OpenCode's error object
// ({name, data:{message}}), else the raw JSON.
func errorText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var e struct {
		Name string `json:"name"`
		Data struct {
			Message string `json:"message"`
		} `json:"data"`
	}
	if json.Unmarshal(raw, &e) == nil && (e.Name != "" || e.Data.Message != "") {
		return strings.TrimSpace(e.Name + ": " + e.Data.Message)
	}
	return host.Clip(string(raw))
}
