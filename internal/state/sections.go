package state

// The sections of the binary records. Each section writes its fields in a
// fixed order and reads them back in the same order; a field is added at
// the end of its section together with a new encoding version (the
// previous one then needs a migration, as v1.go is for JSON). The test
// TestRecordsKeepEveryField fills every field of both records and fails
// when one is not carried through.

// sessionSections are the session record's sections, by tag.
var sessionSections = []section[Session]{
	{0, "core", putSessionCore, getSessionCore},
	{GroupHistory, "history", func(w *writer, s *Session) { putNonEmpty(w, s.History, putCall) },
		func(r *reader, s *Session) { s.History = slice(r, 1, getCall) }},
	{GroupPhase, "phase", putPhase, getPhase},
	{GroupStrikes, "strikes", func(w *writer, s *Session) { putNonEmpty(w, s.Strikes.Targets, putStrike) },
		func(r *reader, s *Session) { s.Strikes.Targets = slice(r, 0, getStrike) }},
	{GroupAgentTodos, "agent todos", func(w *writer, s *Session) { putNonEmpty(w, s.Todos.Agent, putAgentTodo) },
		func(r *reader, s *Session) { s.Todos.Agent = slice(r, 0, getAgentTodo) }},
	{GroupStop, "stop", putStop, getStop},
	{GroupMemory, "memory", putMemory, getMemory},
	{GroupSessionGovernance, "session governance", putSessionGovernance, getSessionGovernance},
}

// projectSections are the project record's sections, by tag.
var projectSections = []section[Project]{
	{0, "housekeeping", putProjectCore, getProjectCore},
	{GroupTodos, "todos", putTodos, getTodos},
	{GroupAnchors, "anchors", putAnchors, getAnchors},
	{GroupRules, "rules", putRules, getRules},
	{GroupGovernance, "governance", putGovernance, getGovernance},
}

// Empty groups write nothing (and so are left out of the record); the
// core always writes something.

func putSessionCore(w *writer, s *Session) {
	w.str(s.ID)
	w.str(s.Host)
	w.time(s.Started)
	w.time(s.Updated)
	w.str(s.Cwd)
	w.str(s.Transcript)
	w.str(s.Ended)
	c := &s.Counters
	for _, n := range []int{c.Events, c.Prompts, c.ToolCalls, c.Denied, c.Asked, c.Failed, c.Stops, c.Compacts, c.Escalations} {
		w.int(n)
	}
	putSlice(w, s.Agents, func(w *writer, a *Agent) {
		w.str(a.ID)
		w.str(a.Type)
		w.time(a.Started)
		w.time(a.Stopped)
	})
}

func getSessionCore(r *reader, s *Session) {
	s.ID = r.str()
	s.Host = r.str()
	s.Started = r.time()
	s.Updated = r.time()
	s.Cwd = r.str()
	s.Transcript = r.str()
	s.Ended = r.str()
	c := &s.Counters
	for _, n := range []*int{&c.Events, &c.Prompts, &c.ToolCalls, &c.Denied, &c.Asked, &c.Failed, &c.Stops, &c.Compacts, &c.Escalations} {
		*n = r.int()
	}
	s.Agents = slice(r, 0, func(r *reader, a *Agent) {
		a.ID = r.str()
		a.Type = r.str()
		a.Started = r.time()
		a.Stopped = r.time()
	})
}

func putCall(w *writer, c *ToolCall) {
	w.time(c.Time)
	w.str(c.ID)
	w.str(c.Tool)
	w.str(c.Raw)
	w.str(c.Summary)
	w.str(c.Agent)
	w.str(c.Verdict)
	w.str(c.Rule)
	w.str(c.Outcome)
	w.int64(c.Duration)
}

func getCall(r *reader, c *ToolCall) {
	c.Time = r.time()
	c.ID = r.str()
	c.Tool = r.str()
	c.Raw = r.str()
	c.Summary = r.str()
	c.Agent = r.str()
	c.Verdict = r.str()
	c.Rule = r.str()
	c.Outcome = r.str()
	c.Duration = r.int64()
}

func putPhase(w *writer, s *Session) {
	p := &s.Phase
	if p.Current == "" && p.Calls == 0 && len(p.Transitions) == 0 {
		return
	}
	w.str(p.Current)
	w.int(p.Calls)
	putSlice(w, p.Transitions, func(w *writer, t *Transition) {
		w.str(t.From)
		w.str(t.To)
		w.str(t.Cause)
		w.time(t.Time)
	})
}

func getPhase(r *reader, s *Session) {
	p := &s.Phase
	p.Current = r.str()
	p.Calls = r.int()
	p.Transitions = slice(r, 0, func(r *reader, t *Transition) {
		t.From = r.str()
		t.To = r.str()
		t.Cause = r.str()
		t.Time = r.time()
	})
}

func putStrike(w *writer, k *Strike) {
	w.str(k.Tool)
	w.str(k.Target)
	w.int(k.Count)
	w.str(k.Class)
	putSlice(w, k.Errors, func(w *writer, e *StrikeError) {
		w.str(e.Class)
		w.str(e.Excerpt)
		w.time(e.Time)
	})
	w.time(k.Last)
}

