package shellcall

import (
	"os"
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/shell"
)

// Budget bounds the guard's analysis of one event; a command that takes
// longer is judged parse.too-complex (a deny). It leaves the rest of the
// hook's budget for the state and the answer.
const Budget = 2 * time.Second

// Deadline is when an analysis for c gives up: after Budget, or at the
// event's deadline if that comes first (a serve request the plugin
// stopped waiting for).
func Deadline(c *engine.Call) time.Time {
	d := time.Now().Add(Budget)
	if !c.Deadline.IsZero() && c.Deadline.Before(d) {
		return c.Deadline
	}
	return d
}

// effectsKey keeps the event's shell effects in its memo.
type effectsKey struct{}

// Effects is what the event's shell command does (shell.Effects),
// computed once per event: by the guard's own walk when it judged the
// command (Remember), else here, within Budget. Handlers that need it
// call it from Prepare, so the walk runs before the state lock is taken.
func Effects(c *engine.Call) shell.Effects {
	if e, ok := Remembered(c); ok {
		return e
	}
	ev := c.Event
	cwd := ev.Cwd
	if cwd == "" {
		cwd = ev.ProjectDir
	}
	r := Request(ev.Tool.Command, cwd, ev.ProjectDir)
	r.Deadline = Deadline(c)
	e := guard.ShellEffects(r)
	Remember(c, e)
	return e
}

// Remember keeps e as the effects of c's shell command: the judging walk
// is the shell model, so the other handlers read its effects instead of
// walking again.
func Remember(c *engine.Call, e shell.Effects) { c.Memo.Set(effectsKey{}, e) }

// Remembered is the effects kept for c, if any.
func Remembered(c *engine.Call) (shell.Effects, bool) {
	v, ok := c.Memo.Get(effectsKey{})
	if !ok {
		return shell.Effects{}, false
	}
	return v.(shell.Effects), true
}

// Request is a shell request with what guard.ShellEffects needs (where
// the command runs, the machine's home and temporary directories, a
// resolver), without atreides's own paths, which only the judging walk
// uses (policy.NewRequest adds them).
func Request(cmd, cwd, root string) guard.Request {
	return guard.Request{Tool: "shell", Command: cmd, Cwd: cwd, Home: home(), ProjectRoot: root,
		TempDirs: tempDirs(), Resolve: Resolver(), Readlink: os.Readlink, ReadScript: ReadScript}
}

// home is the user's home directory, "" when unknown.
func home() string {
	h, _ := os.UserHomeDir()
	return h
}

// tempDirs are the directories whose contents are scratch space.
func tempDirs() []string {
	dirs := []string{"/tmp", "/var/tmp"}
	if t := os.Getenv("TMPDIR"); t != "" {
		dirs = append(dirs, filepath.Clean(t))
	}
	return dirs
}
