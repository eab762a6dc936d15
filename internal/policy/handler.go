package policy

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/mcptools"
	"github.com/atreides-dev/atreides/internal/shellcall"
	"github.com/atreides-dev/atreides/internal/state"
)

// Source builds the guard policy when the first tool call needs it.
type Source func() (*guard.Policy, error)

// HandlerKinds are the events [Handler]'s handler runs on: a hook
// builds it for those alone.
var HandlerKinds = []event.Kind{event.PreTool, event.PermissionRequest}

// Handler judges PreTool and PermissionRequest events, before the state
// lock is taken (the guard needs no state). A broken config file gives
// the fallback policy (fallback.go), which judges; a policy that cannot
// be built at all is an error, which the engine turns into a deny:
// security decisions fail closed. So is an analysis that did not run.
// hosts is what the guard must know of the agent hosts.
func Handler(policy Source, hosts Hosts) engine.Handler {
	return engine.Handler{
		Name: "guard", Priority: engine.Critical,
		Kinds:  HandlerKinds,
		Groups: state.NoGroups,
		Prepare: func(c *engine.Call) {
			r, err := judge(c, policy, hosts)
			c.Memo.Set(verdictKey{}, verdict{r, err})
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			v, ok := c.Memo.Get(verdictKey{})
			if !ok {
				return event.Result{}, errors.New("the guard's analysis did not finish")
			}
			return v.(verdict).r, v.(verdict).err
		},
	}
}

// verdictKey keeps the guard's verdict in the event's memo.
type verdictKey struct{}

type verdict struct {
	r   event.Result
	err error
}

func judge(c *engine.Call, policy Source, hosts Hosts) (event.Result, error) {
	ev := c.Event
	reqs, unknown := Requests(ev)
	if len(reqs) == 0 && unknown == "" {
		return event.Result{}, nil
	}
	// A fallback policy (a broken configuration) judges as any other:
	// the session's health check tells the problem once, not each call.
	p, err := Usable(policy())
	if err != nil {
		return event.Result{}, fmt.Errorf("load guard policy: %w", err)
	}
	if p == nil { // the guard is switched off in the configuration
		return event.Result{}, nil
	}
	deadline := shellcall.Deadline(c)
	var worst guard.Result
	if unknown != "" {
		worst = p.UnknownWrite(unknown)
	}
	for _, r := range reqs {
		r.Deadline = deadline
		hosts.Apply(&r)
		res := p.Check(r)
		if r.Tool == "shell" && ev.Tool.Name == event.Shell {
			// The judging walk is the shell model: governance and the
			// session read its effects instead of walking again.
			shellcall.Remember(c, res.Effects)
		}
		if res.Verdict > worst.Verdict || worst.Rule == "" && res.Rule != "" && res.Verdict == worst.Verdict {
			worst = res
		}
	}
	return toResult(worst), nil
}

// toResult is the guard's answer as the handler's: an allow says nothing
// (other handlers may still speak), an ask or a deny keeps its verdict.
func toResult(r guard.Result) event.Result {
	if r.Verdict < event.Ask {
		return event.Result{}
	}
	reason := r.Reason
	if r.Rule != "" {
		reason = fmt.Sprintf("atreides blocked this (%s): %s", r.Rule, r.Reason)
	}
	return event.Result{Verdict: r.Verdict, Rule: r.Rule, Reason: reason}
}

