package state

import (
	"fmt"
	"slices"

	"github.com/atreides-dev/atreides/internal/binrec"
)

// The sections of the binary records. Each section writes its fields in a
// fixed order and reads them back in the same order; a field is added at
// the end of its section together with a new encoding version (the
// previous one then needs a migration, as v1.go is for JSON). The test
// TestRecordsKeepEveryField fills every field of both records and fails
// when one is not carried through.

// sessionSections are the session record's sections, by tag.
var sessionSections = []section[Session]{
	{0, "core", putSessionCore, getSessionCore},
	{GroupHistory, "history", func(w *binrec.Writer, s *Session) { putNonEmpty(w, s.History, putCall) },
		func(r *binrec.Reader, s *Session) { s.History = binrec.Slice(r, 1, getCall) }},
	{GroupPhase, "phase", putPhase, getPhase},
	{GroupStrikes, "strikes", func(w *binrec.Writer, s *Session) { putNonEmpty(w, s.Strikes.Targets, putStrike) },
		func(r *binrec.Reader, s *Session) { s.Strikes.Targets = binrec.Slice(r, 0, getStrike) }},
	{GroupAgentTodos, "agent todos", func(w *binrec.Writer, s *Session) { putNonEmpty(w, s.Todos.Agent, putAgentTodo) },
		func(r *binrec.Reader, s *Session) { s.Todos.Agent = binrec.Slice(r, 0, getAgentTodo) }},
	{GroupStop, "stop", putStop, getStop},
	{GroupMemory, "memory", putMemory, getMemory},
	{GroupSessionGovernance, "session governance", putSessionGovernance, getSessionGovernance},
	{GroupContext, "context", putContext, getContext},
	{GroupWork, "work", putWork, getWork},
	{GroupReads, "reads", putReads, getReads},
	{GroupDelegation, "delegation", putDelegation, getDelegation},
	{GroupErrorOutbox, "error outbox", func(w *binrec.Writer, s *Session) { putNonEmpty(w, s.ErrorOutbox, putErrorEvent) },
		func(r *binrec.Reader, s *Session) { s.ErrorOutbox = binrec.Slice(r, 0, getErrorEvent) }},
	{GroupSessionTask, "session task", putSessionTask, getSessionTask},
	{GroupApplied, "applied", putApplied, getApplied},
}

// projectSections are the project record's sections, by tag.
var projectSections = []section[Project]{
	{0, "housekeeping", putProjectCore, getProjectCore},
	{GroupTodos, "todos", putTodos, getTodos},
	{GroupAnchors, "anchors", putAnchors, getAnchors},
	{GroupRules, "rules", putRules, getRules},
	{GroupGovernance, "governance", putGovernance, getGovernance},
	{GroupBackground, "background", putBackground, getBackground},
	// Origins came later, in sections of their own, so that an older
	// atreides keeps them as a newer build's groups (splitRecord) instead
	// of finding bytes it does not know in its todos and anchors.
	{GroupTodos, "todo origins", putTodoOrigins, getTodoOrigins},
	{GroupAnchors, "anchor origins", putAnchorOrigins, getAnchorOrigins},
	{GroupGovernance, "lease origins", putLeaseOrigins, getLeaseOrigins},
	{GroupGovernance, "scope request origins", putRequestOrigins, getRequestOrigins},
}

// Empty groups write nothing (and so are left out of the record); the
// core always writes something.

func putSessionCore(w *binrec.Writer, s *Session) {
	w.Str(s.ID)
	w.Str(s.Host)
	w.Time(s.Started)
	w.Time(s.Updated)
	w.Str(s.Cwd)
	w.Str(s.Transcript)
	w.Str(s.Ended)
	c := &s.Counters
	for _, n := range []int{c.Events, c.Prompts, c.ToolCalls, c.Denied, c.Asked, c.Failed, c.Stops, c.Compacts, c.Escalations} {
		w.Int(n)
	}
	binrec.PutSlice(w, s.Agents, func(w *binrec.Writer, a *Agent) {
		w.Str(a.ID)
		w.Str(a.Type)
		w.Time(a.Started)
		w.Time(a.Stopped)
	})
}

