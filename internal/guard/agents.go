package guard

import (
	"encoding/json"
	"path"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Starting a second agent host with its guard or its permission prompts
// off runs an agent atreides does not see: the same as switching the guard
// off (self.unguarded-agent). Starting one normally is allowed; it loads
// its hooks, and atreides with them. See docs/guard-policy.md, "The guard
// protects itself".

// AgentCLI is an agent host's command-line program as the guard judges
// it: its names, and the ways of starting it that leave atreides out. Each
// host's registry entry describes its own, the programs of hosts atreides
// has no adapter for are listed beside them (internal/host/all), and the
// wiring site hands the table to the guard in [Request.Agents].
type AgentCLI struct {
	// Display names the program in messages: "OpenCode".
	Display string
	// Names are its program names, a package runner's name for it too
	// (npx @anthropic-ai/claude-code is claude-code).
	Names []string
	// Off are the flags that start it with its guard or its permission
	// prompts off.
	Off []string
	// OffValue are flags whose value does when it is the one given (a
	// value the guard cannot read counts as that one): --approval-mode yolo.
	OffValue []FlagValue
	// OffContains are flags whose value does when it holds the given text,
	// in any case: codex -c 'hooks=…'.
	OffContains []FlagValue
	// OffShort is a short flag that does, also bundled with others (-py).
	OffShort rune
	// OffEnv are environment variables that do, set on the command or
	// before it (COPILOT_ALLOW_ALL=true copilot, env COPILOT_HOME=/tmp/x
	// copilot, export COPILOT_ALLOW_ALL=1; copilot); the environment the
	// guard itself runs in is not read:
	// set to anything but an empty or false value ("0", "false", "no",
	// "off", "n"); a value the guard cannot read counts as set.
	OffEnv []string
	// Settings is the flag that loads settings in Claude Code's form
	// (JSON that can switch hooks and permission prompts off), and
	// SettingSources the flag that chooses which settings files load.
	Settings, SettingSources string
	// PluginRun is the subcommand that starts it with atreides only when
	// atreides's plugin, the file PluginFile, is in one of its plugin
	// directories among the host settings ([Request.HostSettings]).
	PluginRun, PluginFile string
	// Removes are the subcommands that uninstall or disable atreides's
	// plugin or extension (self.plugin-remove, pluginremove.go).
	Removes []PluginRemoval
}

// FlagValue is a flag and a value of it (slices, not maps: the hosts'
// tables are laid out by the linker, with no work at start-up).
type FlagValue struct{ Flag, Value string }

// valueOf is the value given for flag, and whether flag is listed.
func valueOf(list []FlagValue, flag string) (string, bool) {
	for _, f := range list {
		if f.Flag == flag {
			return f.Value, true
		}
	}
	return "", false
}

// AgentCLIs are the agent programs the guard knows.
type AgentCLIs []AgentCLI

// Of is the program a name starts (a package runner's version suffix
// cut: claude-code@latest), nil when it is no agent host's.
func (t AgentCLIs) Of(name string) *AgentCLI {
	name, _, _ = strings.Cut(name, "@")
	for i := range t {
		if slices.Contains(t[i].Names, name) {
			return &t[i]
		}
	}
	return nil
}

// unguardedAgent judges a command that starts an agent host.
func (a *analyzer) unguardedAgent(c *Cmd) {
	cli := a.req.Agents.Of(c.Name)
	if cli == nil || c.VersionQuery() {
		return
	}
	deny := func(what string) {
		a.fire(ruleSelfUnguardedAgent, c, c.Name+" "+what)
	}
	if removesPlugin(a, c, cli) {
		return
	}
	for _, name := range cli.OffEnv {
		v, ok := c.env[name]
		if !ok && c.Scope != nil {
			// Set earlier in the script (export X=...; agent): a variable
			// the script set unexported counts too, which costs little.
			v, ok = c.Scope.Vars[name]
		}
		if ok && (v.Dyn || !falsy(v.Text)) {
			deny("with " + name + "=" + v.Display())
			return
		}
	}
	args := c.Args
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.Dyn {
			continue
		}
		name, val, eq := strings.Cut(w.Text, "=")
		next := func() (shell.Word, bool) {
			if eq {
				return shell.Lit(val), true
			}
			if i+1 < len(args) {
				i++
				return args[i], true
			}
			return shell.Word{}, false
		}
		if slices.Contains(cli.Off, name) {
			deny(name)
			return
		}
		if want, ok := valueOf(cli.OffValue, name); ok {
			if v, ok := next(); ok && (v.Dyn || v.Text == want) {
				deny(name + " " + v.Display())
				return
			}
		}
		if want, ok := valueOf(cli.OffContains, name); ok {
			if v, ok := next(); ok && (v.Dyn || strings.Contains(strings.ToLower(v.Text), want)) {
				deny(name + " " + v.Display())
				return
			}
		}
		if name == cli.Settings && name != "" {
			if v, ok := next(); ok {
				a.claudeSettings(c, v)
			}
		}
		if name == cli.SettingSources && name != "" {
			if v, ok := next(); ok {
				a.fire(ruleSelfAgentSettings, c, c.Name+" "+name+" "+v.Display()+" chooses which settings (and their hooks) load")
			}
		}
		if cli.OffShort != 0 && len(name) > 2 && name[0] == '-' && name[1] != '-' && strings.ContainsRune(name, cli.OffShort) && shortFlags(name) {
			deny(name) // -py: bundled short flags
			return
		}
		if cli.PluginRun != "" && i == 0 && w.Text == cli.PluginRun && !a.pluginGuarded(cli.PluginFile) {
			deny(cli.PluginRun + " starts " + cli.Display + " without atreides's plugin, which is not installed for this project or user")
			return
		}
	}
}

// falsy: an environment value that switches a flag off.
func falsy(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "", "0", "false", "no", "off", "n":
		return true
	}
	return false
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
func (a *analyzer) claudeSettings(c *Cmd, v shell.Word) {
	s := strings.TrimSpace(v.Text)
	if v.Dyn || !strings.HasPrefix(s, "{") {
		a.fire(ruleSelfAgentSettings, c, c.Name+" --settings "+v.Display()+" loads settings the guard cannot read")
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

// pluginGuarded: atreides's plugin is installed where its host loads it
// for this project (a plugin directory among the host settings holds
// file). Without a resolver nothing can be checked.
func (a *analyzer) pluginGuarded(file string) bool {
	if a.req.Resolve == nil {
		return false
	}
	settings, _ := a.req.hostFiles()
	for _, h := range settings {
		if strings.HasSuffix(h, "/") && path.IsAbs(h) {
			if _, err := a.req.Resolve(path.Join(h, file)); err == nil {
				return true
			}
		}
	}
	return false
}
