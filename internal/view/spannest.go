package view

import (
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

// nest gives every span its parent: a delegation's span for what a
// subagent did, else the prompt it followed; a prompt's end is its last
// descendant's.
func (b *spanSet) nest() {
	slices.SortStableFunc(b.spans, func(x, y *Span) int { return x.Start.Compare(y.Start) })
	b.parent = map[*Span]*Span{}
	for _, sp := range b.spans {
		if sp.Kind == SpanPrompt {
			continue
		}
		p := b.parentOf(sp)
		if p != nil && b.descends(p, sp) {
			// Recorded parents that make a cycle (a damaged record):
			// the prompt it followed, so every walk up ends.
			p = b.promptAt(sp.Start)
		}
		if p != nil && p != sp {
			b.parent[sp] = p
			sp.Parent = p.ID
			if p.Kind == SpanDelegation && sp.Agent == "" && sp.Kind != SpanDelegation {
				sp.Agent = p.Agent // the history names the subagent by id only
			}
		}
	}
	for _, sp := range b.spans {
		end := sp.End
		if end.IsZero() {
			end = sp.Start
		}
		for p := b.parent[sp]; p != nil; p = b.parent[p] {
			if p.Kind == SpanPrompt && end.After(p.End) {
				p.End = end
			}
		}
	}
	for _, p := range b.prompts {
		if p.End.IsZero() {
			p.End = p.Start
		}
		p.DurationMS = durationBetween(p.Start, p.End)
	}
}

// descends reports whether p is sp or one of its descendants, by the
// parents given so far.
func (b *spanSet) descends(p, sp *Span) bool {
	for ; p != nil; p = b.parent[p] {
		if p == sp {
			return true
		}
	}
	return false
}

func (b *spanSet) parentOf(sp *Span) *Span {
	if sp.Kind == SpanDelegation {
		id := b.parentAgent[sp]
		if call := b.delegatingCall(id, sp.Start); call != nil {
			return call
		}
		if a := b.agents[id]; id != "" && a != nil {
			return a
		}
		return b.promptAt(sp.Start)
	}
	if a := b.agents[sp.AgentID]; a != nil && sp.AgentID != "" {
		return a
	}
	if sp.Agent != "" && sp.Kind != SpanBackground {
		if a := b.delegationAt(sp.Agent, sp.Start); a != nil {
			return a
		}
	}
	return b.promptAt(sp.Start)
}

// delegatingCall is the call of the delegating agent (id; "" the main
// agent) to its delegation tool that was running at t: the span a trace
// viewer shows the subagent's work under, as the agent waited on it.
func (b *spanSet) delegatingCall(id string, t time.Time) *Span {
	var best *Span
	for _, sp := range b.spans {
		if sp.Kind != SpanTool || sp.ToolKind != string(event.Delegate) || sp.AgentID != id || id == "" && sp.Agent != "" {
			continue
		}
		if sp.Start.After(t) || !sp.End.IsZero() && sp.End.Before(t) {
			continue
		}
		if best == nil || sp.Start.After(best.Start) {
			best = sp
		}
	}
	return best
}

// delegationAt is the latest-started delegation of the type running at t:
// the trail names a subagent's type, not its id.
func (b *spanSet) delegationAt(typ string, t time.Time) *Span {
	var best *Span
	for _, a := range b.agents {
		if a.Agent != typ || t.Before(a.Start) || !a.End.IsZero() && t.After(a.End) {
			continue
		}
		if best == nil || a.Start.After(best.Start) {
			best = a
		}
	}
	return best
}

// promptAt is the last prompt at or before t, nil before the first.
func (b *spanSet) promptAt(t time.Time) *Span {
	var at *Span
	for _, p := range b.prompts {
		if p.Start.After(t) {
			break
		}
		at = p
	}
	return at
}

// order lists the spans depth first, children in time order, keeping
// those f keeps and their ancestors.
func (b *spanSet) order(f SpanFilter) []Span {
	children := map[*Span][]*Span{}
	var roots []*Span
	for _, sp := range b.spans {
		if p := b.parent[sp]; p != nil {
			children[p] = append(children[p], sp)
		} else {
			roots = append(roots, sp)
		}
	}
	var kept func(*Span) bool
	memo := map[*Span]bool{}
	kept = func(sp *Span) bool {
		if v, ok := memo[sp]; ok {
			return v
		}
		v := f.keeps(sp.Start)
		for _, c := range children[sp] {
			v = kept(c) || v
		}
		memo[sp] = v
		return v
	}
	out := []Span{}
	var walk func([]*Span, int)
	walk = func(ss []*Span, depth int) {
		for _, sp := range ss {
			if !kept(sp) {
				continue
			}
			v := *sp
			v.Depth = depth
			out = append(out, v)
			walk(children[sp], depth+1)
		}
	}
	walk(roots, 0)
	return out
}
