package event

import (
	"encoding/json"
	"time"
)

// Kind is what happened, in the engine's own words.
type Kind string

// The kinds every host maps onto. A host event with no mapping is [Unknown]
// and gets no decision.
const (
	SessionStart      Kind = "session_start"
	UserPrompt        Kind = "user_prompt"
	PreTool           Kind = "pre_tool"
	PermissionRequest Kind = "permission_request"
	PostTool          Kind = "post_tool"
	Stop              Kind = "stop"
	SubagentStart     Kind = "subagent_start"
	SubagentStop      Kind = "subagent_stop"
	PreCompact        Kind = "pre_compact"
	PostCompact       Kind = "post_compact"
	SessionEnd        Kind = "session_end"
	Notification      Kind = "notification"
	Unknown           Kind = "unknown"
)

// Event is one hook call, decoded. Fields that an event kind does not carry
// stay zero.
type Event struct {
	Kind      Kind
	Host      string // the host's name, as on the command line and in state
	HostEvent string // the host's own event name, e.g. "PreToolUse"
	// Facts are what atreides knows of the host; its adapter attaches
	// them. Nil only for an event no adapter made: [Event.HostFacts].
	Facts *HostFacts

	SessionID      string
	Cwd            string // where the agent is now
	ProjectDir     string // the project root: the host's own when it names one, else found from Cwd
	TranscriptPath string
	AgentID        string // set when the hook fires inside a subagent
	AgentType      string
	PermissionMode string

	// Source is SessionStart's source (startup, resume, compact, ...; prompt
	// for OpenCode's per-request system prompt, which is no new start),
	// the compaction trigger, or SessionEnd's reason.
	Source string
	Prompt string // UserPrompt

	Tool      Tool
	ToolUseID string
	Output    string // PostTool: what the tool printed, shortened by the adapter
	Failed    bool   // PostTool: the tool failed
	// Interrupted is set when the user stopped the tool call (Claude Code's
	// is_interrupt); the agent did not fail.
	Interrupted bool
	Error       string // PostTool: the host's error text
	Duration    time.Duration
	// Response is the host's whole tool response, raw (PostTool): Claude
	// Code's, Gemini CLI's and Codex's tool_response, OpenCode's output
	// string. An adapter that replaces the output rebuilds the host's own
	// shape from it.
	Response json.RawMessage
	// FullOutput is the whole text of the tool's result the model would
	// see (PostTool), which Output shortens. OutputFile is where the host
	// saved the whole output when it sent only its start (Claude Code's
	// persistedOutputPath); empty otherwise.
	FullOutput, OutputFile string
	// ReplacesOutput is set when the host lets this event's answer
	// replace the tool's output the model sees ([Result.ReplaceOutput]);
	// the adapter knows for which hosts and tools.
	ReplacesOutput bool

	StopHookActive bool   // Stop/SubagentStop: already continuing because of a stop hook
	LastMessage    string // Stop/SubagentStop: the agent's final message
	Message        string // Notification text

	// ContextCap is how many bytes of context the host lets this event
	// carry to the agent: 0 for an event whose answer the host does not
	// put into the agent's context. The adapter sets it; the engine's
	// collector fits context into it and keeps the rest for later.
	ContextCap int

	// ContextUsed and ContextWindow are the tokens in the agent's context
	// and the size of its window as the host last reported them, when the
	// adapter has them without reading a file (OpenCode's mapper keeps the
	// last assistant message's count); 0 is unknown: package usage reads
	// the transcript instead.
	ContextUsed, ContextWindow int

	Time time.Time
}

// Compacted reports whether the event follows a compaction of the agent's
// context: what was put into it before is gone.
func (e *Event) Compacted() bool {
	return e.Kind == PostCompact || e.Kind == SessionStart && e.Source == "compact"
}

// Starts reports whether the event starts or resumes a session: a
// SessionStart other than the one OpenCode's adapter makes of every model
// request (Source "prompt"), which is no start.
func (e *Event) Starts() bool { return e.Kind == SessionStart && e.Source != "prompt" }

// HostFacts are the facts of the event's host; none (all zero) when no
// adapter attached them.
func (e *Event) HostFacts() *HostFacts {
	if e.Facts == nil {
		return &noFacts
	}
	return e.Facts
}

// noFacts is what an event without facts reads; never written.
var noFacts HostFacts

// InSubagent reports whether the event fired inside a delegated agent.
func (e *Event) InSubagent() bool { return e.AgentID != "" }

// Tool is a tool call with its name normalized across hosts.
type Tool struct {
	Name  ToolName        // normalized
	Raw   string          // the host's name, e.g. "Bash", "run_shell_command"
	Input json.RawMessage // the host's input object, untouched

	Command string   // shell tools: the command line
	Paths   []string // file tools: the paths the call reads or writes; search tools: the directory searched
	Pattern string   // search tools: the glob searched for
	// Added is what a write or edit put into files, per file; the
	// adapters fill it on PostTool, from the input and, where the host
	// reports it, the tool's response.
	Added []FileLines
}

// FileLines are lines a write or edit put into one file: a run of the
// file's new lines, with the ones the call added marked. The unchanged
// lines around them are context, so that a reader sees a string or block
// comment that began before an added line.
type FileLines struct {
	Path  string
	Lines []string
	// New marks the lines of Lines the call added; nil means all of them.
	New []bool
	// Whole is set when Lines are the whole file, from its first line.
	Whole bool
}

// IsNew reports whether line i was added by the call.
func (f FileLines) IsNew(i int) bool { return f.New == nil || i < len(f.New) && f.New[i] }

// ToolName is a normalized tool name.
type ToolName string

// Normalized tool names. MCP tools are "mcp:<server>__<tool>".
const (
	Shell    ToolName = "shell"
	Read     ToolName = "read"
	Write    ToolName = "write"
	Edit     ToolName = "edit"
	Search   ToolName = "search"
	Fetch    ToolName = "fetch"
	Delegate ToolName = "delegate"
	Todo     ToolName = "todo"
	Other    ToolName = "other"
)

// IsMCP reports whether the tool is served over MCP.
func (n ToolName) IsMCP() bool { return len(n) > 4 && n[:4] == "mcp:" }
