package strikes

import (
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// MaxStrikeErrors bounds the error history kept per strike target.
const MaxStrikeErrors = 5

// MaxStrikeTargets bounds how many targets are tracked at once; the least
// recently failed target is dropped first.
const MaxStrikeTargets = 20

// Strike counts consecutive failures of one tool on one target.
type Strike struct {
	Tool   string `json:"tool"`
	Target string `json:"target"` // normalized command or path; for an intent, its last command
	// Intent groups a shell command's failures by purpose (test, build,
	// lint, install: shell.RunIntent) rather than by command text, so
	// `npm test` then `npx jest` then `yarn test` is one thrashing run.
	Intent string `json:"intent,omitempty"`
	// Varied is set once the runs of an intent's streak were not all the
	// same command: only then is the streak named by its intent.
	Varied bool          `json:"varied,omitempty"`
	Count  int           `json:"count"`
	Class  string        `json:"class,omitempty"` // the last error class
	Errors []StrikeError `json:"errors,omitempty"`
	Last   time.Time     `json:"last"`
}

// StrikeError is one failure in a strike's history.
type StrikeError struct {
	Class   string    `json:"class"`
	Excerpt string    `json:"excerpt"` // short, sanitized
	Time    time.Time `json:"t"`
}

// State is the strike counter's group of the session record: the
// targets failing now.
type State struct {
	Targets []Strike `json:"targets,omitempty"`
}

// Find returns the strike for the tool and target, or nil.
func (g *State) Find(tool, target string) *Strike {
	for i := range g.Targets {
		if g.Targets[i].Tool == tool && g.Targets[i].Target == target {
			return &g.Targets[i]
		}
	}
	return nil
}

// FindIntent returns the strike for the tool's runs of intent, or nil.
func (g *State) FindIntent(tool, intent string) *Strike {
	for i := range g.Targets {
		if g.Targets[i].Tool == tool && g.Targets[i].Intent == intent {
			return &g.Targets[i]
		}
	}
	return nil
}

// Add records one failure and returns the updated strike.
func (g *State) Add(tool, target string, e StrikeError) *Strike {
	return g.AddRun(tool, target, "", e)
}

// AddRun records one failure of a run of intent ("" for none: counted by
// target) and returns the updated strike; an intent's strike takes the
// target of its latest run.
func (g *State) AddRun(tool, target, intent string, e StrikeError) *Strike {
	var k *Strike
	if intent != "" {
		k = g.FindIntent(tool, intent)
	} else {
		k = g.Find(tool, target)
	}
	if k == nil {
		if len(g.Targets) >= MaxStrikeTargets {
			oldest := 0
			for i := range g.Targets {
				if g.Targets[i].Last.Before(g.Targets[oldest].Last) {
					oldest = i
				}
			}
			g.Targets = append(g.Targets[:oldest], g.Targets[oldest+1:]...)
		}
		g.Targets = append(g.Targets, Strike{Tool: tool, Target: target, Intent: intent})
		k = &g.Targets[len(g.Targets)-1]
	}
	if k.Count > 0 && k.Target != target {
		k.Varied = true
	}
	k.Target = target
	k.Count++
	k.Class = e.Class
	k.Last = e.Time
	k.Errors = append(k.Errors, e)
	if over := len(k.Errors) - MaxStrikeErrors; over > 0 {
		k.Errors = append(k.Errors[:0], k.Errors[over:]...)
	}
	return k
}

// Clear forgets the strike for the tool and target, reporting whether
// there was one.
func (g *State) Clear(tool, target string) bool {
	return g.clear(func(k *Strike) bool { return k.Tool == tool && k.Target == target && k.Intent == "" })
}

// ClearIntent forgets the strike for the tool's runs of intent: a
// success of the same intent (any runner) ends the streak.
func (g *State) ClearIntent(tool, intent string) bool {
	return g.clear(func(k *Strike) bool { return k.Tool == tool && k.Intent == intent })
}

func (g *State) clear(match func(*Strike) bool) bool {
	for i := range g.Targets {
		if match(&g.Targets[i]) {
			g.Targets = append(g.Targets[:i], g.Targets[i+1:]...)
			return true
		}
	}
	return false
}

// Key is the group's key; its section's tag, 3, is in records on disk.
var Key = state.SessionKey[State]{Tag: 3, Name: "strikes", JSON: "strikes", Fields: func(g *State, c *binrec.Codec) {
	binrec.List(c, &g.Targets, (*Strike).Fields)
	CodeIntents(c, g.Targets)
}}

// CodeIntents codes the strikes' intents (and Varied) after the list that holds them
// (coded with [Strike.Fields]), last in their record, one per strike and
// only when one is set: a record written before intents existed reads as
// without them. The group's section and a compaction snapshot (package
// compaction) end with them.
func CodeIntents(c *binrec.Codec, list []Strike) {
	if c.More(slices.ContainsFunc(list, func(k Strike) bool { return k.Intent != "" })) {
		for i := range list {
			c.Str(&list[i].Intent)
			c.Bool(&list[i].Varied)
		}
	}
}

// Fields codes a strike: the group's, and a compaction snapshot's
// (package compaction).
func (k *Strike) Fields(c *binrec.Codec) {
	c.Str(&k.Tool, &k.Target)
	c.Int(&k.Count)
	c.Str(&k.Class)
	binrec.List(c, &k.Errors, func(e *StrikeError, c *binrec.Codec) {
		c.Str(&e.Class, &e.Excerpt)
		c.Time(&e.Time)
	})
	c.Time(&k.Last)
}
