package cli

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/intent"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
)

// governanceHandler is the governance handler with its options read from
// the configuration on first use.
func governanceHandler(s *settings) engine.Handler {
	opts := sync.OnceValue(func() governance.Options {
		if s.builtin() {
			return governance.Options{} // governance is off by default
		}
		c, err := s.cfg.Get()
		if err != nil {
			o := governance.DefaultOptions()
			o.ConfigErr = err
			return o
		}
		return governanceOptions(&c.Governance)
	})
	return governance.Handler(opts, governance.LoadIntents())
}

func governanceOptions(c *config.Governance) governance.Options {
	o := governance.Options{
		Enabled: c.Enabled, Lease: time.Duration(c.LeaseMinutes) * time.Minute,
		Trace: c.Trace, MaxDepth: c.Delegation.MaxDepth,
		StructuredReturn: c.Delegation.StructuredReturn,
		Timeouts:         map[string]time.Duration{},
		Version:          Version(),
		KeyDir:           policy.ConfigDir(),
	}
	switch c.UnknownWrites {
	case config.Allow:
		o.UnknownWrites = event.Allow
	case config.Deny:
		o.UnknownWrites = event.Deny
	default:
		o.UnknownWrites = event.Ask
	}
	for _, g := range c.Exempt {
		o.Exempt = append(o.Exempt, string(g))
	}
	for t, m := range c.Delegation.TimeoutMinutes {
		o.Timeouts[t] = time.Duration(m) * time.Minute
	}
	return o
}

const intentUsage = `intent <list|show|add|close|select|release|requests> [args]

Manage the project's intents (.atreides/intents.yaml): units of work an
agent must select before it writes, each owning a set of path globs.

  atreides intent list [--json]          intents, their status and holder
  atreides intent show ID                goal, scope, constraints, acceptance
  atreides intent add --id ID --title T --scope GLOB [--scope GLOB...]
        [--goal G] [--constraint C...] [--accept A...] [--owner O]
  atreides intent close ID [--cancel]    mark done (or cancelled)
  atreides intent select ID --session S  hold an intent for a session
  atreides intent release --session S    drop the session's intent
  atreides intent requests               scope expansions agents asked for`

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(s string) error { *m = append(*m, s); return nil }

func runIntent(io *IO, args []string) error {
	if len(args) == 0 {
		return usagef("missing subcommand (list, show, add, close, select, release, requests)")
	}
	sub, rest := args[0], args[1:]
	switch sub {
	case "list":
		return intentList(io, rest)
	case "show":
		return intentShow(io, rest)
	case "add":
		return intentAdd(io, rest)
	case "close":
		return intentClose(io, rest)
	case "select":
		return intentSelect(io, rest)
	case "release":
		return intentRelease(io, rest)
	case "requests":
		return intentRequests(io, rest)
	case "-h", "--help", "help":
		fmt.Fprintf(io.Err, "Usage: %s\n", intentUsage)
		return nil
	}
	return usagef("unknown subcommand %q (list, show, add, close, select, release, requests)", sub)
}

func loadIntents(io *IO) (string, *intent.File, error) {
	root, err := cwdRoot(io)
	if err != nil {
		return "", nil, err
	}
	f, err := intent.Load(governance.IntentsPath(root))
	if err != nil && !intent.NotExist(err) {
		return root, f, err
	}
	return root, f, nil
}

func intentList(io *IO, args []string) error {
	fs := newFlags(intentUsage, io)
	asJSON := fs.Bool("json", false, "print JSON")
	if err := parse(fs, args); err != nil {
		return err
	}
	_, f, err := loadIntents(io)
	if err != nil {
		return err
	}
	p, _ := readProject(io)
	type row struct {
		intent.Intent
		Holder string    `json:"holder,omitempty"`
		Since  time.Time `json:"since,omitzero"`
	}
	var rows []row
	for _, in := range f.Intents {
		r := row{Intent: in}
		if p != nil {
			if l := p.Governance.Lock(in.ID); l != nil {
				r.Holder, r.Since = l.Session, l.Since
			}
		}
		rows = append(rows, r)
	}
	if *asJSON {
		if rows == nil {
			rows = []row{}
		}
		enc := json.NewEncoder(io.Out)
		enc.SetIndent("", "  ")
		return enc.Encode(rows)
	}
	if len(rows) == 0 {
		fmt.Fprintln(io.Out, "no intents (add one with 'atreides intent add')")
		return nil
	}
	for _, r := range rows {
		held := ""
		if r.Holder != "" {
			held = fmt.Sprintf("  [held by %s since %s]", r.Holder, r.Since.UTC().Format(time.RFC3339))
		}
		fmt.Fprintf(io.Out, "%-20s %-9s %s  (%s)%s\n", r.ID, r.Status, r.Title, strings.Join(r.Scope, ", "), held)
	}
	return nil
}

func readProject(io *IO) (*state.Project, error) {
	root, err := cwdRoot(io)
	if err != nil {
		return nil, err
	}
	return loadProject(store.Open(project.StateDir(root)))
}

