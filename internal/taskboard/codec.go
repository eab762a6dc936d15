package taskboard

import "github.com/atreides-dev/atreides/internal/binrec"

// The task board record's sections (see state's sections.go for the
// rules: fields in a fixed order, new ones at the end).

// fields is the board record's one section, the core: always written,
// even for an empty board.
func (t *Tasks) fields(c *binrec.Codec) {
	c.Int(&t.Next)
	binrec.List(c, &t.List, (*Task).fields)
	c.Int(&t.NextError)
	binrec.List(c, &t.Errors, (*TaskError).fields)
	c.Int(&t.Gen, &t.Files.Gen)
	c.Str(&t.Files.TodoHash)
	c.Time(&t.Files.Written)
	c.Str(&t.Files.Err)
}

// approvals codes each task's ApprovedHash with its number; nothing when
// no task has one. They are written in the board's order, so one pass
// reads them back; one for a task the board does not hold is dropped.
func (t *Tasks) approvals(c *binrec.Codec) {
	if c.Decoding() {
		r, i := c.R, 0
		for n := r.Count(2); n > 0 && r.Err() == nil; n-- {
			number, hash := r.Int(), r.Str()
			for j := i; j < len(t.List); j++ {
				if t.List[j].Number == number {
					t.List[j].ApprovedHash, i = hash, j+1
					break
				}
			}
		}
		return
	}
	n := 0
	for i := range t.List {
		if t.List[i].ApprovedHash != "" {
			n++
		}
	}
	if n == 0 {
		return
	}
	c.W.Uint(uint64(n))
	for i := range t.List {
		if task := &t.List[i]; task.ApprovedHash != "" {
			c.Int(&task.Number)
			c.Str(&task.ApprovedHash)
		}
	}
}

// plans codes each task's phase statuses and approved plan text with its
// number, as approvals does; nothing when no task has either.
func (t *Tasks) plans(c *binrec.Codec) {
	if c.Decoding() {
		r, i := c.R, 0
		for n := r.Count(4); n > 0 && r.Err() == nil; n-- {
			number, version, status, text := r.Int(), r.Int(), r.Strs(), r.Str()
			for j := i; j < len(t.List); j++ {
				if task := &t.List[j]; task.Number == number {
					task.PhaseVersion, task.PhaseStatus, task.ApprovedText, i = version, status, text, j+1
					break
				}
			}
		}
		return
	}
	has := func(t *Task) bool { return t.PhaseVersion > 0 || t.ApprovedText != "" }
	n := 0
	for i := range t.List {
		if has(&t.List[i]) {
			n++
		}
	}
	if n == 0 {
		return
	}
	c.W.Uint(uint64(n))
	for i := range t.List {
		if task := &t.List[i]; has(task) {
			c.Int(&task.Number, &task.PhaseVersion)
			c.Strs(&task.PhaseStatus)
			c.Str(&task.ApprovedText)
		}
	}
}

// cleaned codes the numbers of the tasks taken off TODO.md.
func (t *Tasks) cleaned(c *binrec.Codec) {
	if c.Decoding() || len(t.Cleaned) > 0 {
		binrec.List(c, &t.Cleaned, codeInt)
	}
}

func (t *Task) fields(c *binrec.Codec) {
	c.Int(&t.Number)
	c.Str(&t.Title, &t.Description, &t.Status, &t.Reason, &t.Priority, &t.Effort, &t.Language)
	c.Int(&t.Parent)
	binrec.List(c, &t.BlockedBy, codeInt)
	c.Strs(&t.Research, &t.Plans)
	c.Int(&t.Approved, &t.Phase)
	binrec.List(c, &t.Errors, codeInt)
	c.Time(&t.Created, &t.Updated, &t.Started, &t.Completed)
	c.Str(&t.Claim.Session, &t.Claim.Agent)
	c.Time(&t.Claim.Time)
	c.Uint(&t.Committed)
}

func (e *TaskError) fields(c *binrec.Codec) {
	c.Int(&e.Number)
	c.Str(&e.Type, &e.Severity, &e.Cause, &e.Message, &e.Context.Command)
	c.Int(&e.Context.Task)
	c.Str(&e.Context.Agent, &e.Context.Session)
	c.Time(&e.First, &e.Last)
	c.Int(&e.Count)
	c.Str(&e.Fix)
	c.Strs(&e.FixRefs)
	c.Time(&e.Fixed)
	c.Int(&e.Recurred)
}

func codeInt(n *int, c *binrec.Codec) { c.Int(n) }
