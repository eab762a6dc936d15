package state

import "github.com/atreides-dev/atreides/internal/binrec"

// The task board record's section and the error outbox's (see sections.go for
// the rules: fields in a fixed order, new ones at the end).

// putTasks writes the board record's one section, the core: always
// written, even for an empty board.
func putTasks(w *binrec.Writer, t *Tasks) {
	w.Int(t.Next)
	binrec.PutSlice(w, t.List, putTask)
	w.Int(t.NextError)
	binrec.PutSlice(w, t.Errors, putTaskError)
	w.Int(t.Gen)
	w.Int(t.Files.Gen)
	w.Str(t.Files.TodoHash)
	w.Time(t.Files.Written)
	w.Str(t.Files.Err)
}

func getTasks(r *binrec.Reader, t *Tasks) {
	t.Next = r.Int()
	t.List = binrec.Slice(r, 0, getTask)
	t.NextError = r.Int()
	t.Errors = binrec.Slice(r, 0, getTaskError)
	t.Gen = r.Int()
	t.Files.Gen = r.Int()
	t.Files.TodoHash = r.Str()
	t.Files.Written = r.Time()
	t.Files.Err = r.Str()
}

// putApprovals writes each task's ApprovedHash with its number; nothing
// when no task has one.
func putApprovals(w *binrec.Writer, t *Tasks) {
	n := 0
	for i := range t.List {
		if t.List[i].ApprovedHash != "" {
			n++
		}
	}
	if n == 0 {
		return
	}
	w.Uint(uint64(n))
	for i := range t.List {
		if task := &t.List[i]; task.ApprovedHash != "" {
			w.Int(task.Number)
			w.Str(task.ApprovedHash)
		}
	}
}

// getApprovals gives each task its ApprovedHash. They were written in the
// board's order, so one pass finds them; one for a task the board does
// not hold is dropped.
func getApprovals(r *binrec.Reader, t *Tasks) {
	i := 0
	for n := r.Count(2); n > 0 && r.Err() == nil; n-- {
		number, hash := r.Int(), r.Str()
		for j := i; j < len(t.List); j++ {
			if t.List[j].Number == number {
				t.List[j].ApprovedHash, i = hash, j+1
				break
			}
		}
	}
}

func putInts(w *binrec.Writer, v []int) {
	binrec.PutSlice(w, v, func(w *binrec.Writer, n *int) { w.Int(*n) })
}

func getInts(r *binrec.Reader) []int {
	return binrec.Slice(r, 0, func(r *binrec.Reader, n *int) { *n = r.Int() })
}

func putTask(w *binrec.Writer, t *Task) {
	w.Int(t.Number)
	for _, s := range []string{t.Title, t.Description, t.Status, t.Reason, t.Priority, t.Effort, t.Language} {
		w.Str(s)
	}
	w.Int(t.Parent)
	putInts(w, t.BlockedBy)
	w.Strs(t.Research)
	w.Strs(t.Plans)
	w.Int(t.Approved)
	w.Int(t.Phase)
	putInts(w, t.Errors)
	w.Time(t.Created)
	w.Time(t.Updated)
	w.Time(t.Started)
	w.Time(t.Completed)
	w.Str(t.Claim.Session)
	w.Str(t.Claim.Agent)
	w.Time(t.Claim.Time)
	w.Uint(t.Committed)
}

func getTask(r *binrec.Reader, t *Task) {
	t.Number = r.Int()
	for _, s := range []*string{&t.Title, &t.Description, &t.Status, &t.Reason, &t.Priority, &t.Effort, &t.Language} {
		*s = r.Str()
	}
	t.Parent = r.Int()
	t.BlockedBy = getInts(r)
	t.Research = r.Strs()
	t.Plans = r.Strs()
	t.Approved = r.Int()
	t.Phase = r.Int()
	t.Errors = getInts(r)
	t.Created = r.Time()
	t.Updated = r.Time()
	t.Started = r.Time()
	t.Completed = r.Time()
	t.Claim.Session = r.Str()
	t.Claim.Agent = r.Str()
	t.Claim.Time = r.Time()
	t.Committed = r.Uint()
}

func putTaskError(w *binrec.Writer, e *TaskError) {
	w.Int(e.Number)
	for _, s := range []string{e.Type, e.Severity, e.Cause, e.Message, e.Context.Command} {
		w.Str(s)
	}
	w.Int(e.Context.Task)
	w.Str(e.Context.Agent)
	w.Str(e.Context.Session)
	w.Time(e.First)
	w.Time(e.Last)
	w.Int(e.Count)
	w.Str(e.Fix)
	w.Strs(e.FixRefs)
	w.Time(e.Fixed)
	w.Int(e.Recurred)
}

func getTaskError(r *binrec.Reader, e *TaskError) {
	e.Number = r.Int()
	for _, s := range []*string{&e.Type, &e.Severity, &e.Cause, &e.Message, &e.Context.Command} {
		*s = r.Str()
	}
	e.Context.Task = r.Int()
	e.Context.Agent = r.Str()
	e.Context.Session = r.Str()
	e.First = r.Time()
	e.Last = r.Time()
	e.Count = r.Int()
	e.Fix = r.Str()
	e.FixRefs = r.Strs()
	e.Fixed = r.Time()
	e.Recurred = r.Int()
}

func putErrorEvent(w *binrec.Writer, e *ErrorEvent) {
	for _, s := range []string{e.Type, e.Severity, e.Cause, e.Message, e.Command, e.Agent} {
		w.Str(s)
	}
	w.Time(e.Time)
}

func getErrorEvent(r *binrec.Reader, e *ErrorEvent) {
	for _, s := range []*string{&e.Type, &e.Severity, &e.Cause, &e.Message, &e.Command, &e.Agent} {
		*s = r.Str()
	}
	e.Time = r.Time()
}
