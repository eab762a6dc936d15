package agenttools

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/taskboard"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// taskTools create tasks on the project's task board, move them through
// their lifecycle, claim them and list those ready to start; package
// tasks checks every change, as for the command line. The caller's
// session (the tools' one session binding) is the claimer.
func taskTools() []Tool {
	return []Tool{{
		Name:        "task_create",
		Description: "Create a task on atreides's task board (.atreides/specs/TODO.md); returns its number.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"title":{"type":"string","maxLength":4096,"description":"what the task is, one line"},` +
			`"description":{"type":"string","maxLength":65536,"description":"details: the goal, constraints, acceptance"},` +
			`"priority":{"type":"string","maxLength":4096,"description":"critical, high, medium (default) or low"},` +
			`"effort":{"type":"string","maxLength":4096,"description":"an estimate, e.g. 2h"},` +
			`"language":{"type":"string","maxLength":4096,"description":"the task's main language, e.g. go"},` +
			`"parent":{"type":"integer","description":"the number of the parent task"},` +
			`"blocked_by":{"type":"array","maxItems":256,"items":{"type":"integer"},"description":"numbers of the tasks that must be completed first"}` +
			`},"required":["title"],"additionalProperties":false}`),
		Call: taskCreate,
	}, {
		Name:        "task_update_status",
		Description: "Move a task on: start, done, abandon, block (with a reason), researched or planned.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"number":{"type":"integer","description":"the task's number"},` +
			`"status":{"type":"string","maxLength":4096,"enum":["start","done","abandon","block","researched","planned"],"description":"start (in progress), done (completed), abandon, block, researched or planned"},` +
			`"reason":{"type":"string","maxLength":65536,"description":"why: required to block, kept for abandon"}` +
			`},"required":["number","status"],"additionalProperties":false}`),
		Call: taskUpdateStatus,
	}, {
		Name:        "task_claim",
		Description: "Claim a task for this session, so no other session or agent works on it; fails naming the holder when someone else has it.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"number":{"type":"integer","description":"the task's number"}` +
			`},"required":["number"],"additionalProperties":false}`),
		Call: taskClaim,
	}, {
		Name:        "task_ready",
		Description: "List the tasks that can start now (no open dependency, not claimed by someone else), most urgent first.",
		Schema:      json.RawMessage(noArgs),
		Call:        taskReady,
	}, {
		Name:        "error_record",
		Description: "Record an error on the project's error log (.atreides/specs/errors.json), tied to this session and the task it claims; the same type and cause recurring is counted on one entry. Returns the error's number and whether it recurred.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"type":{"type":"string","maxLength":4096,"enum":` + jsonList(tasks.ErrorTypes()) + `,"description":"the kind of error"},` +
			`"message":{"type":"string","maxLength":65536,"description":"what happened, e.g. the failing command's error line"},` +
			`"cause":{"type":"string","maxLength":65536,"description":"the cause in a few words, what recurrences share (default: the message)"},` +
			`"command":{"type":"string","maxLength":65536,"description":"the command that failed"},` +
			`"severity":{"type":"string","maxLength":4096,"enum":` + jsonList(tasks.Severities) + `,"description":"default: the type's"}` +
			`},"required":["type","message"],"additionalProperties":false}`),
		Call: errorRecord,
	}, {
		Name:        "phase_done",
		Description: "Verify a phase of a task's plan (its Verify: command) and, only when it passes, mark it [COMPLETED] and make the scoped commit; returns the verification's result and the next phase.",
		Schema: json.RawMessage(`{"type":"object","properties":{` +
			`"number":{"type":"integer","description":"the task's number"},` +
			`"phase":{"type":"integer","description":"the phase (1-based); default: the first one not completed"}` +
			`},"required":["number"],"additionalProperties":false}`),
		Call: phaseDone,
	}}
}

// jsonList is a JSON array of the strings (plain words: no escaping).
func jsonList(words []string) string {
	return `["` + strings.Join(words, `","`) + `"]`
}

// lifecycleStatus maps the tool's status word to the lifecycle's (a
// switch, not a map: no init work in the hook binary).
func lifecycleStatus(word string) (string, bool) {
	switch word {
	case "start":
		return tasks.InProgress, true
	case "done":
		return tasks.Completed, true
	case "abandon":
		return tasks.Abandoned, true
	case "block":
		return tasks.Blocked, true
	case "researched":
		return tasks.Researched, true
	case "planned":
		return tasks.Planned, true
	}
	return "", false
}

