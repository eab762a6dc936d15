package guard

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// disruptionRules are registerDisruption's rules, static data: loading the
// batch allocates none of them.
var disruptionRules = []*Rule{
	{ID: ruleSystemKillAll, Category: "system", Verdict: Deny, Names: []string{"kill"},
		When: whenSystemKillAll, Reason: "kill with pid -1 signals every process you can reach (the session, the editor, the desktop); name the process to stop"},
	{ID: ruleSystemKillAll, Category: "system", Verdict: Deny, Names: []string{"killall5"},
		Reason: "killall5 signals every process on the machine; name the process to stop"},
	{ID: ruleSystemKillAll, Category: "system", Verdict: Deny, Names: []string{"pkill", "pgrep", "killall", "skill", "slay"},
		When: killsEverything, Reason: "this matches every process of a user (or every process); name the process to stop"},
	{ID: ruleSystemSysrq, Category: "system", Verdict: Deny,
		Reason: "the magic SysRq trigger reboots, crashes or freezes the machine at once; ask the user"},
	{ID: ruleSystemSysctl, Category: "system", Verdict: Ask, Names: []string{"sysctl"},
		When: whenSystemSysctl, Reason: "this changes kernel parameters for the whole machine; ask the user"},
	// Fired by the effect derivers (effect_escape.go).
	{ID: ruleSystemServiceChange, Category: "system", Verdict: Ask,
		Reason: "this starts, restarts or reloads a system service, which the whole machine and its users depend on; ask the user (the user's own units, --user, need no approval)"},
	{ID: ruleSystemMount, Category: "system", Verdict: Ask,
		Reason: "this unmounts, mounts over or turns off swap for a directory or device outside the project, which everything running on the machine uses; ask the user"},
}

// System-wide disruption: killing every process, the kernel's magic SysRq
// key and kernel parameters. Power (shutdown, reboot, init 0) and the
// process_control switch (kill -9, killall, pkill, stopping services) are
// in rules_core.go.
func registerDisruption() {
	register(disruptionRules...)
	setValueOpts("pkill", "-u", "-U", "-G", "-g", "-P", "-s", "-t", "--euid", "--uid", "--group", "--pgroup", "--parent", "--session", "--terminal", "-F", "--pidfile", "--signal", "--ns", "--nslist")
	setValueOpts("pgrep", "-u", "-U", "-G", "-g", "-P", "-s", "-t", "--euid", "--uid", "--group", "--pgroup", "--parent", "--session", "--terminal", "-F", "--pidfile", "--ns", "--nslist", "-d", "--delimiter")
	setValueOpts("killall", "-u", "--user", "-s", "--signal", "-o", "--older-than", "-y", "--younger-than", "-n", "--ns", "-Z", "--context")
}

// killPIDs returns kill's operands after its signal option: `kill -9 -1`,
// `kill -s KILL -- -1`, `kill -KILL 42` (a leading -N is the signal).
func killPIDs(c *Cmd) []shell.Word {
	args := c.Args
	i := 0
	if i < len(args) && !args[i].Dyn {
		switch s := args[i].Text; {
		case oneOf(s, "-l|-L|--list|--table"):
			return nil
		case oneOf(s, "-s|-n|--signal"):
			i += 2
		case s == "--":
		case strings.HasPrefix(s, "-") && len(s) > 1:
			i++
		}
	}
	if i < len(args) && args[i].Text == "--" {
		i++
	}
	if i > len(args) {
		return nil
	}
	return args[i:]
}

// killSignal returns kill's signal ("" = TERM) in upper case without SIG.
func killSignal(c *Cmd) string {
	if len(c.Args) == 0 || c.Args[0].Dyn {
		return ""
	}
	s := c.Args[0].Text
	switch {
	case oneOf(s, "-s|-n|--signal"):
		if len(c.Args) > 1 {
			s = c.Args[1].Text
		} else {
			return ""
		}
	case strings.HasPrefix(s, "-") && s != "--":
		s = s[1:]
	default:
		return ""
	}
	s = strings.TrimPrefix(strings.ToUpper(s), "SIG")
	if s == "9" {
		return "KILL"
	}
	return s
}

// killsEverything: pkill/killall with no name but a user (every process of
// that user), or a pattern that matches every name.
func killsEverything(c *Cmd) bool {
	if c.Name == "pgrep" {
		return false
	}
	pos := c.Pos()
	switch c.Name {
	case "slay":
		return true // its operands are user names
	case "skill":
		return c.Has("-u", "--user")
	case "killall":
		if len(pos) == 0 {
			return c.Has("-u", "--user")
		}
		if c.Has("-r", "--regexp") {
			for _, w := range pos {
				if !w.Dyn && matchesAll(w.Text) {
					return true
				}
			}
		}
		return false
	}
	// pkill
	if len(pos) == 0 {
		return c.Has("-u", "-U", "--euid", "--uid", "-G", "-g", "--group", "--pgroup", "-s", "--session", "-t", "--terminal")
	}
	for _, w := range pos {
		if !w.Dyn && matchesAll(w.Text) {
			return true
		}
	}
	return false
}

// matchesAll: a regular expression that matches every process name.
func matchesAll(s string) bool {
	return oneOf(s, ".|.*|.+|^|$|^.*|^.*$|.*$|[^]|''|\"\"") || s == ""
}

// whenSystemKillAll is the condition of rule system.kill-all.
func whenSystemKillAll(c *Cmd) bool {
	for _, w := range killPIDs(c) {
		if w.Text == "-1" {
			return true
		}
	}
	return false
}

// whenSystemSysctl is the condition of rule system.sysctl.
func whenSystemSysctl(c *Cmd) bool {
	if c.Has("-w", "--write", "-p", "--load", "--system") {
		return true
	}
	for _, w := range c.Pos() {
		if strings.Contains(w.Text, "=") {
			return true
		}
	}
	return false
}
