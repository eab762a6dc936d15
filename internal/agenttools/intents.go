package agenttools

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/state"
)

// intentTools select an intent, list them, and ask for a wider scope.
func intentTools() []Tool {
	return []Tool{{
		Name:        "select_active_intent",
		Description: "Select the intent your work belongs to. Required before any write when governance is on; returns the intent's goal, owned scope, constraints and acceptance criteria. An intent is held by one session at a time.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"intent_id":{"type":"string","maxLength":4096,"description":"the id of the intent this work belongs to (see list_intents)"}` +
			`},"required":["intent_id"],"additionalProperties":false}`),
		Call: selectIntent,
	}, {
		Name:        "list_intents",
		Description: "List the project's intents with status, owned scope and current holder.",
		Schema:      json.RawMessage(noArgs),
		Call:        listIntents,
	}, {
		Name:        "request_scope_expansion",
		Description: "Ask a human to let an intent own more paths. Records the request; it does not grant it.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"intent_id":{"type":"string","maxLength":4096,"description":"the intent whose owned scope should grow"},` +
			`"paths":{"type":"array","maxItems":256,"items":{"type":"string","maxLength":4096},"description":"project-relative path globs the intent should also own"},` +
			`"reason":{"type":"string","maxLength":65536,"description":"why the change needs these paths"}` +
			`},"required":["intent_id","paths","reason"],"additionalProperties":false}`),
		Call: requestExpansion,
	}}
}

// noArgs is the schema of a tool that takes no arguments.
const noArgs = `{"type":"object","properties":{},"additionalProperties":false}`

func (e *Env) lease() time.Duration {
	c, _ := config.LoadOrBuiltin(config.DefaultPaths(e.Root))
	return governance.FromConfig(c).Lease
}

func (e *Env) intents() (*intent.File, error) {
	f, err := governance.ReadIntents(e.Root)
	if err != nil {
		return nil, fmt.Errorf("the intents file is invalid; ask the user to fix it:\n%w", err)
	}
	return f, nil
}

func selectIntent(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	var in struct {
		IntentID string `json:"intent_id"`
	}
	if err := parse(args, &in, "intent_id"); err != nil {
		return "", err
	}
	f, err := e.intents()
	if err != nil {
		return "", err
	}
	var (
		got     *intent.Intent
		session string
	)
	lease := e.lease()
	err = e.update(ctx, func(p *state.Project) error {
		session, _ = e.session(p)
		if session == "" {
			return errNoCaller
		}
		var err error
		got, err = governance.Select(p, f, session, "mcp", strings.TrimSpace(in.IntentID), e.Now().UTC(), lease)
		return err
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Intent %s is now active for session %s. Work only inside its owned scope.\n%s", got.ID, session, got.Summary()), nil
}

func listIntents(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	if err := parse(args, &struct{}{}); err != nil {
		return "", err
	}
	f, err := e.intents()
	if err != nil {
		return "", err
	}
	p, err := e.project(ctx)
	if err != nil {
		return "", err
	}
	if len(f.Intents) == 0 {
		return "No intents are defined. Ask the user to add one (atreides intent add).", nil
	}
	var b strings.Builder
	for _, in := range f.Intents {
		fmt.Fprintf(&b, "- %s [%s]: %s; owned scope: %s", in.ID, in.Status, in.Title, strings.Join(in.Scope, ", "))
		if l := govstate.Key.Read(p).Lock(in.ID); l != nil {
			fmt.Fprintf(&b, "; held by session %s%s since %s", l.Session, governance.From(p, l.Origin), l.Since.UTC().Format(time.RFC3339))
		}
		b.WriteString("\n")
	}
	return b.String(), nil
}

func requestExpansion(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	var in struct {
		IntentID string   `json:"intent_id"`
		Paths    []string `json:"paths"`
		Reason   string   `json:"reason"`
	}
	if err := parse(args, &in, "intent_id", "paths", "reason"); err != nil {
		return "", err
	}
	f, err := e.intents()
	if err != nil {
		return "", err
	}
	var r govstate.ScopeRequest
	err = e.update(ctx, func(p *state.Project) error {
		session, _ := e.session(p)
		var err error
		r, err = governance.RequestExpansion(p, f, session, in.IntentID, in.Paths, in.Reason, e.Now().UTC())
		return err
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Scope expansion request #%d recorded for intent %s (%s). The user decides (atreides intent approve %d, or deny %d) and you are told at your next event; until then writes there stay blocked. Continue with work inside the scope.", r.ID, r.Intent, strings.Join(r.Paths, ", "), r.ID, r.ID), nil
}
