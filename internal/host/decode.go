package host

import (
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
	"github.com/atreides-dev/atreides/internal/project"
)

// ErrMalformed is wrapped by every adapter's error for input that is not
// its host's hook payload, so callers test one value whatever the host.
var ErrMalformed = errors.New("malformed hook input")

// Malformed returns an ErrMalformed error with the detail formatted after it.
func Malformed(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrMalformed, fmt.Sprintf(format, args...))
}

// Kinds maps a host's event names to atreides's kinds.
type Kinds map[string]event.Kind

// Of is the kind of a host event; Unknown for a name the host's adapter
// does not handle.
func (k Kinds) Of(name string) event.Kind {
	if kind, ok := k[name]; ok {
		return kind
	}
	return event.Unknown
}

// Payload is a host's decoded hook payload: every JSON-on-stdin host names
// the event in it.
type Payload interface{ EventName() string }

// DecodePayload decodes a hook payload strictly into P and returns it with
// the event's common part (host, host event, kind, time). On malformed
// bytes the event is what could be recovered from them (the event name, if
// it survived, and its kind; the session id, for the audit trail), so the
// caller can still fail closed on a tool call and say whose it was; a
// payload without an event name is an Unknown event. Every JSON-on-stdin
// host names the session session_id. Every event carries the host's facts.
func DecodePayload[P Payload](hostName string, facts *event.HostFacts, data []byte, kinds Kinds, now time.Time) (P, *event.Event, error) {
	var p P
	if err := strictjson.Unmarshal(data, &p); err != nil {
		name := SniffEventName(data)
		return p, &event.Event{Host: hostName, Facts: facts, HostEvent: name, Kind: kinds.Of(name), SessionID: SniffString(data, "session_id"), Time: now}, Malformed("%v", err)
	}
	name := p.EventName()
	if name == "" {
		return p, &event.Event{Host: hostName, Facts: facts, Kind: event.Unknown, Time: now}, Malformed("no hook_event_name")
	}
	return p, &event.Event{Host: hostName, Facts: facts, HostEvent: name, Kind: kinds.Of(name), Time: now}, nil
}

// RequireTool is the check every host's tool-call event must pass: a tool
// call that names no tool cannot be judged.
func RequireTool(ev *event.Event, toolName string) error {
	if (ev.Kind == event.PreTool || ev.Kind == event.PermissionRequest) && toolName == "" {
		return Malformed("%s without tool_name", ev.HostEvent)
	}
	return nil
}

// DecodeToolInput reads the fields of a host's own tool into in (a
// pointer to the adapter's input struct), strictly. An MCP tool's or an
// unknown tool's arguments have types of their own (a command as an argv
// array): they are only checked (syntax, no duplicate keys), and read by
// whoever knows the tool (internal/mcptools).
func DecodeToolInput(input []byte, name event.ToolName, in any) error {
	if name == event.Other || name.IsMCP() {
		return strictjson.UniqueKeys(input)
	}
	return strictjson.UnmarshalInput(input, in)
}

// RunsIn moves a shell call to the directory its tool runs the command in,
// for hosts whose shell tool takes one (Gemini CLI's dir_path, Qwen
// Code's directory): the command's relative paths are judged from there,
// a relative dir taken from the session's directory as the host does. The
// project stays the one the host was started in.
func RunsIn(ev *event.Event, dir string) {
	if dir == "" {
		return
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(ev.Cwd, dir)
	}
	dir = filepath.Clean(dir)
	if dir == ev.Cwd {
		return
	}
	if ev.ProjectDir == "" {
		ev.ProjectDir = project.Root("", ev.Cwd)
	}
	ev.Cwd = dir
}