func getStrike(r *reader, k *Strike) {
	k.Tool = r.str()
	k.Target = r.str()
	k.Count = r.int()
	k.Class = r.str()
	k.Errors = slice(r, 0, func(r *reader, e *StrikeError) {
		e.Class = r.str()
		e.Excerpt = r.str()
		e.Time = r.time()
	})
	k.Last = r.time()
}

// Slices of a group that is only a slice are written only when not
// empty, so that an empty group has no section.
func putNonEmpty[T any](w *writer, v []T, one func(*writer, *T)) {
	if len(v) > 0 {
		putSlice(w, v, one)
	}
}

func putAgentTodo(w *writer, t *AgentTodo) {
	w.str(t.ID)
	w.str(t.Content)
	w.str(t.Status)
	w.str(t.Active)
}

func getAgentTodo(r *reader, t *AgentTodo) {
	t.ID = r.str()
	t.Content = r.str()
	t.Status = r.str()
	t.Active = r.str()
}

func putStop(w *writer, s *Session) {
	st := &s.Stop
	if *st == (StopState{}) {
		return
	}
	w.int(st.Blocks)
	w.bool(st.Interrupted)
	w.int(st.Pending)
	w.int(st.Done)
	w.str(st.Fingerprint)
	w.int(st.Stagnant)
	w.time(st.Last)
	w.str(st.GaveUp)
}

func getStop(r *reader, s *Session) {
	st := &s.Stop
	st.Blocks = r.int()
	st.Interrupted = r.bool()
	st.Pending = r.int()
	st.Done = r.int()
	st.Fingerprint = r.str()
	st.Stagnant = r.int()
	st.Last = r.time()
	st.GaveUp = r.str()
}

func putMemory(w *writer, s *Session) {
	p := s.Memory.Snapshot
	if p == nil {
		return
	}
	w.time(p.Time)
	w.str(p.Trigger)
	w.str(p.Phase)
	w.strs(p.Todos)
	putSlice(w, p.Strikes, putStrike)
	putSlice(w, p.LastCalls, putCall)
	w.bool(p.Delivered)
}

func getMemory(r *reader, s *Session) {
	p := &Snapshot{}
	p.Time = r.time()
	p.Trigger = r.str()
	p.Phase = r.str()
	p.Todos = r.strs()
	p.Strikes = slice(r, 0, getStrike)
	p.LastCalls = slice(r, 0, getCall)
	p.Delivered = r.bool()
	s.Memory.Snapshot = p
}

func putSessionGovernance(w *writer, s *Session) {
	g := &s.Governance
	if len(g.Spawns) == 0 && len(g.Agents) == 0 && len(g.Reports) == 0 && len(g.Snaps) == 0 {
		return
	}
	putSlice(w, g.Spawns, func(w *writer, p *Spawn) {
		w.str(p.Parent)
		w.str(p.Type)
		w.str(p.ToolUseID)
		w.time(p.Time)
	})
	putSlice(w, g.Agents, func(w *writer, d *Delegation) {
		w.str(d.ID)
		w.str(d.Type)
		w.str(d.Parent)
		w.int(d.Depth)
		w.time(d.Started)
		w.time(d.Stopped)
		w.str(d.Outcome)
		w.str(d.Detail)
	})
	putSlice(w, g.Reports, func(w *writer, p *Report) {
		w.str(p.Parent)
		w.str(p.Text)
	})
	putSlice(w, g.Snaps, func(w *writer, p *Snap) {
		w.str(p.ToolUseID)
		w.str(p.Intent)
		putSlice(w, p.Files, func(w *writer, f *FileSnap) {
			w.str(f.Path)
			w.bool(f.Exists)
			w.str(f.Hash)
			w.str(f.Content)
			w.bool(f.Kept)
		})
		w.time(p.Time)
	})
}

func getSessionGovernance(r *reader, s *Session) {
	g := &s.Governance
	g.Spawns = slice(r, 0, func(r *reader, p *Spawn) {
		p.Parent = r.str()
		p.Type = r.str()
		p.ToolUseID = r.str()
		p.Time = r.time()
	})
	g.Agents = slice(r, 0, func(r *reader, d *Delegation) {
		d.ID = r.str()
		d.Type = r.str()
		d.Parent = r.str()
		d.Depth = r.int()
		d.Started = r.time()
		d.Stopped = r.time()
		d.Outcome = r.str()
		d.Detail = r.str()
	})
	g.Reports = slice(r, 0, func(r *reader, p *Report) {
		p.Parent = r.str()
		p.Text = r.str()
	})
	g.Snaps = slice(r, 0, func(r *reader, p *Snap) {
		p.ToolUseID = r.str()
		p.Intent = r.str()
		p.Files = slice(r, 0, func(r *reader, f *FileSnap) {
			f.Path = r.str()
			f.Exists = r.bool()
			f.Hash = r.str()
			f.Content = r.str()
			f.Kept = r.bool()
		})
		p.Time = r.time()
	})
}