// board opens the project's task board on the caller's store and clock.
func (e *Env) board() *tasks.Repo {
	r := tasks.Open(e.Root, tasks.LoadOptions(e.Root))
	r.Store, r.Now, r.Hosts = e.Store, e.Now, e.Guard
	return r
}

// claimer is who the call acts for on the board: the caller's session
// and agent. The session is read before the board's transaction (it may
// need the project's recent sessions); an unknown session is "".
func (e *Env) claimer(ctx context.Context) (taskboard.TaskClaim, error) {
	if e.Session != "" {
		return taskboard.TaskClaim{Session: e.Session, Agent: e.Agent}, nil
	}
	p, err := e.project(ctx)
	if err != nil {
		return taskboard.TaskClaim{}, err
	}
	id, _ := e.session(p)
	return taskboard.TaskClaim{Session: id, Agent: e.Agent}, nil
}

func taskCreate(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	var in struct {
		Title       string `json:"title"`
		Description string `json:"description"`
		Priority    string `json:"priority"`
		Effort      string `json:"effort"`
		Language    string `json:"language"`
		Parent      int    `json:"parent"`
		BlockedBy   []int  `json:"blocked_by"`
	}
	if err := parse(args, &in, "title"); err != nil {
		return "", err
	}
	var t taskboard.Task
	err := e.board().Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		added, err := tasks.Add(b, tasks.NewTask{
			Title: in.Title, Description: in.Description, Priority: in.Priority, Effort: in.Effort,
			Lang: in.Language, Parent: in.Parent, BlockedBy: in.BlockedBy,
		}, now)
		if err == nil {
			t = *added
		}
		return err
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("created task %d (%s): %s", t.Number, t.Priority, t.Title), nil
}

func taskUpdateStatus(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	var in struct {
		Number int    `json:"number"`
		Status string `json:"status"`
		Reason string `json:"reason"`
	}
	if err := parse(args, &in, "number", "status"); err != nil {
		return "", err
	}
	status, ok := lifecycleStatus(in.Status)
	if !ok {
		return "", fmt.Errorf("invalid arguments: status %q is not one of start, done, abandon, block, researched, planned", in.Status)
	}
	var t taskboard.Task
	var worker string // the claim completing clears: the scoped commit's session
	r := e.board()
	err := r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		if t := b.Task(in.Number); t != nil {
			worker = t.Claim.Session
		}
		changed, err := tasks.SetStatus(b, in.Number, status, in.Reason, now)
		if err == nil {
			t = *changed
		}
		return err
	})
	if err != nil {
		return "", err
	}
	out := fmt.Sprintf("task %d is now %s: %s", t.Number, t.Status, t.Title)
	if t.Reason != "" {
		out += " (" + t.Reason + ")"
	}
	if status == tasks.Completed {
		res, err := r.CommitScoped(ctx, tasks.Commit{Task: t.Number, Session: worker})
		if err != nil {
			return "", err
		}
		if s := res.Summary(); s != "" {
			out += "\n" + s
		}
	}
	return out, nil
}

func taskClaim(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	var in struct {
		Number int `json:"number"`
	}
	if err := parse(args, &in, "number"); err != nil {
		return "", err
	}
	by, err := e.claimer(ctx)
	if err != nil {
		return "", err
	}
	if by.Session == "" {
		return "", fmt.Errorf("cannot claim task %d: atreides has not seen a session of this project yet", in.Number)
	}
	err = e.board().Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		_, err := tasks.Claim(b, in.Number, by, false, now)
		return err
	})
	if ce := (*tasks.ClaimedError)(nil); errors.As(err, &ce) {
		return "", fmt.Errorf("%w: choose another task (%s lists those free), or ask the user before taking it over", err, e.toolName("task_ready"))
	}
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("task %d is claimed by session %s", in.Number, by.Session), nil
}

