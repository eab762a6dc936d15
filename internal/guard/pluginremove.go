package guard

import (
	"github.com/atreides-dev/atreides/internal/shell"

	"slices"
	"strings"
)

// An agent host's own command for removing a plugin or an extension,
// aimed at atreides's, switches atreides off as surely as editing the
// host's settings: `claude plugin uninstall atreides@atreides`, `gemini
// extensions disable atreides`. The hosts describe theirs in their
// AgentCLI (Removes); self.plugin-remove denies them. Removing another
// plugin, listing and installing stay allowed; updating atreides's
// (self.plugin-update) asks.

// PluginName is the name of atreides's plugin and extension (and of the
// Claude Code marketplace that lists it); internal/hostpack writes it.
const PluginName = "atreides"

// PluginRemoval is one subcommand that removes, disables or updates
// plugins.
type PluginRemoval struct {
	// Words are the subcommand's words after the program, each a list of
	// aliases: {"plugin|plugins", "uninstall|remove|disable"}.
	Words []string
	// All are its flags that take every plugin, atreides's with it
	// (`claude plugin disable --all`).
	All []string
	// Update marks a subcommand that reinstalls the plugin from its
	// source (`claude plugin update`), which the agent may have been able
	// to write: self.plugin-update asks instead of denying.
	Update bool
}

// removesPlugin fires self.plugin-remove (self.plugin-update for an
// Update) when c is one of cli's removals naming atreides's plugin
// (PluginName, or PluginName@<marketplace>), a name the guard cannot
// read, a path or URL (Gemini CLI also matches an extension by the source
// it was installed from), or every plugin.
func removesPlugin(a *analyzer, c *Cmd, cli *AgentCLI) bool {
	pos := c.Pos()
	for _, r := range cli.Removes {
		if len(pos) < len(r.Words) || !wordsMatch(pos, r.Words) {
			continue
		}
		rule := ruleSelfPluginRemove
		if r.Update {
			rule = ruleSelfPluginUpdate
		}
		sub := c.Name + " " + strings.Join(wordsText(pos[:len(r.Words)]), " ") + " "
		for _, f := range r.All {
			if c.Has(f) {
				a.fire(rule, c, sub+f)
				return true
			}
		}
		for _, w := range pos[len(r.Words):] {
			if w.Dyn || maybePlugin(w.Text) {
				a.fire(rule, c, sub+w.Display())
				return true
			}
		}
	}
	return false
}

// maybePlugin: a removal's argument that may name atreides's plugin: its
// name (any case, with or without @<marketplace>), or a path or URL,
// which the guard cannot tie to an installed plugin.
func maybePlugin(arg string) bool {
	name, _, _ := strings.Cut(strings.ToLower(arg), "@")
	return name == PluginName || strings.ContainsAny(arg, "/\\:")
}

// wordsMatch: the leading words of pos are literally the subcommand's.
func wordsMatch(pos []shell.Word, words []string) bool {
	for i, alts := range words {
		if pos[i].Dyn || !slices.Contains(strings.Split(alts, "|"), strings.ToLower(pos[i].Text)) {
			return false
		}
	}
	return true
}

func wordsText(ws []shell.Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Display()
	}
	return out
}
