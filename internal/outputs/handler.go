package outputs

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"syscall"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// Options configure the handler (config context.output).
type Options struct {
	// Shell, Search, Fetch and MCP are the bytes of a tool's output the
	// model sees at most, by kind of tool; 0 leaves that kind's outputs
	// whole.
	Shell, Search, Fetch, MCP int
	// Keep bounds the saved outputs.
	Keep Limits
	// Room, if set, is how many bytes of context the agent has left, when
	// the host's usage figures tell it; the cap is then at most half of it.
	Room func(ev *event.Event) (bytesLeft int, ok bool)
}

// FromConfig maps the configuration's context.output section; the caller
// adds Room.
func FromConfig(cfg *config.Config) Options {
	c := &cfg.Context.Output
	return Options{
		Shell: c.Shell, Search: c.Search, Fetch: c.Fetch, MCP: c.MCP,
		Keep: Limits{Files: c.KeepFiles, Bytes: int64(c.KeepMiB) << 20},
	}
}

// Cap is the most bytes of ev's output the model sees, or 0 for a tool
// whose outputs are not cut.
func (o Options) Cap(ev *event.Event) int {
	var limit int
	switch n := ev.Tool.Name; {
	case n == event.Shell:
		limit = o.Shell
	case n == event.Search:
		limit = o.Search
	case n == event.Fetch:
		limit = o.Fetch
	case n.IsMCP():
		limit = o.MCP
	}
	if limit <= 0 || o.Room == nil {
		return limit
	}
	if room, ok := o.Room(ev); ok {
		// Some output is always shown, even with no room left: the
		// agent must learn where the rest is.
		limit = min(limit, max(room/2, minCap))
	}
	return limit
}

// minCap is the smallest cap: the note and a few lines.
const minCap = 1024

// noteRoom is what the kept part leaves of the cap for the note (its
// counts and the saved file's path).
const noteRoom = 512

// maxHostFile bounds what is read of a host's own saved output: a bigger
// one is left to the host's own truncation.
const maxHostFile = 64 << 20

// HandlerKinds are the events [Handler]'s handler runs on: a hook
// builds it for those alone.
var HandlerKinds = []event.Kind{event.PostTool}

// Handler cuts large outputs of shell, search, fetch and MCP tools, saving
// the whole output (see the package doc). It works before the state lock
// is taken and needs no state.
func Handler(opts func() Options) engine.Handler {
	return engine.Handler{
		Name: "outputs", Priority: engine.Normal,
		Kinds:  HandlerKinds,
		Groups: state.NoGroups,
		Prepare: func(c *engine.Call) {
			text, err := replacement(c.Event, opts())
			if err != nil {
				c.Env.Logf("outputs: %s output of session %s: %v", c.Event.Tool.Raw, c.Event.SessionID, err)
			}
			if text != "" {
				c.Memo.Set(textKey{}, text)
			}
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			text, ok := c.Memo.Get(textKey{})
			if !ok {
				return event.Result{}, nil
			}
			s := text.(string)
			return event.Result{ReplaceOutput: &s}, nil
		},
	}
}

// textKey keeps the replacement output in the event's memo.
type textKey struct{}

// replacement is the cut output for ev, or "" when it stays as it is.
func replacement(ev *event.Event, o Options) (string, error) {
	// A failed command's output is left to the host: its errors are
	// mostly at the end, which a cut to the first lines would remove.
	if !ev.ReplacesOutput || ev.Failed || ev.ProjectDir == "" {
		return "", nil
	}
	limit := o.Cap(ev)
	if limit <= 0 || len(ev.FullOutput) <= limit && ev.OutputFile == "" {
		return "", nil
	}
	full := ev.FullOutput
	if ev.OutputFile != "" {
		// The host sent only the start; the whole output is its file.
		var err error
		if full, err = readHostFile(ev.OutputFile); err != nil {
			return "", fmt.Errorf("left whole: %w", err)
		}
	}
	if len(full) <= limit {
		return "", nil
	}
	cut := CutHead(full, limit-noteRoom)
	path, err := save(ev.ProjectDir, toolLabel(ev.Tool.Name), full, ev.Time, o.Keep)
	if path == "" {
		return "", fmt.Errorf("left whole: %w", err)
	}
	if err != nil {
		// Saved, but older outputs were not all removed: say so, go on.
		err = fmt.Errorf("%w (the output was cut all the same)", err)
	}
	return cut.Text(path), err
}

// A host's saved output can still be growing when its after-tool event
// arrives: OpenCode 1.18.33 appends a long command's output to the file as
// it streams and can run tool.execute.after before the last appends land
// (seen under load: half the lines saved). So the file is read again while
// its size moves, for at most settleLimit; only outputs the host cut
// itself pay the first settleStep.
const (
	settleStep  = 20 * time.Millisecond
	settleLimit = time.Second
)

// readHostFile reads a whole output the host saved, once its size holds
// still (see settleStep).
func readHostFile(path string) (string, error) {
	return settled(func() (string, error) { return readHostFileOnce(path) }, func() (int64, error) {
		fi, err := os.Stat(path)
		if err != nil {
			return 0, err
		}
		return fi.Size(), nil
	}, time.Sleep)
}

// settled reads, then, while the size the file has a step later differs
// from what was read, reads again, for at most settleLimit.
func settled(read func() (string, error), size func() (int64, error), sleep func(time.Duration)) (string, error) {
	text, err := read()
	for waited := time.Duration(0); err == nil && waited < settleLimit; waited += settleStep {
		sleep(settleStep)
		if n, serr := size(); serr != nil || n == int64(len(text)) {
			break
		}
		text, err = read()
	}
	return text, err
}

// readHostFileOnce reads a whole output the host saved, up to maxHostFile,
// into one buffer of its size. Only a regular file is read: the open does
// not wait on a FIFO put in its place.
func readHostFileOnce(path string) (string, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return "", err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", errors.New(path + " is not a regular file")
	}
	if fi.Size() > maxHostFile {
		return "", errors.New(path + " is too large to read")
	}
	var b strings.Builder
	b.Grow(int(fi.Size()) + 1)
	if _, err := io.Copy(&b, io.LimitReader(f, maxHostFile+1)); err != nil {
		return "", err
	}
	if b.Len() > maxHostFile {
		return "", errors.New(path + " is too large to read")
	}
	return b.String(), nil
}

// toolLabel names a saved file's tool: its kind, "mcp" for MCP tools.
func toolLabel(n event.ToolName) string {
	if n.IsMCP() {
		return "mcp"
	}
	return string(n)
}