func getSessionCore(r *binrec.Reader, s *Session) {
	s.ID = r.Str()
	s.Host = r.Str()
	s.Started = r.Time()
	s.Updated = r.Time()
	s.Cwd = r.Str()
	s.Transcript = r.Str()
	s.Ended = r.Str()
	c := &s.Counters
	for _, n := range []*int{&c.Events, &c.Prompts, &c.ToolCalls, &c.Denied, &c.Asked, &c.Failed, &c.Stops, &c.Compacts, &c.Escalations} {
		*n = r.Int()
	}
	s.Agents = binrec.Slice(r, 0, func(r *binrec.Reader, a *Agent) {
		a.ID = r.Str()
		a.Type = r.Str()
		a.Started = r.Time()
		a.Stopped = r.Time()
	})
}

func putCall(w *binrec.Writer, c *ToolCall) {
	w.Time(c.Time)
	w.Str(c.ID)
	w.Str(c.Tool)
	w.Str(c.Raw)
	w.Str(c.Summary)
	w.Str(c.Agent)
	w.Str(c.Verdict)
	w.Str(c.Rule)
	w.Str(c.Outcome)
	w.Int64(c.Duration)
}

func getCall(r *binrec.Reader, c *ToolCall) {
	c.Time = r.Time()
	c.ID = r.Str()
	c.Tool = r.Str()
	c.Raw = r.Str()
	c.Summary = r.Str()
	c.Agent = r.Str()
	c.Verdict = r.Str()
	c.Rule = r.Str()
	c.Outcome = r.Str()
	c.Duration = r.Int64()
}

func putPhase(w *binrec.Writer, s *Session) {
	p := &s.Phase
	if p.Current == "" && p.Calls == 0 && len(p.Transitions) == 0 {
		return
	}
	w.Str(p.Current)
	w.Int(p.Calls)
	binrec.PutSlice(w, p.Transitions, func(w *binrec.Writer, t *Transition) {
		w.Str(t.From)
		w.Str(t.To)
		w.Str(t.Cause)
		w.Time(t.Time)
	})
}

func getPhase(r *binrec.Reader, s *Session) {
	p := &s.Phase
	p.Current = r.Str()
	p.Calls = r.Int()
	p.Transitions = binrec.Slice(r, 0, func(r *binrec.Reader, t *Transition) {
		t.From = r.Str()
		t.To = r.Str()
		t.Cause = r.Str()
		t.Time = r.Time()
	})
}

func putStrike(w *binrec.Writer, k *Strike) {
	w.Str(k.Tool)
	w.Str(k.Target)
	w.Int(k.Count)
	w.Str(k.Class)
	binrec.PutSlice(w, k.Errors, func(w *binrec.Writer, e *StrikeError) {
		w.Str(e.Class)
		w.Str(e.Excerpt)
		w.Time(e.Time)
	})
	w.Time(k.Last)
}

func getStrike(r *binrec.Reader, k *Strike) {
	k.Tool = r.Str()
	k.Target = r.Str()
	k.Count = r.Int()
	k.Class = r.Str()
	k.Errors = binrec.Slice(r, 0, func(r *binrec.Reader, e *StrikeError) {
		e.Class = r.Str()
		e.Excerpt = r.Str()
		e.Time = r.Time()
	})
	k.Last = r.Time()
}

// Slices of a group that is only a slice are written only when not
// empty, so that an empty group has no section.
func putNonEmpty[T any](w *binrec.Writer, v []T, one func(*binrec.Writer, *T)) {
	if len(v) > 0 {
		binrec.PutSlice(w, v, one)
	}
}

func putAgentTodo(w *binrec.Writer, t *AgentTodo) {
	w.Str(t.ID)
	w.Str(t.Content)
	w.Str(t.Status)
	w.Str(t.Active)
}

func getAgentTodo(r *binrec.Reader, t *AgentTodo) {
	t.ID = r.Str()
	t.Content = r.Str()
	t.Status = r.Str()
	t.Active = r.Str()
}

func putStop(w *binrec.Writer, s *Session) {
	st := &s.Stop
	if *st == (StopState{}) {
		return
	}
	w.Int(st.Blocks)
	w.Bool(st.Interrupted)
	w.Int(st.Pending)
	w.Int(st.Done)
	w.Str(st.Fingerprint)
	w.Int(st.Stagnant)
	w.Time(st.Last)
	w.Str(st.GaveUp)
}

func getStop(r *binrec.Reader, s *Session) {
	st := &s.Stop
	st.Blocks = r.Int()
	st.Interrupted = r.Bool()
	st.Pending = r.Int()
	st.Done = r.Int()
	st.Fingerprint = r.Str()
	st.Stagnant = r.Int()
	st.Last = r.Time()
	st.GaveUp = r.Str()
}

