package agenttools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/view"
)

// statusTools report the calling session.
func statusTools() []Tool {
	return []Tool{{
		Name:        "session_status",
		Description: "Show this session's active intent, its scope and lease, subagents, and open todos.",
		Schema:      json.RawMessage(noArgs),
		Call:        sessionStatus,
	}}
}

func sessionStatus(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	if err := parse(args, &struct{}{}); err != nil {
		return "", err
	}
	v, err := view.ReadSessionStatus(ctx, e.Store, e.session)
	if err != nil {
		return "", err
	}
	if v.ID == "" {
		return "atreides has not seen a session of this project yet.", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Session %s (%s).\n", v.ID, v.How)
	if l := v.Lease; l != nil {
		fmt.Fprintf(&b, "Active intent: %s, held since %s, last active %s.\n", l.Intent, l.Since.UTC().Format(time.RFC3339), l.Renewed.UTC().Format(time.RFC3339))
		if f, err := e.intents(); err == nil {
			if in := f.Find(l.Intent); in != nil {
				b.WriteString(in.Summary() + "\n")
			}
		}
	} else {
		fmt.Fprintf(&b, "No active intent: call %s before writing.\n", e.toolName("select_active_intent"))
	}
	if v.Unreadable != "" {
		fmt.Fprintf(&b, "This session's state record is unreadable (%s); it starts afresh with its next event.\n", v.Unreadable)
	}
	if s := v.Session; s != nil {
		fmt.Fprintf(&b, "Phase: %s. Tool calls: %d (denied %d, failed %d).\n", orNone(s.Phase, "none"), s.Counters.ToolCalls, s.Counters.Denied, s.Counters.Failed)
		for _, a := range s.Delegations {
			fmt.Fprintf(&b, "Subagent %s (%s) depth %d: %s\n", a.ID, a.Type, a.Depth, orNone(a.Outcome, "running"))
		}
	}
	fmt.Fprintf(&b, "Open todos:\n%s", renderTodos(v.Todos, false, v.ID))
	return b.String(), nil
}

func orNone(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
