package readfirst

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/shellcall"
)

// Mode is what an unread edit gets.
type Mode int

// The modes.
const (
	Off   Mode = iota
	Note       // a note for the agent, delivered with the next carrier
	Block      // the call is denied
)

// ParseMode reads a mode's configuration name; anything else is Note.
func ParseMode(s string) Mode {
	switch s {
	case "off":
		return Off
	case "block":
		return Block
	}
	return Note
}

// FromConfig maps the configuration's context.read_before_write (whether
// the host checks by itself comes with the event).
func FromConfig(c *config.Config) Options {
	return Options{Mode: ParseMode(string(c.Context.ReadBeforeWrite))}
}

// Options are the check's settings.
type Options struct {
	// Mode is the check's setting; a host that refuses an edit of an
	// unread file by itself (event.HostFacts.ReadsBeforeWrite) is left to it.
	Mode Mode
}

// Rule names the check in a deny.
const Rule = "context.read-before-write"

// HandlerKinds are the events [Handler]'s handler runs on: a hook
// builds it for those alone.
var HandlerKinds = []event.Kind{event.PreTool, event.PostTool, event.PostCompact, event.SessionStart, event.SubagentStop}

// Handler is the read-before-write check. opts is asked for only on the
// events it may concern.
func Handler(opts func() Options) engine.Handler {
	return engine.Handler{
		Name: "read-first", Priority: engine.High,
		Kinds:  HandlerKinds,
		Groups: ReadsKey.Group(),
		Prepare: func(c *engine.Call) {
			if active(c.Event, opts) {
				c.Memo.Set(filesKey{}, look(c))
			}
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			ev := c.Event
			if !active(ev, opts) {
				return event.Result{}, nil
			}
			v, _ := c.Memo.Get(filesKey{})
			files, _ := v.([]file)
			return handle(ev, ReadsKey.Of(c.State.Session), files, opts().Mode), nil
		},
	}
}

// active reports whether the event concerns the check: a file tool call
// or a shell call, or a forgetting event, on a host that does not check
// by itself, with the check on.
func active(ev *event.Event, opts func() Options) bool {
	switch ev.Kind {
	case event.PreTool:
		if ev.Tool.Name != event.Write && ev.Tool.Name != event.Edit {
			return false
		}
	case event.PostTool:
		switch ev.Tool.Name {
		case event.Read, event.Write, event.Edit, event.Shell:
		default:
			return false
		}
		if ev.Failed {
			return false
		}
	case event.SessionStart, event.PostCompact:
		if !ev.Compacted() {
			return false
		}
	}
	o := opts()
	return o.Mode != Off && !ev.HostFacts().ReadsBeforeWrite
}

// file is one path of the event, as found on disk before the lock.
type file struct {
	path    string // absolute, links resolved as far as they exist
	exists  bool   // a regular file
	modTime time.Time
}

type filesKey struct{}

// look finds the event's files: the paths a file tool names, or the files
// a shell command read.
func look(c *engine.Call) []file {
	ev := c.Event
	var paths []string
	switch {
	case ev.Kind == event.PostTool && ev.Tool.Name == event.Shell:
		paths = shellcall.Effects(c).Reads
	case ev.Kind == event.PreTool || ev.Kind == event.PostTool:
		paths = ev.Tool.Paths
	}
	if len(paths) == 0 {
		return nil
	}
	dir := ev.Cwd
	if dir == "" {
		dir = ev.ProjectDir
	}
	resolve := shellcall.Resolver()
	out := make([]file, 0, len(paths))
	for _, p := range paths {
		if strings.ContainsAny(p, "*?[") {
			continue // a pattern (read_many_files), not a file
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		f := file{path: realPath(resolve, filepath.Clean(p))}
		if fi, err := os.Stat(f.path); err == nil && fi.Mode().IsRegular() {
			f.exists, f.modTime = true, fi.ModTime()
		}
		out = append(out, f)
	}
	return out
}

// realPath resolves the links of p's directory, and of p itself when it
// exists: a file about to be created has no links to resolve.
func realPath(resolve func(string) (string, error), p string) string {
	if r, err := resolve(p); err == nil {
		return r
	}
	if r, err := resolve(filepath.Dir(p)); err == nil {
		return filepath.Join(r, filepath.Base(p))
	}
	return p
}

// handle is the check's decision on files found by look.
func handle(ev *event.Event, rs *Reads, files []file, mode Mode) event.Result {
	agent := ev.AgentID
	switch ev.Kind {
	case event.SessionStart, event.PostCompact, event.SubagentStop:
		forget(rs, agent)
	case event.PostTool:
		for _, f := range files {
			rs.Add(agent, f.path, f.modTime)
		}
	case event.PreTool:
		return judge(ev, rs, files, mode)
	}
	return event.Result{}
}

// forget drops an agent's files.
func forget(rs *Reads, agent string) {
	kept := rs.Known[:0]
	for _, k := range rs.Known {
		if k.Agent != agent {
			kept = append(kept, k)
		}
	}
	rs.Known = kept
}

// judge answers an edit or overwrite: existing files the agent does not
// know, or that changed since it last did, get a note or a deny.
func judge(ev *event.Event, rs *Reads, files []file, mode Mode) event.Result {
	var unread, stale []string
	for _, f := range files {
		if !f.exists {
			continue // a new file: nothing to have read
		}
		k := rs.Find(ev.AgentID, f.path)
		switch {
		case k == nil:
			unread = append(unread, show(ev, f.path))
		case !k.ModTime.IsZero() && !k.ModTime.Equal(f.modTime):
			stale = append(stale, show(ev, f.path))
		}
	}
	if len(unread) == 0 && len(stale) == 0 {
		return event.Result{}
	}
	what := describe(unread, stale)
	if mode == Block {
		return event.Result{Verdict: event.Deny, Rule: Rule,
			Reason: fmt.Sprintf("atreides refused this change: %s. Read it first (its content may not be what you expect), then make the change again.", what)}
	}
	return event.Result{Context: event.Note("read-first", strings.Join(append(unread, stale...), "\n"), event.High,
		fmt.Sprintf("atreides: %s before this change. Read it before changing it again, and check the file is as intended.", what))}
}

// describe says which files are unread and which changed since read.
func describe(unread, stale []string) string {
	var parts []string
	if len(unread) > 0 {
		parts = append(parts, fmt.Sprintf("%s %s not read in this session", strings.Join(unread, ", "), plural(unread, "was", "were")))
	}
	if len(stale) > 0 {
		parts = append(parts, fmt.Sprintf("%s changed on disk since %s last read or written in this session", strings.Join(stale, ", "), plural(stale, "it was", "they were")))
	}
	return strings.Join(parts, "; ")
}

func plural(s []string, one, many string) string {
	if len(s) == 1 {
		return one
	}
	return many
}

// show is a path as the agent knows it: relative to the project when in it.
func show(ev *event.Event, p string) string {
	if r, ok := project.Rel(ev.ProjectDir, "", p); ok {
		return r
	}
	return p
}