func putMemory(w *binrec.Writer, s *Session) {
	p := s.Memory.Snapshot
	if p == nil {
		return
	}
	w.Time(p.Time)
	w.Str(p.Trigger)
	w.Str(p.Phase)
	w.Strs(p.Todos)
	binrec.PutSlice(w, p.Strikes, putStrike)
	binrec.PutSlice(w, p.LastCalls, putCall)
	w.Bool(p.Delivered)
}

func getMemory(r *binrec.Reader, s *Session) {
	p := &Snapshot{}
	p.Time = r.Time()
	p.Trigger = r.Str()
	p.Phase = r.Str()
	p.Todos = r.Strs()
	p.Strikes = binrec.Slice(r, 0, getStrike)
	p.LastCalls = binrec.Slice(r, 0, getCall)
	p.Delivered = r.Bool()
	s.Memory.Snapshot = p
}

// The session governance section began with three lists (spawns,
// subagents, reports) that moved to the delegation group; it still writes
// them empty and skips what an older record holds, so that the section's
// layout, and with it the record's version, stay as they were.
func putSessionGovernance(w *binrec.Writer, s *Session) {
	g := &s.Governance
	if len(g.Snaps) == 0 {
		return
	}
	for range 3 {
		w.Uint(0)
	}
	binrec.PutSlice(w, g.Snaps, func(w *binrec.Writer, p *Snap) {
		w.Str(p.ToolUseID)
		w.Str(p.Intent)
		binrec.PutSlice(w, p.Files, func(w *binrec.Writer, f *FileSnap) {
			w.Str(f.Path)
			w.Bool(f.Exists)
			w.Str(f.Hash)
			w.Str(f.Content)
			w.Bool(f.Kept)
		})
		w.Time(p.Time)
	})
}

func getSessionGovernance(r *binrec.Reader, s *Session) {
	g := &s.Governance
	binrec.Slice(r, 0, func(r *binrec.Reader, p *Spawn) { // spawns
		p.Parent, p.Type, p.ToolUseID, p.Time = r.Str(), r.Str(), r.Str(), r.Time()
	})
	binrec.Slice(r, 0, func(r *binrec.Reader, d *Delegation) { // subagents
		d.ID, d.Type, d.Parent, d.Depth = r.Str(), r.Str(), r.Str(), r.Int()
		d.Started, d.Stopped, d.Outcome, d.Detail = r.Time(), r.Time(), r.Str(), r.Str()
	})
	binrec.Slice(r, 0, func(r *binrec.Reader, p *Spawn) { // reports: parent, text
		p.Parent, p.Type = r.Str(), r.Str()
	})
	g.Snaps = binrec.Slice(r, 0, func(r *binrec.Reader, p *Snap) {
		p.ToolUseID = r.Str()
		p.Intent = r.Str()
		p.Files = binrec.Slice(r, 0, func(r *binrec.Reader, f *FileSnap) {
			f.Path = r.Str()
			f.Exists = r.Bool()
			f.Hash = r.Str()
			f.Content = r.Str()
			f.Kept = r.Bool()
		})
		p.Time = r.Time()
	})
}

func putContext(w *binrec.Writer, s *Session) {
	c := &s.Context
	if len(c.Pending) == 0 && len(c.Delivered) == 0 {
		return
	}
	binrec.PutSlice(w, c.Pending, func(w *binrec.Writer, p *PendingEntry) {
		w.Str(p.Agent)
		w.Str(p.Source)
		w.Str(p.ID)
		w.Int(p.Priority)
		w.Str(p.Text)
		w.Bool(p.Once)
		w.Time(p.Time)
	})
	w.Strs(c.Delivered)
}

func getContext(r *binrec.Reader, s *Session) {
	c := &s.Context
	c.Pending = binrec.Slice(r, 0, func(r *binrec.Reader, p *PendingEntry) {
		p.Agent = r.Str()
		p.Source = r.Str()
		p.ID = r.Str()
		p.Priority = r.Int()
		p.Text = r.Str()
		p.Once = r.Bool()
		p.Time = r.Time()
	})
	c.Delivered = r.Strs()
}

func putWork(w *binrec.Writer, s *Session) {
	k := &s.Work
	if *k == (WorkState{}) {
		return
	}
	w.Str(k.Class)
	w.Int(k.Changes)
	w.Str(k.First)
	w.Bool(k.Nudged)
}

func getWork(r *binrec.Reader, s *Session) {
	k := &s.Work
	k.Class = r.Str()
	k.Changes = r.Int()
	k.First = r.Str()
	k.Nudged = r.Bool()
}

