package gemini

import (
	"bytes"
	"encoding/json"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/hookjson"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
	"github.com/atreides-dev/atreides/internal/lazy"
)

// Host is this adapter's host name in events and state.
const Host = "gemini"

// toolResponse is AfterTool's tool_response. llmContent is what the model
// is shown: a string for the built-in tools, possibly an array of parts for
// others. error is set (an object {type, message} in the 0.61.0 source)
// when the tool failed.
type toolResponse struct {
	LLMContent json.RawMessage `json:"llmContent"`
	Error      json.RawMessage `json:"error"`
	// ReturnDisplay is what the user is shown; for write_file an object
	// holding the file's originalContent.
	ReturnDisplay json.RawMessage `json:"returnDisplay"`
}

// kinds are the events the adapter handles.
func kinds() host.Kinds {
	return host.Kinds{
		"SessionStart": event.SessionStart,
		"BeforeAgent":  event.UserPrompt,
		"BeforeTool":   event.PreTool,
		"AfterTool":    event.PostTool,
		"AfterAgent":   event.Stop,
		"PreCompress":  event.PreCompact,
		"SessionEnd":   event.SessionEnd,
		"Notification": event.Notification,
		// BeforeModel, AfterModel, BeforeToolSelection: Unknown on purpose.
	}
}

// carriers are the events whose additionalContext Gemini CLI puts into the
// model's context (verified: SessionStart and BeforeAgent as
// <hook_context> on the user turn, AfterTool appended to the result).
func carriers() map[string]int {
	return map[string]int{"SessionStart": MaxContext, "BeforeAgent": MaxContext, "AfterTool": MaxContext}
}

// dialect is what Gemini CLI 0.61.0 sends, built on first use: its tables are maps,
// which would be init work in every hook process, whichever its host.
var dialect = lazy.Value[*hookjson.Dialect]{New: func() *hookjson.Dialect {
	return &hookjson.Dialect{Host: Host, Facts: &Facts, Kinds: kinds(), Carriers: carriers(), Fields: fields, Tool: tool}
}}

// Decode decodes one hook payload. projectDir is GEMINI_PROJECT_DIR when
// set; otherwise ProjectDir stays empty and the caller finds the project
// from Cwd. On a malformed payload it returns [host.ErrMalformed] (wrapped) and an event
// whose HostEvent is whatever could be recovered from the bytes, so the
// caller can still fail closed on a tool call.
func Decode(data []byte, projectDir string, now time.Time) (*event.Event, error) {
	p, ev, err := dialect.Get().Decode(data, projectDir, now)
	if err != nil {
		return ev, err
	}
	// run_shell_command runs its command in dir_path (resolved from the
	// project, 0.61.0's ShellToolInvocation): `echo x > settings.json`
	// there writes .gemini/settings.json, not ./settings.json.
	dir, err := shellDir(ev.Tool)
	if err != nil {
		return ev, host.Malformed("tool_input: %v", err)
	}
	host.RunsIn(ev, dir)
	if p.HookEventName == "BeforeAgent" {
		ev.Prompt = stripStart(ev.Prompt)
	}
	if p.HookEventName == "AfterTool" && len(p.ToolResponse) > 0 && string(p.ToolResponse) != "null" {
		// No ReplacesOutput: 0.61.0 reads no replacement of a tool's
		// output from AfterTool (its hook output class has none; a deny
		// shows the model an error instead), and truncates large shell
		// and MCP outputs to a file itself.
		var r toolResponse
		if err := strictjson.Unmarshal(p.ToolResponse, &r); err != nil {
			return ev, host.Malformed("tool_response: %v", err)
		}
		ev.Response = p.ToolResponse
		ev.FullOutput = ContentText(r.LLMContent)
		ev.Output = host.Clip(ev.FullOutput)
		if msg, failed := errorText(r.Error); failed {
			ev.Failed, ev.Error = true, msg
		} else if ev.Tool.Name == event.Shell {
			ev.Failed, ev.Error = shellFailed(ev.FullOutput)
		} else if ev.Tool.Name == event.Write || ev.Tool.Name == event.Edit {
			ev.Tool.Added = edits.Added(ev.Tool, r.ReturnDisplay)
		}
	}
	return ev, nil
}

// fields reads what Gemini CLI sends beyond the common fields: the last
// message is AfterAgent's prompt_response, and the source is in a field
// of each event's own.
func fields(p *hookjson.Payload, ev *event.Event) {
	ev.LastMessage, ev.Message = p.PromptResponse, p.Message
	switch p.HookEventName {
	case "SessionStart":
		ev.Source = p.Source
	case "PreCompress":
		ev.Source = p.Trigger
	case "SessionEnd":
		ev.Source = p.Reason
	case "Notification":
		ev.Source = p.NotificationType
	}
}

func tool(p *hookjson.Payload) (event.Tool, error) {
	return NormalizeTool(p.ToolName, p.ToolInput, p.MCPContext)
}

// ContentText flattens llmContent (Qwen Code, a fork, sends the same
// shape): a string as is, an array of parts by
// their text, anything else as its JSON.
func ContentText(raw json.RawMessage) string {
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if strictjson.Unmarshal(raw, &parts) == nil {
		var b bytes.Buffer
		for _, p := range parts {
			if p.Text == "" {
				continue
			}
			if b.Len() > 0 {
				b.WriteByte('\n')
			}
			b.WriteString(p.Text)
		}
		return b.String()
	}
	return string(raw)
}

// errorText reads tool_response.error: absent or null means success, an
// object gives its message, a plain string is the message itself.
func errorText(raw json.RawMessage) (string, bool) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", false
	}
	var obj struct {
		Message string `json:"message"`
		Type    string `json:"type"`
	}
	if strictjson.Unmarshal(raw, &obj) == nil {
		if obj.Message == "" {
			obj.Message = obj.Type
		}
		return host.Clip(obj.Message), true
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return host.Clip(s), true
	}
	return host.Clip(string(raw)), true
}