func taskReady(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	if err := parse(args, &struct{}{}); err != nil {
		return "", err
	}
	by, err := e.claimer(ctx)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	err = e.board().View(ctx, func(board *taskboard.Tasks) error {
		for _, t := range tasks.Ready(board, by) {
			fmt.Fprintf(&b, "%d %s %s: %s\n", t.Number, tasks.Marker(t.Status), t.Priority, t.Title)
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	if b.Len() == 0 {
		return "No task is ready to start.", nil
	}
	return b.String(), nil
}

func errorRecord(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	var in struct {
		Type     string `json:"type"`
		Message  string `json:"message"`
		Cause    string `json:"cause"`
		Command  string `json:"command"`
		Severity string `json:"severity"`
	}
	if err := parse(args, &in, "type", "message"); err != nil {
		return "", err
	}
	if !tasks.KnownErrorType(in.Type) {
		return "", fmt.Errorf("invalid arguments: type %q is not one of %s", in.Type, strings.Join(tasks.ErrorTypes(), ", "))
	}
	if in.Severity != "" && !slices.Contains(tasks.Severities, in.Severity) {
		return "", fmt.Errorf("invalid arguments: severity %q is not one of %s", in.Severity, strings.Join(tasks.Severities, ", "))
	}
	if strings.TrimSpace(in.Message) == "" {
		return "", errors.New("invalid arguments: the message is empty")
	}
	by, err := e.claimer(ctx)
	if err != nil {
		return "", err
	}
	var rec taskboard.TaskError
	err = e.board().Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		where := taskboard.TaskErrorContext{Session: by.Session, Agent: by.Agent}
		if t := claimedTask(b, by); t != nil {
			where.Task = t.Number
		}
		ev := tasks.ErrorEvent{Type: in.Type, Severity: in.Severity, Cause: in.Cause, Message: in.Message, Command: in.Command, Time: now}
		rec = *tasks.Record(b, ev, where, now)
		return nil
	})
	if err != nil {
		return "", err
	}
	out := fmt.Sprintf("recorded error %d (%s, %s)", rec.Number, rec.Type, rec.Severity)
	switch {
	case rec.Fix == tasks.FixRecurred:
		out = fmt.Sprintf("error %d (%s) recurred after its fix: seen %d times; its fix did not hold", rec.Number, rec.Type, rec.Count)
	case rec.Count > 1:
		out = fmt.Sprintf("error %d (%s) recurred: seen %d times since %s", rec.Number, rec.Type, rec.Count, rec.First.UTC().Format(time.RFC3339))
	}
	if rec.Context.Task > 0 {
		out += fmt.Sprintf("; task %d", rec.Context.Task)
	}
	return out, nil
}

// claimedTask is the task the caller works on: the one its agent claims,
// else one its session claims (in progress first); nil when none.
func claimedTask(b *taskboard.Tasks, by taskboard.TaskClaim) *taskboard.Task {
	for _, agent := range []string{by.Agent, "*"} {
		if ts := tasks.Claimed(b, by.Session, agent); len(ts) > 0 {
			return ts[0]
		}
	}
	return nil
}

func phaseDone(ctx context.Context, e *Env, args json.RawMessage) (string, error) {
	var in struct {
		Number int `json:"number"`
		Phase  int `json:"phase"`
	}
	if err := parse(args, &in, "number"); err != nil {
		return "", err
	}
	if in.Phase < 0 {
		return "", fmt.Errorf("invalid arguments: phase %d is not a phase number", in.Phase)
	}
	d, err := e.board().CompletePhase(ctx, in.Number, in.Phase)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	switch v := d.Verification; {
	case d.Already && d.Phase == 0:
		return fmt.Sprintf("every phase of task %d's plan is completed already: the task can be marked done", in.Number), nil
	case d.Already:
		return fmt.Sprintf("phase %d of task %d is completed already", d.Phase, in.Number), nil
	case v == nil:
		fmt.Fprintf(&b, "phase %d of task %d has no verification command (a \"Verify:\" line, or tasks.plans.verify): marked completed unverified", d.Phase, in.Number)
	case v.Refused != nil:
		// No one to ask here: a command the guard asks about waits for
		// the user at a terminal.
		msg := fmt.Sprintf("phase %d of task %d is not completed: verify not run: %v (the command: `%s`)", d.Phase, in.Number, v.Refused, v.Command)
		if policy.Asks(v.Refused) {
			msg += fmt.Sprintf("; ask the user to confirm it by running `atreides plan phase-done %d %d` at a terminal", in.Number, d.Phase)
		}
		return "", errors.New(msg)
	case !v.Passed:
		return "", fmt.Errorf("phase %d of task %d is not completed: its verification `%s` failed: %s. The end of its output:\n%s",
			d.Phase, in.Number, v.Command, v.Problem, strings.TrimRight(v.Tail, "\n"))
	default:
		fmt.Fprintf(&b, "phase %d of task %d verified: `%s` passed (%s); marked completed", d.Phase, in.Number, v.Command, v.Duration.Round(10*time.Millisecond))
	}
	fmt.Fprintf(&b, ": %s\n", d.Title)
	if s := d.Commit.Summary(); s != "" {
		b.WriteString(s + "\n")
	}
	if d.Next == 0 {
		fmt.Fprintf(&b, "every phase is completed: the task can be marked done (%s, status done)", e.toolName("task_update_status"))
	} else {
		fmt.Fprintf(&b, "next: phase %d: %s", d.Next, d.NextTitle)
	}
	return b.String(), nil
}