func putProjectCore(w *binrec.Writer, p *Project) {
	w.Time(p.Pruned)
	w.Bool(p.Salvaged != nil)
	if p.Salvaged != nil {
		w.Time(p.Salvaged.Time)
		w.Strs(p.Salvaged.Lost)
	}
}

func getProjectCore(r *binrec.Reader, p *Project) {
	p.Pruned = r.Time()
	if r.Bool() {
		p.Salvaged = &Salvage{Time: r.Time(), Lost: r.Strs()}
	}
}

func putTodos(w *binrec.Writer, p *Project) {
	if p.NextID == 0 && len(p.Todos) == 0 {
		return
	}
	w.Int(p.NextID)
	binrec.PutSlice(w, p.Todos, func(w *binrec.Writer, t *Todo) {
		w.Int(t.ID)
		w.Int(t.Parent)
		w.Str(t.Level)
		w.Str(t.Title)
		w.Str(t.Status)
		w.Str(t.Session)
		w.Str(t.Priority)
		w.Str(t.File)
		w.Int(t.Line)
		w.Str(t.Agent)
		w.Time(t.Created)
		w.Time(t.Updated)
	})
}

func getTodos(r *binrec.Reader, p *Project) {
	p.NextID = r.Int()
	p.Todos = binrec.Slice(r, 0, func(r *binrec.Reader, t *Todo) {
		t.ID = r.Int()
		t.Parent = r.Int()
		t.Level = r.Str()
		t.Title = r.Str()
		t.Status = r.Str()
		t.Session = r.Str()
		t.Priority = r.Str()
		t.File = r.Str()
		t.Line = r.Int()
		t.Agent = r.Str()
		t.Created = r.Time()
		t.Updated = r.Time()
	})
}

func putAnchors(w *binrec.Writer, p *Project) {
	if p.NextAnchor == 0 && len(p.Anchors) == 0 {
		return
	}
	w.Int(p.NextAnchor)
	binrec.PutSlice(w, p.Anchors, func(w *binrec.Writer, a *Anchor) {
		w.Int(a.ID)
		w.Str(a.Kind)
		w.Str(a.Priority)
		w.Str(a.Text)
		w.Str(a.Session)
		w.Time(a.Created)
	})
	// The targets came later: they follow the list, one per anchor, and
	// only when one is set, so that a record without any is byte for byte
	// what it was and an older record reads as targets all empty.
	if slices.ContainsFunc(p.Anchors, func(a Anchor) bool { return a.Target != "" }) {
		binrec.PutSlice(w, p.Anchors, func(w *binrec.Writer, a *Anchor) { w.Str(a.Target) })
	}
}

func getAnchors(r *binrec.Reader, p *Project) {
	p.NextAnchor = r.Int()
	p.Anchors = binrec.Slice(r, 0, func(r *binrec.Reader, a *Anchor) {
		a.ID = r.Int()
		a.Kind = r.Str()
		a.Priority = r.Str()
		a.Text = r.Str()
		a.Session = r.Str()
		a.Created = r.Time()
	})
	if r.Len() == 0 {
		return
	}
	targets := binrec.Slice(r, 0, func(r *binrec.Reader, t *string) { *t = r.Str() })
	if len(targets) != len(p.Anchors) {
		r.Fail(fmt.Errorf("%d anchor targets for %d anchors", len(targets), len(p.Anchors)))
		return
	}
	for i, t := range targets {
		p.Anchors[i].Target = t
	}
}

func putRules(w *binrec.Writer, p *Project) {
	c := p.Rules
	if c == nil {
		return
	}
	w.Str(c.Path)
	w.Str(c.Opts)
	w.Time(c.ModTime)
	w.Int64(c.Size)
	w.Strs(c.Problems)
	w.Bool(c.Missing)
	w.Str(c.Text)
}

func getRules(r *binrec.Reader, p *Project) {
	c := &RulesCache{}
	c.Path = r.Str()
	c.Opts = r.Str()
	c.ModTime = r.Time()
	c.Size = r.Int64()
	c.Problems = r.Strs()
	c.Missing = r.Bool()
	c.Text = r.Str()
	p.Rules = c
}

