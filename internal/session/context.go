package session

import (
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// Marker opens every block of session context atreides injects, so tests
// and users can find it in what the model was sent.
const Marker = "<!-- atreides:session -->"

// ContextCap is the most context one event may inject: Claude Code's cap
// on a hook's output strings (longer text is moved to a file the model may
// never open). The other hosts allow more; the tightest cap rules.
const ContextCap = 10000

// capMargin leaves room for the separators and the note the host adapter
// adds when it has to leave a block out.
const capMargin = 100

// maxStartTodos bounds the todos listed at session start.
const maxStartTodos = 15

// StartContext tells the agent at session start who it is, that atreides
// is watching, which todos are open, and the project's rules (AGENTS.md,
// else built-in defaults with a visible warning). Everything is trimmed by
// priority to what is left of [ContextCap] after the blocks of the
// handlers before it (the state block after a compaction comes first):
// identity, then todos, then rules, whole sections only.
func StartContext(opts OptionsFunc) engine.Handler {
	return engine.Handler{
		Name: "session-context", Priority: engine.Normal,
		Kinds: []event.Kind{event.SessionStart},
		Handle: func(c *engine.Call) (event.Result, error) {
			return startContext(c, opts)
		},
	}
}

func startContext(c *engine.Call, opts OptionsFunc) (event.Result, error) {
	o := opts().normalize()
	room := ContextCap - capMargin
	for _, blk := range c.Decision.Context {
		room -= len(blk.Text) + 2
	}
	var r event.Result
	var b strings.Builder
	b.WriteString(Marker + "\n")
	b.WriteString(identity(o))
	b.WriteString("atreides guards this session: shell commands and file access are checked before they run, and a blocked call says why and what to do instead. Do not try to get around a block; ask the user.\n")

	root := c.Event.ProjectDir
	if root == "" {
		root = c.Event.Cwd
	}
	rules, fallback := DefaultRules, ""
	if root != "" {
		cache, update := loadRules(root, c.State.Project.Rules, o)
		if update != nil {
			c.State.Project.Rules = update
		}
		if len(cache.Problems) == 0 && cache.Text != "" {
			rules = cache.Text
		} else {
			fallback = strings.Join(cache.Problems, "; ")
		}
	} else {
		fallback = "no project directory known"
	}
	if fallback != "" {
		fmt.Fprintf(&b, "Note: %s: %s; using atreides's default rules.\n", o.RulesFile, fallback)
		r.Warning = fmt.Sprintf("atreides: %s: %s; the agent gets atreides's default rules.", o.RulesFile, fallback)
	}

	if open := c.State.Project.OpenTodos(); len(open) > 0 {
		var t strings.Builder
		t.WriteString("\nOpen todos (atreides):\n")
		writeTodos(&t, open, maxStartTodos)
		if b.Len()+t.Len() <= room {
			b.WriteString(t.String())
		}
	}

	head := "\nProject rules (" + o.RulesFile + "):\n"
	if fallback != "" {
		head = "\nRules (atreides defaults):\n"
	}
	if left := room - b.Len() - len(head); left > 200 {
		b.WriteString(head)
		b.WriteString(fitSections(rules, left))
	} else {
		b.WriteString("\n[atreides: rules left out to fit the context cap; read " + o.RulesFile + "]")
	}
	r.Context = strings.TrimRight(b.String(), "\n")
	return r, nil
}

// identity is the persona header.
func identity(o Options) string {
	var b strings.Builder
	fmt.Fprintf(&b, "You are %s, the lead agent of this session.", o.Persona)
	if o.Prefix {
		fmt.Fprintf(&b, " Begin every reply with \"[%s]:\".", o.Persona)
	}
	if o.Announce {
		b.WriteString(" Before delegating to a subagent, announce it in one line (\"Delegating to NAME: why\").")
	}
	if len(o.Agents) > 0 {
		b.WriteString(" Agents:")
		first := true
		for _, role := range []string{"oracle", "explore", "librarian", "build", "plan"} {
			name := o.Agents[role]
			if name == "" {
				continue
			}
			if !first {
				b.WriteString(",")
			}
			first = false
			fmt.Fprintf(&b, " %s (%s)", name, roleText[role])
		}
		b.WriteString(".")
	}
	b.WriteString("\n")
	return b.String()
}

var roleText = map[string]string{
	"oracle":    "oracle: diagnosis after repeated failures",
	"explore":   "codebase search",
	"librarian": "docs and references",
	"build":     "implementation",
	"plan":      "planning",
}

func writeTodos(b *strings.Builder, todos []state.Todo, max int) {
	for i, t := range todos {
		if i == max {
			fmt.Fprintf(b, "- … and %d more (atreides todo list)\n", len(todos)-max)
			return
		}
		fmt.Fprintf(b, "- [ ] #%d %s", t.ID, t.Title)
		if t.Status == state.TodoInProgress {
			b.WriteString(" (in progress)")
		}
		b.WriteByte('\n')
	}
}
