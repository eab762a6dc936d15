package state

import "github.com/atreides-dev/atreides/internal/binrec"

// The sections of the binary records. Each type lists its fields once, in
// a fixed order, in its fields method, which both writes and reads them
// (binrec.Codec); a field is added at the end of its section together
// with a new encoding version (the previous one then needs a migration, as
// v1.go is for JSON). The golden records (testdata) hold what records of
// today decode to, and TestRecordsKeepEveryField fills every field of both
// records and fails when one is not carried through.

// sessionSections are the session record's sections, by tag: its core,
// and those of the registered keys ([SessionKey]).
var sessionSections = [maxSections]section[Session]{
	0: {name: "core", fields: (*Session).coreFields}, // a composite literal: static data, no init work
}

// projectSections are the project record's sections, by tag: its
// housekeeping, and those of the registered keys ([ProjectKey]).
var projectSections = [maxSections]section[Project]{
	0: {name: "housekeeping", fields: (*Project).coreFields},
}

func (s *Session) coreFields(c *binrec.Codec) {
	c.Str(&s.ID, &s.Host)
	c.Time(&s.Started, &s.Updated)
	c.Str(&s.Cwd, &s.Transcript, &s.Ended)
	n := &s.Counters
	c.Int(&n.Events, &n.Prompts, &n.ToolCalls, &n.Denied, &n.Asked, &n.Failed, &n.Stops, &n.Compacts, &n.Escalations)
	binrec.List(c, &s.Agents, func(a *Agent, c *binrec.Codec) {
		c.Str(&a.ID, &a.Type)
		c.Time(&a.Started, &a.Stopped)
	})
}

func (p *Project) coreFields(c *binrec.Codec) {
	c.Time(&p.Pruned)
	binrec.Maybe(c, &p.Salvaged, func(s *Salvage, c *binrec.Codec) {
		c.Time(&s.Time)
		c.Strs(&s.Lost)
	})
}
