package event

import "fmt"

// HostFacts are what handlers know of the host an event comes from. Each
// host's package (internal/host/NAME) declares its facts once and its
// adapter attaches them to every event it decodes ([Event.Facts]), so a
// handler reads them from the event instead of switching on the host's
// name. internal/host/all's tests fail when a host leaves a fact unset
// without saying it has no such thing.
type HostFacts struct {
	// Instructions are the project files, relative to the root, that the
	// host reads into its agent's context by itself, in the order it looks
	// for them.
	Instructions []string
	// AgentCall is how the lead agent starts the agent of a name (the
	// name the host knows it by: agents.HostName): a format whose %[1]s
	// is the name. Empty: the host cannot start named agents.
	AgentCall string
	// Compact is the command the user types to compact the agent's context.
	Compact string
	// TodoTool says how the agent keeps a todo with the host's own tool,
	// which atreides mirrors: "with your write_todos tool", said after
	// "add one" (delegation) and "mark them completed" (the stop gate), so
	// that no host's agent is told another host's tool. Empty when the
	// host's todo tool fires no hook (only atreides's own todos count).
	TodoTool string
	// DefaultAgent is the agent type the host's delegating tool starts
	// when its input names none, and AgentKey the input key that names it.
	DefaultAgent, AgentKey string
	// ResumeAgent is how the lead agent resumes a subagent that stopped,
	// from where it was: a format whose %[1]s is the subagent's id (the
	// hook's agent id). Empty: the host cannot resume one.
	ResumeAgent string
	// SubagentStopBlocks is set when blocking the host's subagent-stop
	// event keeps the subagent going with the reason as its next message,
	// so an invalid return object can be sent back to it once.
	SubagentStopBlocks bool
	// GenericChildren is set when the host names every delegated agent
	// the same (OpenCode's "task"): a subagent's start is matched to the
	// oldest spawn whatever its type.
	GenericChildren bool
	// Transcript is the format of the host's transcript, which atreides
	// reads for the context's size and a subagent's last words.
	Transcript Transcript
	// Provider is the model provider of the host's headless CLI, the
	// concurrency key of a background task keyed by provider.
	Provider string
	// ToolPrefix is what the host puts before the name of one of
	// atreides's own tools when it shows the tool to the model.
	ToolPrefix string
	// ReadsBeforeWrite is set when the host itself refuses to edit a file
	// its agent has not read in the session.
	ReadsBeforeWrite bool
	// RawMCPTools is set when the host reports a third-party MCP tool as
	// one name with the server's left in ("<server>_<tool>"), which stays
	// [Other] with the name in [Tool.Raw].
	RawMCPTools bool
	// PluginRunsTasks is set when atreides's plugin inside the host runs
	// background tasks, instead of a supervisor process.
	PluginRunsTasks bool
	// Rules is which of a project's nested rules files the host loads
	// itself.
	Rules RulesLoad
	// SkillDirs are the host's own skill folders, relative to the project
	// root.
	SkillDirs []string
	// Headless is how a background task runs the host's CLI as its agent
	// (nil: the host's tasks run in its plugin, or not at all).
	Headless *Headless
}

// Transcript is a transcript format atreides can read.
type Transcript int

// The transcript formats. A host with [NoTranscript] gives atreides no
// file to read (its adapter may report the context's size itself).
const (
	NoTranscript     Transcript = iota
	ClaudeTranscript            // JSONL of entries with message.usage; subagents' in files of their own
	CodexTranscript             // JSONL of token_count events
	GeminiTranscript            // the chat recording's entries with tokens
)

// RulesLoad is which AGENTS.md-style rules files a host loads itself, so
// atreides does not inject them a second time.
type RulesLoad struct {
	// Dirs are folders, relative to the root, whose rules files the host
	// loads itself (Claude Code's .claude/rules).
	Dirs []string
	// Nested: the host attaches the rules file of each directory above a
	// file its agent reads, unless the root has one of Instructions and
	// NestedUnlessInstructions is set.
	Nested, NestedUnlessInstructions bool
	// UpToCwd: the host reads the rules files from the root down to its
	// working directory at start, none below it.
	UpToCwd bool
}

// CallOf is how the host starts the agent of a name ("" when it cannot).
// The names atreides installs are none of the host's own, so none is a
// primary agent the lead agent could not delegate to.
func (f *HostFacts) CallOf(name string) string {
	if f == nil || f.AgentCall == "" {
		return ""
	}
	return fmt.Sprintf(f.AgentCall, name)
}

// ToolName is what the host calls one of atreides's own tools to its
// model.
func (f *HostFacts) ToolName(tool string) string {
	if f == nil {
		return tool
	}
	return f.ToolPrefix + tool
}
