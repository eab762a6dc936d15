package tasks

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// ToolCheck is one MCP server a language's agents work with, as the
// host has it.
type ToolCheck struct {
	MCP       string `json:"mcp"`
	Available bool   `json:"available"`
	// Fallback is what the agent does without it; "" when available.
	Fallback string `json:"fallback,omitempty"`
}

// toolFallback is what an agent does when its language's MCP server is
// missing: the work goes on without it (the design's example: a language
// server's diagnostics replaced by the language's own tools in the shell).
const toolFallback = "the agent works without it: it reads and edits the files directly and runs the language's own build and check commands in the shell"

// ToolsOf are the MCP servers the language's route declares; the
// default route's for a language without a route of its own.
func (o RouteOptions) ToolsOf(lang string) []string {
	if r, ok := o.Languages[lang]; ok {
		return r.MCP
	}
	return o.Default.MCP
}

// CheckTools checks the MCP servers the language declares against the
// names the host has configured (servers).
func CheckTools(declared, servers []string) []ToolCheck {
	var out []ToolCheck
	for _, name := range declared {
		c := ToolCheck{MCP: name, Available: slices.Contains(servers, name)}
		if !c.Available {
			c.Fallback = toolFallback
		}
		out = append(out, c)
	}
	return out
}

// LogMissingTools records each missing server of checks in the error
// log (errors.json), once: an entry of the same cause that is open, or
// whose fix is planned, is left as it is, so that routing the language
// again does not count it again; after a fix, a server still missing
// recurs once. It returns the entries added or recurred.
func LogMissingTools(b *taskboard.Tasks, lang, host, agent string, checks []ToolCheck, now time.Time) []int {
	var out []int
	for _, c := range checks {
		if c.Available {
			continue
		}
		cause := fmt.Sprintf("%s tasks: MCP server %q is not configured in %s", orAny(lang), c.MCP, host)
		if loggedOpen(b, cause) {
			continue
		}
		e := Record(b, ErrorEvent{Type: "tool_failure", Severity: "low", Cause: cause,
			Message: cause + "; " + c.Fallback, Agent: agent}, taskboard.TaskErrorContext{Command: "atreides task route"}, now)
		out = append(out, e.Number)
	}
	return out
}

// loggedOpen reports whether the log has cause as a tool failure not
// (yet) fixed.
func loggedOpen(b *taskboard.Tasks, cause string) bool {
	cause = NormalizeCause(cause)
	for i := range b.Errors {
		if e := &b.Errors[i]; e.Type == "tool_failure" && e.Cause == cause && e.Fix != FixFixed {
			return true
		}
	}
	return false
}

func orAny(lang string) string {
	if lang == "" {
		return "untyped"
	}
	return lang
}

// ToolsNote checks the MCP servers the pick's language declares against
// those the host has configured (servers: the host registry's answer,
// known false when atreides does not read the host's configuration),
// logs a missing one once to the error log of the project at root, and
// returns one line for the agent naming what is missing and the
// fallback; "" when nothing is declared, missing or checkable. A failure
// to read a configuration file or to log is said in the line, never an
// error: the delegation goes on without the tool; after a failed read
// nothing is logged (the file may declare what seems missing).
func ToolsNote(ctx context.Context, root, host string, p Pick, servers func() ([]string, bool, error)) string {
	if len(p.MCP) == 0 || host == "" {
		return ""
	}
	names, known, err := servers()
	if !known {
		return ""
	}
	checks := CheckTools(p.MCP, names)
	var missing []string
	for _, c := range checks {
		if !c.Available {
			missing = append(missing, c.MCP)
		}
	}
	if len(missing) == 0 {
		return ""
	}
	if err != nil {
		// A file that could not be read may declare them: nothing is
		// known missing, so nothing is logged.
		return fmt.Sprintf("MCP server %s of %s tasks: not checked, %s's configuration could not be read (%v); without it, %s.\n",
			strings.Join(missing, ", "), orAny(p.Language), host, err, toolFallback)
	}
	note := fmt.Sprintf("MCP server %s of %s tasks is not configured in %s: %s.", strings.Join(missing, ", "), orAny(p.Language), host, toolFallback)
	c, _ := config.LoadOrBuiltin(config.DefaultPaths(root))
	logErr := Open(root, FromConfig(c)).Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		LogMissingTools(b, p.Language, host, p.Agent, checks, now)
		return nil
	})
	if logErr != nil {
		note += fmt.Sprintf(" (Not logged to the error log: %v.)", logErr)
	}
	return note + "\n"
}
