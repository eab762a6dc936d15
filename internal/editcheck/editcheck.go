package editcheck

import (
	"context"
	"errors"
	"fmt"

	"os/exec"
	"path"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/sanitize"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/bmatcuk/doublestar/v4"
	"mvdan.cc/sh/v3/syntax"
)

// Check is one configured command.
type Check struct {
	Globs   []string // project-relative doublestar globs
	Command string   // sh script; {file} and {dir} are "$1" and "$2"
	// Timeout bounds one run (zero: what is left of the budget).
	Timeout time.Duration
	// FailOnOutput makes any output a finding, even with exit status 0
	// (gofmt -l lists badly formatted files and exits 0).
	FailOnOutput bool
}

// Options are the handler's settings.
type Options struct {
	Checks []Check
	// Budget bounds all the checks of one event together.
	Budget time.Duration
	// Judge is the guard's judgement of a command before it runs
	// (policy.JudgeRun): nil when it may run, else why not. A check it
	// refuses is skipped and logged, never run; without a Judge no check
	// runs at all.
	Judge func(command string) error
}

// Output limits: what is read of a check's output, and what of it reaches
// the model.
const (
	maxRead  = 64 << 10
	maxLines = 20
	maxLine  = 300
)

// reserve is the time kept, before the hook's deadline, for the rest of
// the event: the lock, the other handlers, the save and the answer.
const reserve = 300 * time.Millisecond

// HandlerKinds are the events [Handler]'s handler runs on: a hook
// builds it for those alone.
var HandlerKinds = []event.Kind{event.PostTool}

// Handler runs the checks after a successful write or edit. opts is asked
// for only on such events.
func Handler(opts func() Options) engine.Handler {
	return engine.Handler{
		Name: "edit-checks", Priority: engine.Normal,
		Kinds:  HandlerKinds,
		Groups: state.NoGroups,
		// The checks ran when the edit was made; a replay of the event
		// would run them on the file as it is now.
		Outside: true,
		Prepare: func(c *engine.Call) {
			ev := c.Event
			if ev.Failed || ev.Tool.Name != event.Write && ev.Tool.Name != event.Edit || len(ev.Tool.Paths) == 0 {
				return
			}
			o := opts()
			if len(o.Checks) == 0 {
				return
			}
			c.Memo.Set(findingsKey{}, run(c, o))
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			v, _ := c.Memo.Get(findingsKey{})
			es, _ := v.([]event.Entry)
			return event.Result{Context: es}, nil
		},
	}
}

type findingsKey struct{}

// job is one command to run: a check with its arguments.
type job struct {
	check     *Check
	file, dir string // project-relative; "" when the command names neither
}

// jobsFor lists the runs an edit of paths calls for, in configuration order and
// then path order, without repeats. Paths are absolute or relative to
// cwd; those outside root are not checked.
func jobsFor(checks []Check, root, cwd string, paths []string) []job {
	var out []job
	seen := map[string]bool{}
	for i := range checks {
		ch := &checks[i]
		usesFile, usesDir := strings.Contains(ch.Command, "{file}"), strings.Contains(ch.Command, "{dir}")
		for _, p := range paths {
			rel, ok := project.Rel(root, cwd, p)
			if !ok || !matches(ch.Globs, rel) {
				continue
			}
			j := job{check: ch}
			if usesFile {
				j.file = rel
			}
			if usesFile || usesDir {
				j.dir = path.Dir(rel)
			}
			key := fmt.Sprintf("%d\x00%s\x00%s", i, j.file, j.dir)
			if !seen[key] {
				seen[key] = true
				out = append(out, j)
			}
		}
	}
	return out
}

func matches(globs []string, rel string) bool {
	for _, g := range globs {
		if ok, _ := doublestar.Match(g, rel); ok {
			return true
		}
	}
	return false
}

// run runs the checks an event's edit calls for and returns their
// findings as context entries.
func run(c *engine.Call, o Options) []event.Entry {
	ev := c.Event
	jobs := jobsFor(o.Checks, ev.ProjectDir, ev.Cwd, ev.Tool.Paths)
	if len(jobs) == 0 {
		return nil
	}
	end := time.Now().Add(o.Budget)
	if !c.Deadline.IsZero() && c.Deadline.Add(-reserve).Before(end) {
		end = c.Deadline.Add(-reserve)
	}
	var out []event.Entry
	refused := map[*Check]bool{}
	for i, j := range jobs {
		if refused[j.check] {
			continue
		}
		if err := judge(o.Judge, j); err != nil {
			// The log, not the model: the agent cannot change a check, and
			// it would hear the same refusal after every edit.
			refused[j.check] = true
			c.Env.Logf("check %q not run after an edit: %v", j.check.Command, err)
			continue
		}
		left := time.Until(end)
		if left <= 0 {
			c.Env.Logf("checks after an edit: %d of %d not run, their time budget was spent", len(jobs)-i, len(jobs))
			out = append(out, event.Note("checks", "budget", event.High,
				fmt.Sprintf("atreides: %d check(s) after this edit did not run: their time budget was spent.", len(jobs)-i))...)
			break
		}
		limit := left
		if j.check.Timeout > 0 && j.check.Timeout < limit {
			limit = j.check.Timeout
		}
		r := runOne(ev.ProjectDir, j, limit)
		if text := r.finding(j); text != "" {
			if r.timedOut {
				c.Env.Logf("check %q on %s timed out after %s", j.check.Command, j.file, limit.Round(time.Millisecond))
			}
			out = append(out, event.Note("checks", j.check.Command+"\x00"+j.file+"\x00"+j.dir, event.High, text)...)
		}
	}
	return out
}

