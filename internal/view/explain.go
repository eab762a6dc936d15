package view

import (
	"strings"
)

// Explain is the guard's explanation of a call, as `atreides check
// --explain` gives it, judged again with the project's configuration of
// now, and the configuration that would change the verdict.
type Explain struct {
	// Verdict is what the guard says now: allow, ask or deny.
	Verdict string `json:"verdict"`
	// Rule is the rule that decided; "" for an allow no rule made.
	Rule string `json:"rule"`
	// Category is the rule's group.
	Category string `json:"category,omitempty"`
	// Reason is what the agent is told.
	Reason string `json:"reason,omitempty"`
	// Effect is what the command does that the rule judged.
	Effect string `json:"effect,omitempty"`
	// Evidence is the words that show it.
	Evidence string `json:"evidence,omitempty"`
	// Commands are the commands the guard saw in the command line.
	Commands []string `json:"commands"`
	// Config is YAML for .atreides/config.yaml that would change the
	// verdict; ConfigWhy says what it does.
	Config    string `json:"config"`
	ConfigWhy string `json:"config_why"`
}

// ConfigChange is the configuration that would change a verdict of rule
// on a call of tool with target: a denial asked instead, an ask allowed,
// and for a call no rule stopped, a user rule that asks first. It names
// the one key (guard.verdicts or rules) that does it, never a weaker
// policy than the one step asked for.
func ConfigChange(verdict, rule, tool, target string) (yaml, why string) {
	switch {
	case rule != "" && verdict == "deny":
		return "guard:\n  verdicts:\n    " + rule + ": ask\n", "ask instead of deny for " + rule + " (guard.disable: [" + rule + "] would switch it off)"
	case rule != "" && verdict == "ask":
		return "guard:\n  verdicts:\n    " + rule + ": allow\n", "allow what " + rule + " asks about"
	}
	key, val := "path", target
	if tool == "shell" || tool == "" {
		key, val = "command", commandPrefix(target)
	}
	if val == "" {
		return "", ""
	}
	return "rules:\n  - verdict: ask\n    tool: " + orStar(tool) + "\n    " + key + ": " + quoteYAML(val) + "\n", "ask before such calls (user rules are checked before the built-in ones)"
}

// commandPrefix is a command's first two words, the prefix a user rule
// matches word by word.
func commandPrefix(cmd string) string {
	w := strings.Fields(cmd)
	return strings.Join(w[:min(2, len(w))], " ")
}

func orStar(tool string) string {
	if tool == "" {
		return "shell"
	}
	return tool
}

// quoteYAML is s as a double-quoted YAML scalar.
func quoteYAML(s string) string {
	return `"` + strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(s) + `"`
}
