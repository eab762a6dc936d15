package governance

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// mainAgent names the top-level agent on a delegation path.
const mainAgent = "main"

// chain returns the delegation path from the main agent down to the agent
// with the id ("" is the main agent): the agent types, outermost first.
func chain(s *state.SessionGovernance, id, fallbackType string) []string {
	var types []string
	seen := map[string]bool{}
	for id != "" && !seen[id] {
		seen[id] = true
		a := s.Agent(id)
		if a == nil {
			// A subagent atreides did not see start: assume one level.
			t := fallbackType
			if t == "" {
				t = "?"
			}
			types = append(types, t)
			break
		}
		types = append(types, a.Type)
		id = a.Parent
	}
	slices.Reverse(types)
	return append([]string{mainAgent}, types...)
}

func delegateType(input json.RawMessage) (typ, desc string) {
	var in struct {
		SubagentType string `json:"subagent_type"`
		Description  string `json:"description"`
	}
	_ = json.Unmarshal(input, &in)
	typ = in.SubagentType
	if typ == "" {
		typ = "general-purpose"
	}
	return typ, in.Description
}

// delegate checks a delegation (Claude's Task/Agent tool) against the
// depth limit and for cycles, and records it.
func (g *gov) delegate() event.Result {
	ev := g.ev()
	s := g.s()
	typ, _ := delegateType(ev.Tool.Input)
	path := chain(s, ev.AgentID, ev.AgentType)
	depth := len(path) // the new agent's depth: main is 0
	shown := strings.Join(append(slices.Clone(path), typ), " → ")
	if g.o.MaxDepth > 0 && depth > g.o.MaxDepth {
		return deny("governance.delegation-depth", fmt.Sprintf(
			"Delegation refused: starting %q here would nest subagents %d deep, over the limit of %d. Path: %s. Do this work yourself, or return to the agent that delegated to you with what you found.",
			typ, depth, g.o.MaxDepth, shown))
	}
	if slices.Contains(path[1:], typ) {
		return deny("governance.delegation-cycle", fmt.Sprintf(
			"Delegation refused: %q is already on the delegation path (%s), so this would be a cycle. Do the work yourself or return to the agent that delegated to you.",
			typ, shown))
	}
	s.Spawns = append(s.Spawns, state.Spawn{Parent: ev.AgentID, Type: typ, ToolUseID: ev.ToolUseID, Time: g.now})
	if len(s.Spawns) > state.MaxSnaps {
		s.Spawns = s.Spawns[len(s.Spawns)-state.MaxSnaps:]
	}
	return event.Result{}
}

// subagentStart matches a started subagent to the delegation that asked
// for it and tells it which intent it works under.
func (g *gov) subagentStart() event.Result {
	ev := g.ev()
	s := g.s()
	if ev.AgentID == "" || ev.AgentType == "" {
		return event.Result{} // e.g. /compact's hidden agent
	}
	parent := ""
	if i := slices.IndexFunc(s.Spawns, func(x state.Spawn) bool { return x.Type == ev.AgentType }); i >= 0 {
		parent = s.Spawns[i].Parent
		s.Spawns = slices.Delete(s.Spawns, i, i+1)
	}
	depth := len(chain(s, parent, ""))
	if s.Agent(ev.AgentID) == nil {
		s.Agents = append(s.Agents, state.Delegation{ID: ev.AgentID, Type: ev.AgentType, Parent: parent, Depth: depth, Started: g.now})
		if over := len(s.Agents) - state.MaxDelegations; over > 0 {
			// Drop the oldest finished records first.
			s.Agents = slices.DeleteFunc(s.Agents, func(d state.Delegation) bool {
				if over > 0 && !d.Stopped.IsZero() {
					over--
					return true
				}
				return false
			})
		}
	}
	var r event.Result
	if l := g.p().HeldBy(ev.SessionID); l != nil {
		if f, err := g.intents(ev.ProjectDir); err == nil {
			if in := f.Find(l.Intent); in != nil {
				r.Context = event.Note("intent", in.ID, event.High, "You work under the session's active intent; writes outside its scope are blocked.\n"+in.Summary())
			}
		}
	}
	if g.o.structured(ev.AgentType) {
		r.Context = append(r.Context, event.Note("delegation", "return-format", event.High, ReturnInstructions)...)
	}
	return r
}

// ReturnInstructions tell a subagent how to end.
const ReturnInstructions = `End with your final message being only this JSON object (no prose around it):
{"status": "success|partial|failed|blocked", "summary": "...", "artifacts": [...], "metadata": {...}, "errors": [...], "next_steps": [...]}`

