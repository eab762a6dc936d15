package session

import (
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/history"
	"github.com/atreides-dev/atreides/internal/sanitize"
	"github.com/atreides-dev/atreides/internal/state"
)

// Recorder keeps the session's counters and tool-call history. It runs last
// so it can record what the other handlers decided, and never blocks.
func Recorder() engine.Handler {
	return engine.Handler{Name: "record", Priority: engine.Low, Groups: history.Key.Group() | StopKey.Group(), Handle: record}
}

func record(c *engine.Call) (event.Result, error) {
	ev, s := c.Event, c.State.Session
	s.Updated = ev.Time
	s.Counters.Events++
	if s.Host == "" {
		s.Host = ev.Host
	}
	if ev.Cwd != "" {
		s.Cwd = ev.Cwd
	}
	if ev.TranscriptPath != "" && !ev.InSubagent() {
		s.Transcript = ev.TranscriptPath
	}
	switch ev.Kind {
	case event.UserPrompt:
		s.Counters.Prompts++
		StopKey.Of(s).Blocks = 0
	case event.PreTool:
		recordPreTool(s, ev, c.Decision)
	case event.PostTool:
		recordPostTool(s, ev)
	case event.Stop:
		s.Counters.Stops++
	case event.PreCompact:
		s.Counters.Compacts++
	case event.SubagentStart:
		s.Agents = append(s.Agents, state.Agent{ID: ev.AgentID, Type: ev.AgentType, Started: ev.Time})
	case event.SubagentStop:
		for i := range s.Agents {
			if s.Agents[i].ID == ev.AgentID {
				s.Agents[i].Stopped = ev.Time
			}
		}
	case event.SessionEnd:
		s.Ended = ev.Source
		if s.Ended == "" {
			s.Ended = "ended"
		}
	}
	return event.Result{}, nil
}

func recordPreTool(s *state.Session, ev *event.Event, d *event.Decision) {
	s.Counters.ToolCalls++
	call := history.ToolCall{
		Time: ev.Time, ID: ev.ToolUseID, Tool: string(ev.Tool.Name), Raw: ev.Tool.Raw,
		Summary: Summary(ev.Tool), Agent: ev.AgentID, Outcome: "pending",
		Verdict: d.Verdict.String(), Rule: d.Rule,
	}
	switch d.Verdict {
	case event.Deny:
		s.Counters.Denied++
		call.Outcome = "blocked"
	case event.Ask:
		s.Counters.Asked++
	}
	history.Key.Of(s).Add(call)
}

func recordPostTool(s *state.Session, ev *event.Event) {
	h := history.Key.Of(s)
	call := h.Find(ev.ToolUseID)
	if call == nil {
		// PreToolUse is registered only for tools atreides judges, so most
		// calls are first seen here.
		s.Counters.ToolCalls++
		h.Add(history.ToolCall{
			Time: ev.Time, ID: ev.ToolUseID, Tool: string(ev.Tool.Name), Raw: ev.Tool.Raw,
			Summary: Summary(ev.Tool), Agent: ev.AgentID,
		})
		call = &(*h)[len(*h)-1]
	}
	call.Outcome = "ok"
	if ev.Failed {
		call.Outcome = "failed"
		s.Counters.Failed++
	}
	call.Duration = ev.Duration.Milliseconds()
	if ev.Duration <= 0 && !call.Time.IsZero() && ev.Time.After(call.Time) {
		// Most hosts send no duration: the time from the pre event to
		// the post is the call's, as the trace view shows it.
		call.Duration = ev.Time.Sub(call.Time).Milliseconds()
	}
}

// Summary is a short, sanitized description of a tool call for history and
// status output.
func Summary(t event.Tool) string {
	switch {
	case t.Command != "":
		return sanitize.Command(t.Command)
	case len(t.Paths) > 0:
		return sanitize.String(filepath.Clean(t.Paths[0]), 200)
	}
	return ""
}
