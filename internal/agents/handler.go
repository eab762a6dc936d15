package agents

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// SkillOptions are what [SkillsHandler] needs: the roster, the hosts'
// skill folders searched after .atreides/skills, and the bytes of skills
// one agent run gets at most.
type SkillOptions struct {
	Roster Roster
	Dirs   []string
	Budget int
	// Inlined, if set, reports that the agent the event's subagent runs
	// as has its skills in its prompt already (a host whose agents atreides
	// injects with their skills written in): none are added.
	Inlined func(ev *event.Event, a Agent) bool
	// OwnAgent, if set, reports that the user's prompt in a main session
	// is answered by one of the host's own agents that stand for the
	// roster's agent of their id (OpenCode's build and plan, its primary
	// agents, which no delegation starts): that agent's skills come with
	// the prompt, once per session.
	OwnAgent func(ev *event.Event) bool
}

// DefaultSkillBudget bounds the skills one agent run gets, in bytes
// (about 3,000 tokens): skills are instructions, and a subagent's context
// is for its task.
const DefaultSkillBudget = 12000

type skillsMemo struct{}

// SkillsHandlerKinds are the events [SkillsHandler]'s handler runs on: a hook
// builds it for those alone.
var SkillsHandlerKinds = []event.Kind{event.SubagentStart, event.UserPrompt}

// SkillsHandler puts the skills attached to an agent into its context
// when it starts (SubagentStart, whose agent type is the roster id or its
// name on the host; a host's own agent of a roster id, such as OpenCode's
// explore, gets the skills of the roster's agent of that id), one
// entry per skill, once per agent run, in the order configured; a skill
// that does not fit in what is left of the budget is left out and the
// agent told which. Skills are read before the state lock is taken.
func SkillsHandler(opts func() SkillOptions) engine.Handler {
	return engine.Handler{
		Name: "skills", Priority: engine.Normal,
		Kinds:  SkillsHandlerKinds,
		Groups: state.NoGroups,
		Prepare: func(c *engine.Call) {
			ev := c.Event
			if ev.AgentType == "" || ev.Kind == event.UserPrompt && ev.InSubagent() {
				return
			}
			o := opts()
			run := ev.AgentID
			if ev.Kind == event.UserPrompt {
				if o.OwnAgent == nil || !o.OwnAgent(ev) {
					return
				}
				run = "main:" + ev.AgentType
			}
			a, ok := o.Roster.Get(ev.AgentType)
			if !ok || len(a.Skills) == 0 || o.Inlined != nil && o.Inlined(ev, a) {
				return
			}
			skills, err := LoadSkills(ev.ProjectDir, a.Skills, o.Dirs...)
			if err != nil {
				c.Env.Logf("agent %s: %v", a.ID, err)
			}
			c.Memo.Set(skillsMemo{}, skillEntries(run, skills, o.Budget))
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			v, _ := c.Memo.Get(skillsMemo{})
			es, _ := v.([]event.Entry)
			return event.Result{Context: es}, nil
		},
	}
}

// skillEntries are the context entries of an agent run's skills within
// budget bytes.
func skillEntries(agentID string, skills []Skill, budget int) []event.Entry {
	if budget <= 0 {
		budget = DefaultSkillBudget
	}
	var out []event.Entry
	var left []string
	for _, s := range skills {
		text := s.Context()
		if len(text) > budget {
			left = append(left, s.Name+" ("+s.Path+")")
			continue
		}
		budget -= len(text)
		out = append(out, event.Entry{Source: "skills", ID: agentID + ":" + s.Name, Priority: event.Normal, Text: text, Once: true})
	}
	if len(left) > 0 {
		out = append(out, event.Entry{Source: "skills", ID: agentID + ":over-budget", Priority: event.Normal, Once: true,
			Text: "Skills left out for lack of room (read them if the task needs them): " + strings.Join(left, ", ") + "."})
	}
	return out
}
