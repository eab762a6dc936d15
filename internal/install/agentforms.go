package install

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/agents"
)

// The agent file forms of the hosts whose agents are files. Tool lists
// spell the roster's permissions (agents.Tools) in each host's tool names;
// full lists none, which each of these hosts reads as every tool.

// ClaudeAgentForm is Claude Code's .claude/agents/<id>.md (2.1.330):
// front matter name, description, tools, model; the body is the system
// prompt. The lead agent gets no file: on Claude Code it is the session's
// own identity, which atreides injects at session start.
var ClaudeAgentForm = AgentForm{
	Host: "claude", Ext: ".md",
	Installs: func(a agents.Agent) bool { return a.Mode == agents.Subagent },
	Render: func(a agents.Agent, prompt string) string {
		return FrontMatter(prompt,
			"name", a.ID, "description", a.Description,
			"tools", strings.Join(claudeTools(a.Tools), ", "), "model", a.ModelFor("claude"))
	},
}

func claudeTools(t agents.Tools) []string {
	read := []string{"Read", "Grep", "Glob"}
	switch t {
	case agents.ReadWeb:
		return append(read, "WebFetch", "WebSearch")
	case agents.PlansOnly:
		return append(read, "Write", "Edit")
	case agents.Full:
		return nil
	}
	return read
}

// GeminiAgentForm is Gemini CLI's .gemini/agents/<id>.md (0.61.0): its
// front matter is checked strictly (kind, name, description,
// display_name, tools, model, temperature, max_turns, timeout_mins,
// mcp_servers; anything else fails the file), the body is the system
// prompt, and the lead agent, being the session itself, gets no file.
var GeminiAgentForm = AgentForm{
	Host: "gemini", Ext: ".md",
	Installs: func(a agents.Agent) bool { return a.Mode == agents.Subagent },
	Render: func(a agents.Agent, prompt string) string {
		var tools []string
		read := []string{"read_file", "read_many_files", "glob", "grep_search", "list_directory"}
		switch a.Tools {
		case agents.ReadOnly:
			tools = read
		case agents.ReadWeb:
			tools = append(read, "web_fetch", "google_web_search")
		case agents.PlansOnly:
			tools = append(read, "write_file", "replace")
		}
		return FrontMatterList(prompt, tools,
			"name", a.ID, "display_name", a.Name, "description", a.Description, "model", a.ModelFor("gemini"))
	},
}

// CodexAgentForm is a Codex agent role file, agents/<id>.toml (0.169.0):
// name, description and developer_instructions are required; the file is
// a config layer of its own, so a read-only agent gets Codex's read-only
// sandbox, which is how Codex limits what a thread may write.
var CodexAgentForm = AgentForm{
	Host: "codex", Ext: ".toml",
	Installs: func(a agents.Agent) bool { return a.Mode == agents.Subagent },
	Render: func(a agents.Agent, prompt string) string {
		var b strings.Builder
		kv := func(k, v string) {
			if v != "" {
				b.WriteString(k + " = " + TOMLString(v) + "\n")
			}
		}
		kv("name", a.ID)
		kv("description", a.Description)
		kv("model", a.ModelFor("codex"))
		if !a.Tools.Writes() {
			kv("sandbox_mode", "read-only")
		}
		kv("developer_instructions", prompt)
		return b.String()
	},
}