// result is what one run gave.
type result struct {
	output   string
	code     int // exit status; -1 when it did not exit (killed, not started)
	timedOut bool
	err      error // the command could not be started
	limit    time.Duration
}

func runOne(root string, j job, limit time.Duration) result {
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	script := strings.NewReplacer("{file}", `"$1"`, "{dir}", `"$2"`).Replace(j.check.Command)
	cmd := exec.CommandContext(ctx, "sh", "-c", script, "sh", argPath(j.file), argPath(j.dir))
	cmd.Dir = root
	cmd.Stdin = nil
	var buf capped
	cmd.Stdout, cmd.Stderr = &buf, &buf
	killGroup(cmd)
	cmd.WaitDelay = 100 * time.Millisecond
	err := cmd.Run()
	r := result{output: string(buf.b), code: cmd.ProcessState.ExitCode(), limit: limit}
	var exit *exec.ExitError
	switch {
	case ctx.Err() == context.DeadlineExceeded:
		r.timedOut = true
	case err != nil && !errors.As(err, &exit) && !errors.Is(err, exec.ErrWaitDelay):
		r.err = err
	}
	return r
}

// judge asks the guard about the job's command as `sh -c` will run it:
// the script with the file and directory quoted where "$1" and "$2" are.
func judge(judge func(string) error, j job) error {
	if judge == nil {
		return errors.New("no guard to judge it")
	}
	file, err := syntax.Quote(argPath(j.file), syntax.LangBash)
	if err != nil {
		return fmt.Errorf("file name %q: %w", j.file, err)
	}
	dir, err := syntax.Quote(argPath(j.dir), syntax.LangBash)
	if err != nil {
		return fmt.Errorf("directory name %q: %w", j.dir, err)
	}
	return judge(strings.NewReplacer("{file}", file, "{dir}", dir).Replace(j.check.Command))
}

// argPath keeps a relative path that starts with a dash from being read
// as an option.
func argPath(p string) string {
	if strings.HasPrefix(p, "-") {
		return "./" + p
	}
	return p
}

// finding is the note for the model, "" for a clean run.
func (r result) finding(j job) string {
	on := ""
	if j.file != "" {
		on = " on " + j.file
	} else if j.dir != "" {
		on = " in " + j.dir
	}
	cmd := sanitize.String(j.check.Command, 200)
	switch {
	case r.timedOut:
		return fmt.Sprintf("atreides: the check `%s`%s did not finish within %s; its result is unknown.", cmd, on, r.limit.Round(time.Millisecond))
	case r.err != nil:
		return fmt.Sprintf("atreides: the check `%s`%s could not run: %s", cmd, on, sanitize.String(r.err.Error(), maxLine))
	case r.code == 0 && (!j.check.FailOnOutput || strings.TrimSpace(r.output) == ""):
		return ""
	}
	head := fmt.Sprintf("atreides: the check `%s`%s failed (exit status %d)", cmd, on, r.code)
	if r.code == 0 {
		head = fmt.Sprintf("atreides: the check `%s`%s reported", cmd, on)
	}
	if strings.TrimSpace(r.output) == "" {
		return head + ", without output."
	}
	return head + ". Fix what it found:\n" + excerpt(r.output)
}

// excerpt is the output's first lines, each sanitized and capped, with a
// count of the lines left out.
func excerpt(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	var b strings.Builder
	for i, l := range lines {
		if i == maxLines {
			fmt.Fprintf(&b, "… (%d more lines)\n", len(lines)-maxLines)
			break
		}
		b.WriteString(sanitize.String(strings.TrimRight(l, "\r"), maxLine))
		b.WriteByte('\n')
	}
	return strings.TrimRight(b.String(), "\n")
}

// capped keeps the first maxRead bytes written to it and drops the rest,
// so a check that prints megabytes neither blocks nor fills memory.
type capped struct{ b []byte }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxRead - len(c.b); room > 0 {
		c.b = append(c.b, p[:min(len(p), room)]...)
	}
	return len(p), nil
}

// FromConfig maps the configuration's context.checks section; the caller
// adds Judge.
func FromConfig(cfg *config.Config) Options {
	c := &cfg.Context.Checks
	o := Options{Budget: time.Duration(c.BudgetMS) * time.Millisecond}
	for _, ch := range c.Run {
		globs := make([]string, len(ch.Globs))
		for i, g := range ch.Globs {
			globs[i] = string(g)
		}
		o.Checks = append(o.Checks, Check{Globs: globs, Command: ch.Command,
			Timeout: time.Duration(ch.TimeoutMS) * time.Millisecond, FailOnOutput: ch.FailOnOutput})
	}
	return o
}