func putGovernance(w *binrec.Writer, p *Project) {
	g := &p.Governance
	if len(g.Locks) == 0 && len(g.Expansions) == 0 && g.NextExpansion == 0 && g.Trace == (TraceHead{}) && len(g.Recent) == 0 {
		return
	}
	binrec.PutSlice(w, g.Locks, func(w *binrec.Writer, l *IntentLock) {
		w.Str(l.Intent)
		w.Str(l.Session)
		w.Str(l.Host)
		w.Time(l.Since)
		w.Time(l.Renewed)
	})
	binrec.PutSlice(w, g.Expansions, func(w *binrec.Writer, q *ScopeRequest) {
		w.Int(q.ID)
		w.Str(q.Intent)
		w.Str(q.Session)
		w.Strs(q.Paths)
		w.Str(q.Reason)
		w.Str(q.Status)
		w.Time(q.Time)
	})
	w.Int(g.NextExpansion)
	w.Uint(g.Trace.Seq)
	w.Str(g.Trace.Hash)
	binrec.PutSlice(w, g.Recent, func(w *binrec.Writer, s *SeenSession) {
		w.Str(s.ID)
		w.Str(s.Host)
		w.Time(s.Seen)
	})
}

func getGovernance(r *binrec.Reader, p *Project) {
	g := &p.Governance
	g.Locks = binrec.Slice(r, 0, func(r *binrec.Reader, l *IntentLock) {
		l.Intent = r.Str()
		l.Session = r.Str()
		l.Host = r.Str()
		l.Since = r.Time()
		l.Renewed = r.Time()
	})
	g.Expansions = binrec.Slice(r, 0, func(r *binrec.Reader, q *ScopeRequest) {
		q.ID = r.Int()
		q.Intent = r.Str()
		q.Session = r.Str()
		q.Paths = r.Strs()
		q.Reason = r.Str()
		q.Status = r.Str()
		q.Time = r.Time()
	})
	g.NextExpansion = r.Int()
	g.Trace.Seq = r.Uint()
	g.Trace.Hash = r.Str()
	g.Recent = binrec.Slice(r, 0, func(r *binrec.Reader, s *SeenSession) {
		s.ID = r.Str()
		s.Host = r.Str()
		s.Seen = r.Time()
	})
}

func putReads(w *binrec.Writer, s *Session) {
	putNonEmpty(w, s.Reads.Known, func(w *binrec.Writer, k *KnownFile) {
		w.Str(k.Agent)
		w.Str(k.Path)
		w.Time(k.ModTime)
	})
}

func getReads(r *binrec.Reader, s *Session) {
	s.Reads.Known = binrec.Slice(r, 0, func(r *binrec.Reader, k *KnownFile) {
		k.Agent = r.Str()
		k.Path = r.Str()
		k.ModTime = r.Time()
	})
}

func putBackground(w *binrec.Writer, p *Project) {
	b := &p.Background
	if b.NextID == 0 && len(b.Tasks) == 0 {
		return
	}
	w.Int(b.NextID)
	binrec.PutSlice(w, b.Tasks, func(w *binrec.Writer, t *BgTask) {
		for _, s := range []string{t.ID, t.Parent, t.ParentAgent, t.Host, t.Runner, t.Agent, t.Description, t.Prompt} {
			w.Str(s)
		}
		w.Strs(t.Skills)
		w.Str(t.Key)
		w.Str(t.Status)
		w.Time(t.Created)
		w.Time(t.Started)
		w.Time(t.Ended)
		w.Int(t.PID)
		w.Uint(t.PIDStart)
		w.Str(t.Child)
		w.Time(t.Observed)
		w.Int(t.Messages)
		w.Time(t.Changed)
		w.Str(t.Result)
		w.Str(t.Error)
		w.Bool(t.Notified)
		w.Strs(t.Path)
		w.Str(t.Resume)
		w.Int(t.Blocks)
	})
}

func getBackground(r *binrec.Reader, p *Project) {
	b := &p.Background
	b.NextID = r.Int()
	b.Tasks = binrec.Slice(r, 0, func(r *binrec.Reader, t *BgTask) {
		for _, s := range []*string{&t.ID, &t.Parent, &t.ParentAgent, &t.Host, &t.Runner, &t.Agent, &t.Description, &t.Prompt} {
			*s = r.Str()
		}
		t.Skills = r.Strs()
		t.Key = r.Str()
		t.Status = r.Str()
		t.Created = r.Time()
		t.Started = r.Time()
		t.Ended = r.Time()
		t.PID = r.Int()
		t.PIDStart = r.Uint()
		t.Child = r.Str()
		t.Observed = r.Time()
		t.Messages = r.Int()
		t.Changed = r.Time()
		t.Result = r.Str()
		t.Error = r.Str()
		t.Notified = r.Bool()
		t.Path = r.Strs()
		t.Resume = r.Str()
		t.Blocks = r.Int()
	})
}
