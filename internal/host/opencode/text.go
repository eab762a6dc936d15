package opencode

import (
	"encoding/json"

	"github.com/atreides-dev/atreides/internal/event"
)

// textComplete answers a finished text part of the lead agent with the
// text as Reply has it stand; a subagent's text, and text Reply leaves as
// it is, get no answer.
func (m *Mapper) textComplete(ev *event.Event, params json.RawMessage) Result {
	if m.Reply == nil || ev.AgentID != "" || ev.SessionID == "" {
		return Result{}
	}
	var p struct {
		Output struct {
			Text string `json:"text"`
		} `json:"output"`
	}
	if json.Unmarshal(params, &p) != nil || p.Output.Text == "" {
		return Result{}
	}
	if s := m.Reply(ev, p.Output.Text); s != p.Output.Text {
		return Result{Text: &s}
	}
	return Result{}
}
