package opencode

import (
	"encoding/json"

	"github.com/atreides-dev/atreides/internal/agents"
)

// MethodConfig is the plugin's config hook: OpenCode hands every plugin
// its configuration at start, and the plugin adds the roster's agents to
// cfg.agent from the answer's Agents. Nothing is written to disk: the
// agents exist while the plugin is installed, and go with it.
const MethodConfig = "config"

// Agent is one agent as OpenCode 1.18.33's configuration takes it
// (cfg.agent[id]).
type Agent struct {
	Description string `json:"description"`
	Mode        string `json:"mode"`
	Prompt      string `json:"prompt"`
	Model       string `json:"model,omitempty"`
	// Permission limits the agent's tools: edit covers write, edit and
	// patch; a pattern map allows only the paths it names.
	Permission map[string]any `json:"permission,omitempty"`
}

// AgentConfig is a roster agent in OpenCode's form, with prompt (its
// skills appended) as its system prompt.
func AgentConfig(a agents.Agent, prompt string) Agent { return OpenCode().AgentConfig(a, prompt) }

// AgentConfig is [AgentConfig] for the flavor's host: the model is the
// one the roster names for it.
func (f Flavor) AgentConfig(a agents.Agent, prompt string) Agent {
	c := Agent{Description: a.Description, Mode: string(a.Mode), Prompt: prompt, Model: a.ModelFor(f.or().Name)}
	switch a.Tools {
	case agents.ReadOnly:
		c.Permission = map[string]any{"edit": "deny", "bash": "deny", "webfetch": "deny"}
	case agents.ReadWeb:
		c.Permission = map[string]any{"edit": "deny", "bash": "deny"}
	case agents.PlansOnly:
		edit, bash := map[string]string{"*": "deny"}, map[string]string{"*": "deny"}
		for _, g := range agents.PlanFiles {
			edit[g] = "allow"
		}
		for _, g := range agents.PlanCommands {
			bash[g] = "allow"
		}
		c.Permission = map[string]any{"edit": edit, "bash": bash}
	}
	return c
}

// configParams are the config method's params.
type configParams struct {
	Directory string `json:"directory"`
}

// config answers the config method through m.Agents.
func (m *Mapper) config(params json.RawMessage) Result {
	var p configParams
	if err := json.Unmarshal(params, &p); err != nil || m.Agents == nil {
		return Result{}
	}
	return Result{Agents: m.Agents(p.Directory)}
}