// subagentStop records the end of a subagent, checks its run time and
// return object, and leaves findings for the agent that delegated.
func (g *gov) subagentStop() {
	ev := g.ev()
	s := g.s()
	if ev.AgentID == "" {
		return
	}
	a := s.Agent(ev.AgentID)
	if a == nil {
		s.Agents = append(s.Agents, state.Delegation{ID: ev.AgentID, Type: ev.AgentType, Depth: 1, Started: g.now})
		a = &s.Agents[len(s.Agents)-1]
	}
	if !a.Stopped.IsZero() {
		return // SubagentStop fires again after a blocked stop
	}
	a.Stopped, a.Outcome = g.now, "ok"
	var problems []string
	if d := g.o.timeout(a.Type); d > 0 && g.now.Sub(a.Started) > d {
		a.Outcome = "timeout"
		problems = append(problems, fmt.Sprintf("it ran %s, over its %s limit", g.now.Sub(a.Started).Round(time.Second), d))
	}
	if g.o.structured(a.Type) {
		if bad := ValidateReturn(ev.LastMessage); len(bad) > 0 {
			if a.Outcome == "ok" {
				a.Outcome = "invalid_return"
			}
			problems = append(problems, "its final message is not a valid return object: "+strings.Join(bad, "; "))
		}
	}
	if len(problems) > 0 {
		a.Detail = strings.Join(problems, "; ")
		s.Reports = append(s.Reports, state.Report{Parent: a.Parent, Text: fmt.Sprintf(
			"atreides: subagent %s (%s) finished with problems: %s. Treat its result with care; check its work or re-run it.", a.ID, a.Type, a.Detail)})
	}
}

// takeReports returns (and forgets) the findings meant for the agent that
// sent this event.
func (g *gov) takeReports() string {
	s := g.s()
	var out []string
	s.Reports = slices.DeleteFunc(s.Reports, func(r state.Report) bool {
		if r.Parent == g.ev().AgentID {
			out = append(out, r.Text)
			return true
		}
		return false
	})
	return strings.Join(out, "\n")
}

// ReturnStatuses are the allowed values of a return object's status.
var ReturnStatuses = []string{"success", "partial", "failed", "blocked"}

// ValidateReturn checks a subagent's final message against the standard
// return object {status, summary, artifacts, metadata, errors, next_steps}
// and lists what is wrong (nil when it is valid). The object may stand
// alone or sit in a ```json fence.
func ValidateReturn(msg string) []string {
	text := extractJSON(msg)
	if text == "" {
		return []string{"no JSON object found"}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &obj); err != nil {
		return []string{"not valid JSON: " + err.Error()}
	}
	var bad []string
	kind := func(key string) string {
		raw, ok := obj[key]
		if !ok {
			return ""
		}
		switch t := strings.TrimSpace(string(raw)); {
		case strings.HasPrefix(t, "{"):
			return "object"
		case strings.HasPrefix(t, "["):
			return "array"
		case strings.HasPrefix(t, `"`):
			return "string"
		case t == "null":
			return "null"
		default:
			return "other"
		}
	}
	want := []struct{ key, kind string }{
		{"status", "string"}, {"summary", "string"}, {"artifacts", "array"},
		{"metadata", "object"}, {"errors", "array"}, {"next_steps", "array"},
	}
	for _, w := range want {
		switch k := kind(w.key); k {
		case "":
			bad = append(bad, "missing "+w.key)
		case w.kind:
		default:
			bad = append(bad, fmt.Sprintf("%s must be a%s %s, not %s", w.key, article(w.kind), w.kind, k))
		}
	}
	var status, summary string
	if kind("status") == "string" {
		_ = json.Unmarshal(obj["status"], &status)
		if !slices.Contains(ReturnStatuses, status) {
			bad = append(bad, fmt.Sprintf("status %q is not one of %s", status, strings.Join(ReturnStatuses, ", ")))
		}
	}
	if kind("summary") == "string" {
		_ = json.Unmarshal(obj["summary"], &summary)
		if strings.TrimSpace(summary) == "" {
			bad = append(bad, "summary is empty")
		}
	}
	return bad
}

func article(kind string) string {
	if kind == "object" || kind == "array" {
		return "n"
	}
	return ""
}

func extractJSON(msg string) string {
	t := strings.TrimSpace(msg)
	if strings.HasPrefix(t, "{") {
		return t
	}
	if i := strings.Index(t, "```json"); i >= 0 {
		rest := t[i+len("```json"):]
		if j := strings.Index(rest, "```"); j >= 0 {
			return strings.TrimSpace(rest[:j])
		}
	}
	if i, j := strings.Index(t, "{"), strings.LastIndex(t, "}"); i >= 0 && j > i {
		return t[i : j+1]
	}
	return ""
}
