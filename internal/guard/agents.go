package guard

import (
	"encoding/json"
	"path"
	"strings"
)

// Starting a second agent host with its guard or its permission prompts
// off runs an agent atreides does not see: the same as switching the guard
// off (self.unguarded-agent). Starting one normally is allowed; it loads
// its hooks, and atreides with them. See docs/guard-policy.md, "The guard
// protects itself".

// agentHost maps a program name (a package runner's name for it too:
// npx @anthropic-ai/claude-code is claude-code) to the host it starts.
func agentHost(name string) string {
	name, _, _ = strings.Cut(name, "@") // claude-code@latest
	switch name {
	case "claude", "claude-code":
		return "claude"
	case "codex":
		return "codex"
	case "gemini", "gemini-cli":
		return "gemini"
	case "qwen", "qwen-code":
		return "qwen"
	case "copilot":
		return "copilot"
	case "opencode", "opencode-ai":
		return "opencode"
	case "cursor-agent":
		return "cursor-agent"
	case "amp":
		return "amp"
	}
	return ""
}

// unguardedAgent judges a command that starts an agent host.
func (a *analyzer) unguardedAgent(c *Cmd) {
	host := agentHost(c.Name)
	if host == "" || versionQuery(c) {
		return
	}
	deny := func(what string) {
		a.fire(ruleSelfUnguardedAgent, c, c.Name+" "+what)
	}
	args := c.Args
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.dyn {
			continue
		}
		name, val, eq := strings.Cut(w.s, "=")
		next := func() (word, bool) {
			if eq {
				return lit(val), true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return word{}, false
		}
		switch host {
		case "claude":
			switch name {
			case "--dangerously-skip-permissions", "--allow-dangerously-skip-permissions", "--bare":
				deny(name)
				return
			case "--permission-mode":
				if v, ok := next(); ok && (v.dyn || v.s == "bypassPermissions") {
					deny("--permission-mode " + v.display())
					return
				}
			case "--settings":
				if v, ok := next(); ok {
					a.claudeSettings(c, v)
				}
			case "--setting-sources":
				if v, ok := next(); ok {
					a.fire(ruleSelfAgentSettings, c, c.Name+" --setting-sources "+v.display()+" chooses which settings (and their hooks) load")
				}
			}
		case "codex":
			switch {
			case name == "--dangerously-bypass-approvals-and-sandbox" || name == "--yolo":
				deny(name)
				return
			case name == "-c" || name == "--config":
				if v, ok := next(); ok && (v.dyn || strings.Contains(strings.ToLower(v.s), "hook")) {
					deny(name + " " + v.display())
					return
				}
			}
		case "gemini", "qwen":
			switch name {
			case "--yolo", "-y":
				deny(name)
				return
			case "--approval-mode":
				if v, ok := next(); ok && (v.dyn || v.s == "yolo") {
					deny("--approval-mode " + v.display())
					return
				}
			}
			if len(name) > 2 && name[0] == '-' && name[1] != '-' && strings.ContainsRune(name, 'y') && shortFlags(name) {
				deny(name) // -py: bundled short flags
				return
			}
		case "copilot":
			switch name {
			case "--allow-all-tools", "--allow-all", "--yolo":
				deny(name)
				return
			}
		case "cursor-agent":
			switch name {
			case "--force", "-f":
				deny(name)
				return
			}
		case "amp":
			if name == "--dangerously-allow-all" {
				deny(name)
				return
			}
		case "opencode":
			if i == 0 && w.s == "run" && !a.openCodeGuarded() {
				deny("run starts OpenCode without atreides's plugin, which is not installed for this project or user")
				return
			}
		}
	}
}

// shortFlags: s is a cluster of short option letters (-py).
func shortFlags(s string) bool {
	for _, r := range s[1:] {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	return true
}

// claudeSettings judges `claude --settings X`: JSON that turns hooks or
// permission prompts off is denied; a file, which the guard does not
// read, and JSON it cannot parse are asked.
func (a *analyzer) claudeSettings(c *Cmd, v word) {
	s := strings.TrimSpace(v.s)
	if v.dyn || !strings.HasPrefix(s, "{") {
		a.fire(ruleSelfAgentSettings, c, c.Name+" --settings "+v.display()+" loads settings the guard cannot read")
		return
	}
	var set struct {
		DisableAllHooks *bool           `json:"disableAllHooks"`
		Hooks           json.RawMessage `json:"hooks"`
		Permissions     struct {
			DefaultMode string `json:"defaultMode"`
		} `json:"permissions"`
	}
	switch err := json.Unmarshal([]byte(s), &set); {
	case err != nil:
		a.fire(ruleSelfAgentSettings, c, c.Name+" --settings holds text the guard cannot read as settings")
	case set.DisableAllHooks != nil && *set.DisableAllHooks || set.Permissions.DefaultMode == "bypassPermissions":
		a.fire(ruleSelfUnguardedAgent, c, c.Name+" --settings turns hooks or permission prompts off")
	case len(set.Hooks) > 0:
		a.fire(ruleSelfAgentSettings, c, c.Name+" --settings changes the hooks")
	}
}

// openCodeGuarded: atreides's OpenCode plugin is installed where OpenCode
// loads it for this project (a plugin directory among the host settings
// holds atreides.ts). Without a resolver nothing can be checked.
func (a *analyzer) openCodeGuarded() bool {
	if a.req.Resolve == nil {
		return false
	}
	for _, h := range a.req.HostSettings {
		if strings.HasSuffix(h, "/") && path.IsAbs(h) {
			if _, err := a.req.Resolve(path.Join(h, openCodePluginFile)); err == nil {
				return true
			}
		}
	}
	return false
}

// openCodePluginFile is install.OpenCodePluginFile (the guard imports
// nothing of atreides's).
const openCodePluginFile = "atreides.ts"
