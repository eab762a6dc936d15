package governance

import (
	"github.com/atreides-dev/atreides/internal/event"
)

// subagentStart tells a started subagent which intent it works under.
func (g *gov) subagentStart() event.Result {
	ev := g.ev()
	var r event.Result
	if ev.AgentID == "" || ev.AgentType == "" {
		return r // e.g. /compact's hidden agent
	}
	if l := g.p().HeldBy(ev.SessionID); l != nil {
		if f, err := g.intents(ev.ProjectDir); err == nil {
			if in := f.Find(l.Intent); in != nil {
				r.Context = event.Note("intent", in.ID, event.High, "You work under the session's active intent; writes outside its scope are blocked.\n"+in.Summary())
			}
		}
	}
	return r
}
