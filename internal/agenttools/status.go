package agenttools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
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
	var (
		p          *state.Project
		sess       *state.Session
		id, how    string
		unreadable error
	)
	err := e.Store.View(ctx, func(tx *store.Tx) error {
		var err error
		if p, err = state.LoadProject(tx); err != nil {
			return err
		}
		id, how = e.session(p)
		// A damaged record of this session is moved aside by its next
		// event; until then the status shows the rest.
		sess, unreadable = state.FindSession(tx, id)
		return nil
	})
	if err != nil {
		return "", err
	}
	if id == "" {
		return "atreides has not seen a session of this project yet.", nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Session %s (%s).\n", id, how)
	if l := p.Governance.HeldBy(id); l != nil {
		fmt.Fprintf(&b, "Active intent: %s, held since %s, last active %s.\n", l.Intent, l.Since.UTC().Format(time.RFC3339), l.Renewed.UTC().Format(time.RFC3339))
		if f, err := e.intents(); err == nil {
			if in := f.Find(l.Intent); in != nil {
				b.WriteString(in.Summary() + "\n")
			}
		}
	} else {
		fmt.Fprintf(&b, "No active intent: call %s before writing.\n", e.toolName("select_active_intent"))
	}
	if unreadable != nil {
		fmt.Fprintf(&b, "This session's state record is unreadable (%v); it starts afresh with its next event.\n", unreadable)
	}
	if sess != nil {
		fmt.Fprintf(&b, "Phase: %s. Tool calls: %d (denied %d, failed %d).\n", orNone(sess.Phase.Current, "none"), sess.Counters.ToolCalls, sess.Counters.Denied, sess.Counters.Failed)
		for _, a := range sess.Delegation.Agents {
			fmt.Fprintf(&b, "Subagent %s (%s) depth %d: %s\n", a.ID, a.Type, a.Depth, orNone(a.Outcome, "running"))
		}
	}
	fmt.Fprintf(&b, "Open todos:\n%s", renderTodos(p, false))
	return b.String(), nil
}

func orNone(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