// Requests turns a tool call into guard requests: one for a shell command,
// one per path for file tools, what a third-party MCP tool's arguments
// name (MCPRequests), none for tools the guard does not judge. unknown,
// when set, says that the call also does what no request shows.
func Requests(ev *event.Event) (reqs []guard.Request, unknown string) {
	cwd := ev.Cwd
	if cwd == "" {
		cwd = ev.ProjectDir
	}
	t := ev.Tool
	switch t.Name {
	case event.Shell:
		return []guard.Request{NewRequest("shell", t.Command, cwd, ev.ProjectDir)}, ""
	case event.Search:
		r := NewRequest("search", "", cwd, ev.ProjectDir)
		if len(t.Paths) > 0 {
			r.Path = t.Paths[0]
		}
		r.Pattern = t.Pattern
		return []guard.Request{r}, ""
	case event.Read, event.Write, event.Edit:
		out := make([]guard.Request, 0, len(t.Paths))
		for _, p := range t.Paths {
			out = append(out, NewRequest(string(t.Name), p, cwd, ev.ProjectDir))
		}
		return out, ""
	}
	return MCPRequests(ev)
}

// ownServer is the normalised name prefix of atreides's own MCP tools,
// which change only atreides's state and are left to governance.
const ownServer = "mcp:atreides__"

// MCPRequests are the guard requests for what a third-party MCP tool's
// arguments name (internal/mcptools), and why the call is an unknown
// write if it is one. OpenCode reports MCP tools as "<server>_<tool>",
// which stay event.Other: theirs are read with the server's name left in
// the tool's. Governance's scope gate reads the same requests.
func MCPRequests(ev *event.Event) (reqs []guard.Request, unknown string) {
	t := ev.Tool
	var server, tool string
	switch {
	case strings.HasPrefix(string(t.Name), ownServer):
		return nil, ""
	case t.Name.IsMCP():
		server, tool, _ = strings.Cut(string(t.Name)[len("mcp:"):], "__")
		if tool == "" {
			server, tool = "", server
		}
	case t.Name == event.Other && ev.HostFacts().RawMCPTools && t.Raw != "":
		tool = t.Raw
	default:
		return nil, ""
	}
	cwd := ev.Cwd
	if cwd == "" {
		cwd = ev.ProjectDir
	}
	calls := mcptools.Read(server, tool, t.Input)
	for _, r := range calls.Requests {
		dir := cwd
		if r.Dir != "" {
			dir = r.Dir
			if !filepath.IsAbs(dir) {
				dir = filepath.Join(cwd, dir)
			}
		}
		q := NewRequest(r.Tool, r.Arg, dir, ev.ProjectDir)
		q.Pattern = r.Pattern
		reqs = append(reqs, q)
	}
	return reqs, calls.Unknown
}

// NewRequest is a guard request for a shell command (tool "shell") or a
// path (any other tool), judged in cwd within the project root, with
// atreides's own paths; what the guard must know of the hosts is added by
// [Hosts.Apply].
func NewRequest(tool, arg, cwd, root string) guard.Request {
	r := shellcall.Request(arg, cwd, root)
	r.Tool = tool
	if tool != "shell" {
		r.Command, r.Path = "", arg
	}
	r.SelfOf, r.ConfigDir = Self, ConfigDir()
	r.PathDirs, r.SameBinary = PathDirs(os.Getenv("PATH")), SameBinary
	return r
}

// Self is the running atreides binary with symlinks resolved, "" when
// unknown: the guard refuses writes to it (and to atreides-mcp beside it).
func Self() string {
	selfOnce.Do(func() { selfPath = findSelf() })
	return selfPath
}

// A sync.Once and a variable, not a package-level sync.OnceValue, whose
// call would be package-init work in every process.
var (
	selfOnce sync.Once
	selfPath string
)

func findSelf() string {
	exe, err := os.Executable()
	if err != nil {
		return ""
	}
	// On Linux the path is the target of /proc/self/exe, which the kernel
	// writes with every symlink resolved: resolving it again cost an lstat
	// per directory of the path in every hook.
	if runtime.GOOS == "linux" {
		return filepath.Clean(exe)
	}
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		exe = r
	}
	return filepath.Clean(exe)
}

// ConfigDir is the user's atreides configuration directory, where
// internal/config looks for config.yaml; "" when unknown.
func ConfigDir() string {
	if u := config.DefaultPaths("").User; u != "" {
		return filepath.Dir(u)
	}
	return ""
}