func putProjectCore(w *writer, p *Project) {
	w.time(p.Pruned)
	w.bool(p.Salvaged != nil)
	if p.Salvaged != nil {
		w.time(p.Salvaged.Time)
		w.strs(p.Salvaged.Lost)
	}
}

func getProjectCore(r *reader, p *Project) {
	p.Pruned = r.time()
	if r.bool() {
		p.Salvaged = &Salvage{Time: r.time(), Lost: r.strs()}
	}
}

func putTodos(w *writer, p *Project) {
	if p.NextID == 0 && len(p.Todos) == 0 {
		return
	}
	w.int(p.NextID)
	putSlice(w, p.Todos, func(w *writer, t *Todo) {
		w.int(t.ID)
		w.int(t.Parent)
		w.str(t.Level)
		w.str(t.Title)
		w.str(t.Status)
		w.str(t.Session)
		w.str(t.Priority)
		w.str(t.File)
		w.int(t.Line)
		w.str(t.Agent)
		w.time(t.Created)
		w.time(t.Updated)
	})
}

func getTodos(r *reader, p *Project) {
	p.NextID = r.int()
	p.Todos = slice(r, 0, func(r *reader, t *Todo) {
		t.ID = r.int()
		t.Parent = r.int()
		t.Level = r.str()
		t.Title = r.str()
		t.Status = r.str()
		t.Session = r.str()
		t.Priority = r.str()
		t.File = r.str()
		t.Line = r.int()
		t.Agent = r.str()
		t.Created = r.time()
		t.Updated = r.time()
	})
}

func putAnchors(w *writer, p *Project) {
	if p.NextAnchor == 0 && len(p.Anchors) == 0 {
		return
	}
	w.int(p.NextAnchor)
	putSlice(w, p.Anchors, func(w *writer, a *Anchor) {
		w.int(a.ID)
		w.str(a.Kind)
		w.str(a.Priority)
		w.str(a.Text)
		w.str(a.Session)
		w.time(a.Created)
	})
}

func getAnchors(r *reader, p *Project) {
	p.NextAnchor = r.int()
	p.Anchors = slice(r, 0, func(r *reader, a *Anchor) {
		a.ID = r.int()
		a.Kind = r.str()
		a.Priority = r.str()
		a.Text = r.str()
		a.Session = r.str()
		a.Created = r.time()
	})
}

func putRules(w *writer, p *Project) {
	c := p.Rules
	if c == nil {
		return
	}
	w.str(c.Path)
	w.str(c.Opts)
	w.time(c.ModTime)
	w.int64(c.Size)
	w.strs(c.Problems)
	w.bool(c.Missing)
	w.str(c.Text)
}

func getRules(r *reader, p *Project) {
	c := &RulesCache{}
	c.Path = r.str()
	c.Opts = r.str()
	c.ModTime = r.time()
	c.Size = r.int64()
	c.Problems = r.strs()
	c.Missing = r.bool()
	c.Text = r.str()
	p.Rules = c
}

func putGovernance(w *writer, p *Project) {
	g := &p.Governance
	if len(g.Locks) == 0 && len(g.Expansions) == 0 && g.NextExpansion == 0 && g.Trace == (TraceHead{}) && len(g.Recent) == 0 {
		return
	}
	putSlice(w, g.Locks, func(w *writer, l *IntentLock) {
		w.str(l.Intent)
		w.str(l.Session)
		w.str(l.Host)
		w.time(l.Since)
		w.time(l.Renewed)
	})
	putSlice(w, g.Expansions, func(w *writer, q *ScopeRequest) {
		w.int(q.ID)
		w.str(q.Intent)
		w.str(q.Session)
		w.strs(q.Paths)
		w.str(q.Reason)
		w.str(q.Status)
		w.time(q.Time)
	})
	w.int(g.NextExpansion)
	w.uint(g.Trace.Seq)
	w.str(g.Trace.Hash)
	putSlice(w, g.Recent, func(w *writer, s *SeenSession) {
		w.str(s.ID)
		w.str(s.Host)
		w.time(s.Seen)
	})
}

func getGovernance(r *reader, p *Project) {
	g := &p.Governance
	g.Locks = slice(r, 0, func(r *reader, l *IntentLock) {
		l.Intent = r.str()
		l.Session = r.str()
		l.Host = r.str()
		l.Since = r.time()
		l.Renewed = r.time()
	})
	g.Expansions = slice(r, 0, func(r *reader, q *ScopeRequest) {
		q.ID = r.int()
		q.Intent = r.str()
		q.Session = r.str()
		q.Paths = r.strs()
		q.Reason = r.str()
		q.Status = r.str()
		q.Time = r.time()
	})
	g.NextExpansion = r.int()
	g.Trace.Seq = r.uint()
	g.Trace.Hash = r.str()
	g.Recent = slice(r, 0, func(r *reader, s *SeenSession) {
		s.ID = r.str()
		s.Host = r.str()
		s.Seen = r.time()
	})
}
