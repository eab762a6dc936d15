package session

import (
	"maps"
	"slices"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/prompt"
	"github.com/atreides-dev/atreides/internal/state"
)

// KeywordMode is a block of context that the user's prompt brings in by
// naming one of its keywords.
type KeywordMode struct {
	Name     string
	Keywords []string
	Text     string
	Priority event.Priority
	// Once adds the block once per session (again after a compaction);
	// otherwise every prompt that names a keyword adds it.
	Once bool
}

// KeywordOptions are the keyword handler's settings, mapped from the
// configuration's context.keywords by the caller.
type KeywordOptions struct {
	Modes []KeywordMode // in the order their blocks are registered
	// Variant is the model variant for the first prompt of every main
	// session ("" for none), whatever its agent: the user's one choice,
	// which overrides Variants. Only OpenCode has variants.
	Variant string
	// Variants are the roster agents' own first-message variants, by the
	// name the host knows each agent by (agents.HostName): the design's
	// gate gives the orchestrator high and the others medium. A host's own
	// agent (OpenCode's build, plan) is not in it and gets none.
	Variants map[string]string
}

// variantFor is the first-message variant of a main session led by the
// named agent.
func (o *KeywordOptions) variantFor(agent string) string {
	if o.Variant != "" {
		return o.Variant
	}
	return o.Variants[agent]
}

// KeywordsKinds are the events [Keywords]'s handler runs on: a hook
// builds it for those alone.
var KeywordsKinds = []event.Kind{event.UserPrompt}

// Keywords adds a mode's block when the user's prompt names one of its
// keywords as a whole word of its prose (package prompt: never in code,
// inline code, URLs, paths or longer words), and gives the first prompt
// of a session's lead agent the configured model variant. Prompts inside
// a subagent (OpenCode's child sessions; Claude Code fires no prompt event
// there) are written by the agent, not the user, and trigger nothing. The
// collector delivers a once-only block once per session and agent, so the
// handler keeps no state of its own.
func Keywords(opts func() KeywordOptions) engine.Handler {
	return engine.Handler{
		Name: "keywords", Priority: engine.Normal,
		Kinds:  KeywordsKinds,
		Groups: state.NoGroups,
		Handle: func(c *engine.Call) (event.Result, error) {
			return keywordModes(c, opts()), nil
		},
	}
}

func keywordModes(c *engine.Call, o KeywordOptions) event.Result {
	ev := c.Event
	if ev.InSubagent() {
		return event.Result{}
	}
	var r event.Result
	if c.State.Session.Counters.Prompts == 0 {
		r.Variant = o.variantFor(ev.AgentType)
	}
	if len(o.Modes) == 0 {
		return r
	}
	words := promptWords(c)
	for _, m := range o.Modes {
		if m.Text == "" {
			continue
		}
		if _, ok := prompt.Find(words, m.Keywords); ok {
			r.Context = append(r.Context, event.Entry{Source: "keyword", ID: m.Name, Priority: m.Priority, Text: m.Text, Once: m.Once})
		}
	}
	return r
}

// wordsKey keeps the prompt's prose words in the event's memo: the
// keyword handler and the phase tracker both read them.
type wordsKey struct{}

func promptWords(c *engine.Call) []prompt.Word {
	if v, ok := c.Memo.Get(wordsKey{}); ok {
		return v.([]prompt.Word)
	}
	w := prompt.Prose(c.Event.Prompt)
	c.Memo.Set(wordsKey{}, w)
	return w
}

// KeywordsFromConfig maps context.keywords, the modes in name order (the
// order their blocks are registered in when two fire at once).
func KeywordsFromConfig(cfg *config.Config) KeywordOptions {
	c := &cfg.Context.Keywords
	o := KeywordOptions{Variant: c.Variant, Variants: agentVariants(cfg.Agents)}
	for _, name := range slices.Sorted(maps.Keys(c.Modes)) {
		m := c.Modes[name]
		kw := make([]string, len(m.Keywords))
		for i, k := range m.Keywords {
			kw[i] = string(k)
		}
		o.Modes = append(o.Modes, KeywordMode{Name: name, Keywords: kw, Text: m.Text,
			Priority: contextPriority(m.Priority), Once: m.Once})
	}
	return o
}

// contextPriority maps a configured priority; "" is normal.
func contextPriority(p config.ContextPriority) event.Priority {
	switch p {
	case "critical":
		return event.Critical
	case "high":
		return event.High
	case "low":
		return event.Low
	}
	return event.Normal
}

// agentVariants are the enabled agents' variants by the name hosts know
// them by; nil when none has one (the common path allocates nothing).
func agentVariants(section map[string]config.Agent) map[string]string {
	var out map[string]string
	for id, a := range section {
		if !a.Enabled || a.Variant == "" {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[agents.HostName(id)] = a.Variant
	}
	return out
}
