package session

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/sanitize"
	"github.com/atreides-dev/atreides/internal/shell"
	"github.com/atreides-dev/atreides/internal/shellcall"
	"github.com/atreides-dev/atreides/internal/strikes"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// strikesKinds are the events Strikes's handler runs on: a hook
// builds it for those alone.
var strikesKinds = []event.Kind{event.PostTool, event.UserPrompt}

// Strikes counts consecutive failures per tool and target (the normalized
// command or path), so that one flaky command does not mask another, and
// a shell command's failures per intent when it has one (test, build,
// lint, install: shell.RunIntent, read from the guard's walk), so that
// hopping between runners of one failing suite (`npm test`, `npx jest`,
// `yarn test`) counts as the thrashing it is. At
// the warning strike it offers fix suggestions for the error class; at the
// escalation strike it tells the agent to stop repeating itself and to
// consult the oracle agent, then starts that target's count afresh. A
// success on the same target, or of the same intent, clears its count.
func Strikes(opts OptionsFunc) engine.Handler {
	return engine.Handler{
		Name: "strikes", Priority: engine.Normal,
		Kinds:  strikesKinds,
		Groups: strikes.Key.Group() | StopKey.Group() | tasks.OutboxKey.Group(),
		Prepare: func(c *engine.Call) {
			// A failure's intent is walked outside the lock. A success
			// needs it only to end an intent's streak, which is rare: it
			// is walked then (runIntent), so that a preset without the
			// phase tracker adds no walk to every successful command.
			if ev := c.Event; ev.Kind == event.PostTool && ev.Tool.Name == event.Shell && shellFailed(ev) {
				shellcall.Effects(c)
			}
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			return strike(c, opts)
		},
	}
}

func strike(c *engine.Call, opts OptionsFunc) (event.Result, error) {
	ev, s := c.Event, c.State.Session
	if ev.Kind == event.UserPrompt {
		// The user has spoken: an interrupt is answered.
		StopKey.Of(s).Interrupted = false
		return event.Result{}, nil
	}
	tool, target := string(ev.Tool.Name), strikeTarget(ev.Tool)
	text := failureText(ev)
	failed := ev.Failed || (ev.Tool.Name == event.Shell && strongFailure(ev.Output))
	intent := runIntent(c, failed)
	if !failed {
		strikes.Key.Of(s).Clear(tool, target)
		if intent != "" {
			strikes.Key.Of(s).ClearIntent(tool, intent)
		}
		return event.Result{}, nil
	}
	class, excerpt := classifyError(text)
	if ev.Interrupted || class == "interrupted" {
		// Not the agent's failure, and a signal for the stop gate.
		StopKey.Of(s).Interrupted = true
		return event.Result{}, nil
	}
	k := strikes.Key.Of(s).AddRun(tool, target, intent, strikes.StrikeError{
		Class: class, Excerpt: sanitize.String(shorten(strings.TrimSpace(excerpt), 160), 200), Time: ev.Time,
	})
	o := opts().normalize()
	switch {
	case k.Count >= o.EscalateAt:
		msg := escalation(k, o, ev.Host, ev.HostFacts())
		tasks.QueueError(s, escalationError(k, ev))
		if intent != "" {
			strikes.Key.Of(s).ClearIntent(tool, intent)
		} else {
			strikes.Key.Of(s).Clear(tool, target)
		}
		s.Counters.Escalations++
		return event.Result{Context: event.Note("strikes", tool+" "+target, event.High, msg)}, nil
	case k.Count >= o.WarnAt:
		return event.Result{Context: event.Note("strikes", tool+" "+target, event.Normal, warning(k))}, nil
	}
	return event.Result{}, nil
}

// shellFailed reports a shell call that failed, as strike counts it.
func shellFailed(ev *event.Event) bool { return ev.Failed || strongFailure(ev.Output) }

// runIntent is the shell call's run intent (test, build, lint, install;
// "" for none or another tool): for a failure, and for a success only
// while some intent's streak is open, which it may end.
func runIntent(c *engine.Call, failed bool) string {
	if c.Event.Tool.Name != event.Shell {
		return ""
	}
	open := slices.ContainsFunc(strikes.Key.Of(c.State.Session).Targets, func(k strikes.Strike) bool { return k.Intent != "" })
	if !failed && !open {
		return ""
	}
	return shellcall.Effects(c).Intent
}

// escalationError is an escalation as the task board's error log keeps
// it: the strike's class, and the tool and its target as the cause, so
// the same failing command recurs in one entry.
func escalationError(k *strikes.Strike, ev *event.Event) tasks.ErrorEvent {
	var last string
	if n := len(k.Errors); n > 0 {
		last = k.Errors[n-1].Excerpt
	}
	e := tasks.ErrorEvent{
		Type: k.Class, Cause: strings.TrimSpace(k.Tool + " " + k.Target), Agent: ev.AgentID, Time: ev.Time,
		Message: fmt.Sprintf("%s failed %d times in a row: %s", describeTarget(k), k.Count, last),
	}
	if ev.Tool.Command != "" {
		e.Command = k.Target
	}
	return e
}