func intentShow(io *IO, args []string) error {
	if len(args) != 1 {
		return usagef("intent show needs one intent id")
	}
	_, f, err := loadIntents(io)
	if err != nil {
		return err
	}
	in := f.Find(args[0])
	if in == nil {
		return fmt.Errorf("no intent %q", args[0])
	}
	fmt.Fprintf(io.Out, "%s\nStatus: %s\n", in.Summary(), in.Status)
	if p, _ := readProject(io); p != nil {
		if l := p.Governance.Lock(in.ID); l != nil {
			fmt.Fprintf(io.Out, "Held by session %s since %s (last active %s)\n", l.Session, l.Since.UTC().Format(time.RFC3339), l.Renewed.UTC().Format(time.RFC3339))
		}
		for _, r := range p.Governance.Expansions {
			if r.Intent == in.ID {
				fmt.Fprintf(io.Out, "Scope request #%d (%s): %s — %s\n", r.ID, r.Status, strings.Join(r.Paths, ", "), r.Reason)
			}
		}
	}
	return nil
}

func intentAdd(io *IO, args []string) error {
	fs := newFlags(intentUsage, io)
	var scope, constraints, accept multiFlag
	id := fs.String("id", "", "intent id (letters, digits, . _ -)")
	title := fs.String("title", "", "short title")
	goal := fs.String("goal", "", "what done looks like")
	owner := fs.String("owner", "", "who owns the intent")
	fs.Var(&scope, "scope", "an owned path glob (repeat)")
	fs.Var(&constraints, "constraint", "a constraint (repeat)")
	fs.Var(&accept, "accept", "an acceptance criterion (repeat)")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *id == "" || *title == "" || len(scope) == 0 {
		return usagef("intent add needs --id, --title and at least one --scope")
	}
	root, f, err := loadIntents(io)
	if err != nil {
		return err
	}
	if f.Find(*id) != nil {
		return fmt.Errorf("intent %q already exists", *id)
	}
	in := intent.Intent{ID: *id, Title: *title, Goal: *goal, Status: intent.Open, Scope: scope, Constraints: constraints, Acceptance: accept, Owner: *owner}
	if err := intent.Add(governance.IntentsPath(root), in); err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "added intent %s: %s\n", in.ID, in.Title)
	return nil
}

func intentClose(io *IO, args []string) error {
	fs := newFlags(intentUsage, io)
	cancel := fs.Bool("cancel", false, "mark cancelled instead of done")
	pos, err := parseAll(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usagef("intent close needs one intent id")
	}
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	status := intent.Done
	if *cancel {
		status = intent.Cancelled
	}
	id := pos[0]
	if err := intent.SetStatus(governance.IntentsPath(root), id, status); err != nil {
		return err
	}
	// A closed intent is held by nobody.
	err = updateProject(io, func(p *state.Project) error {
		if l := p.Governance.Lock(id); l != nil {
			p.Governance.Release(l.Session)
		}
		return nil
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "intent %s is %s\n", id, status)
	return nil
}

func intentSelect(io *IO, args []string) error {
	fs := newFlags(intentUsage, io)
	session := fs.String("session", "", "the session that holds the intent")
	pos, err := parseAll(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 || *session == "" {
		return usagef("intent select needs an intent id and --session")
	}
	root, f, err := loadIntents(io)
	if err != nil {
		return err
	}
	lease := 30 * time.Minute
	if c, err := config.Load(config.DefaultPaths(root)); err == nil {
		lease = time.Duration(c.Governance.LeaseMinutes) * time.Minute
	}
	var in *intent.Intent
	err = updateProject(io, func(p *state.Project) error {
		var err error
		in, err = governance.Select(&p.Governance, f, *session, "cli", pos[0], time.Now().UTC(), lease)
		return err
	})
	var held *governance.HeldError
	if errors.As(err, &held) {
		return fmt.Errorf("%v", held)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "session %s holds intent %s\n%s\n", *session, in.ID, in.Summary())
	return nil
}

func intentRelease(io *IO, args []string) error {
	fs := newFlags(intentUsage, io)
	session := fs.String("session", "", "the session whose intent to drop")
	if err := parse(fs, args); err != nil {
		return err
	}
	if *session == "" {
		return usagef("intent release needs --session")
	}
	return updateProject(io, func(p *state.Project) error {
		p.Governance.Release(*session)
		return nil
	})
}

func intentRequests(io *IO, args []string) error {
	if len(args) != 0 {
		return usagef("intent requests takes no arguments")
	}
	p, err := readProject(io)
	if err != nil {
		return err
	}
	if len(p.Governance.Expansions) == 0 {
		fmt.Fprintln(io.Out, "no scope expansion requests")
		return nil
	}
	for _, r := range p.Governance.Expansions {
		fmt.Fprintf(io.Out, "#%d %s intent=%s session=%s paths=%s reason=%q\n", r.ID, r.Status, r.Intent, r.Session, strings.Join(r.Paths, ","), r.Reason)
	}
	return nil
}

// parseAll parses flags placed before or after the positional arguments
// and returns the positional ones.
func parseAll(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := parse(fs, args); err != nil {
			return nil, err
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}