// failureText is what the error patterns are matched against: the host's
// error text and the output.
func failureText(ev *event.Event) string {
	switch {
	case ev.Error == "" || ev.Error == ev.Output:
		return ev.Output
	case ev.Output == "":
		return ev.Error
	}
	return ev.Error + "\n" + ev.Output
}

// strikeTarget normalizes what a call acted on: a command without
// incidental whitespace and output filters (`| tail -20`, `2>&1`), so that
// the same run asked for twice counts twice; a cleaned path for file tools.
// The target is kept in the state and shown by `status`, so it is
// sanitized (secrets masked before the cut, so no half secret survives);
// masking is deterministic, so the same command still has one target.
func strikeTarget(t event.Tool) string {
	switch {
	case t.Command != "":
		return shorten(sanitize.String(normalizeCommand(t.Command), 0), 200)
	case len(t.Paths) > 0:
		return sanitize.String(filepath.Clean(t.Paths[0]), 200)
	}
	return t.Raw
}

// outputFilters are commands that only shape another command's output.
var outputFilters = []string{"head", "tail", "less", "more", "cat", "grep", "tee", "sort", "uniq", "wc", "cut", "sed", "awk", "jq"}

func normalizeCommand(cmd string) string {
	cmd = strings.Join(strings.Fields(cmd), " ")
	for {
		i := strings.LastIndex(cmd, " | ")
		if i < 0 {
			break
		}
		filter := strings.Fields(cmd[i+3:])
		if len(filter) == 0 || !isOutputFilter(filter[0]) {
			break
		}
		cmd = cmd[:i]
	}
	return strings.TrimSuffix(cmd, " 2>&1")
}

func isOutputFilter(name string) bool {
	for _, f := range outputFilters {
		if name == f {
			return true
		}
	}
	return false
}

func describeTarget(k *strikes.Strike) string {
	if k.Varied {
		// Runners of one intent took turns: the streak is the intent's.
		return fmt.Sprintf("%s (last: `%s`)", intentRuns(k.Intent), k.Target)
	}
	if k.Target == "" {
		return k.Tool
	}
	return fmt.Sprintf("%s `%s`", k.Tool, k.Target)
}

// warning is the warning strike's one line: what failed, how often, and
// the catalogue's advice for its class. What the escalation will ask is
// left for the escalation to say.
func warning(k *strikes.Strike) string {
	return fmt.Sprintf("atreides: %s failed %d times in a row (%s). %s", describeTarget(k), k.Count, k.Class, adviceFor(k.Class))
}

// escalation tells the agent to stop repeating the call: its errors, each
// distinct one once (they are most often the same line), and whom to consult or
// what to do instead, in a few lines.
func escalation(k *strikes.Strike, o Options, hostName string, host *event.HostFacts) string {
	var b strings.Builder
	fmt.Fprintf(&b, "atreides escalation: %s failed %d times in a row", describeTarget(k), k.Count)
	var seen []string // each distinct error once, oldest first
	for _, e := range k.Errors {
		if line := e.Class + ": " + e.Excerpt; !slices.Contains(seen, line) {
			seen = append(seen, line)
		}
	}
	if len(seen) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(seen, "; "))
	}
	b.WriteString(". Stop repeating it. ")
	if a, call := oracle(o, hostName, host); call != "" {
		fmt.Fprintf(&b, "Next: consult %s (%s) with the error and what you tried", a.Name, call)
		if o.Announce {
			b.WriteString(", and tell the user")
		}
		b.WriteString(". ")
	} else {
		b.WriteString("Check your assumptions against the code and change your approach. ")
	}
	b.WriteString("If still stuck, revert to a working state and ask the user.")
	return b.String()
}

// oracle is the agent failures are escalated to and how the host starts
// it; call is "" when there is none the host can start. It is the
// roster's oracle only when the host has it (installed, not deleted);
// else the fallback the host has (its own general agent), named by its
// id; else none.
func oracle(o Options, hostName string, host *event.HostFacts) (a Agent, call string) {
	a, ok := o.agent(o.Oracle)
	if !ok {
		return Agent{}, ""
	}
	if o.EscalateTo != nil {
		id, fallback := o.EscalateTo(hostName)
		switch {
		case id == "":
			return Agent{}, ""
		case fallback:
			a = Agent{ID: id, Name: "the " + id + " agent"}
		}
	}
	return a, host.CallOf(a.ID)
}

// intentRuns names an intent's runs as the agent reads them.
func intentRuns(intent string) string {
	switch intent {
	case shell.IntentInstall:
		return "installs"
	case shell.IntentBuild:
		return "builds"
	}
	return intent + " runs"
}
