package guard

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Wrappers that run a command later (at, batch, systemd-run, tmux,
// screen), elsewhere (chroot, unshare, nsenter, firejail, bwrap) or as
// someone else (su, runuser, setpriv): each is unwrapped and the command
// it runs is judged like one typed directly. Those that only read options
// before the command (chroot, unshare, nsenter, setpriv, ionice, ...) are
// shell.Unwrap's (hUnwrap); here are those whose unwrapping the judges
// take part in (privilege, terminals, working directories, carried text).

func addWrapperHandlers(handlers map[string]handler) {
	for _, n := range [...]namedHandler{
		{"runuser", hRunuser}, {"tmux", hTmux}, {"screen", hScreen},
		{"at", hAt}, {"batch", hAt}, {"bwrap", hBwrap},
	} {
		handlers[n.name] = n.h
	}
}

// suOpts are the options of su and runuser that take a value.
var suOpts = shell.OptScan{Valued: "cgGswu", Long: []string{"--command", "--session-command", "--group", "--supp-group", "--shell", "--whitelist-environment", "--user"}}

// suCommand returns the -c/--command/--session-command text, which su
// and runuser accept before or after the user name.
func suCommand(args []shell.Word) (shell.Word, bool) {
	var code shell.Word
	found := false
	suOpts.Scan(args, true, func(name string, v shell.Word) {
		if oneOf(name, "-c|--command|--session-command") {
			code, found = v, true
		}
	})
	return code, found
}

func hSu(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	if code, ok := suCommand(c.Args); ok {
		a.fire(rulePrivilegeSudo, c, "")
		return a.runText(c, code, sc.Clone(), depth, "su -c")
	}
	a.fire(rulePrivilegeRootShell, c, "")
	return shell.Feed{Taint: shell.TaintUnknown}
}

// hRunuser: `runuser -u USER [--] CMD...` runs CMD directly; the su-like
// form `runuser [-l] USER -c CMD` runs CMD with a shell.
func hRunuser(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	user := false
	rest := suOpts.Scan(c.Args, false, func(name string, v shell.Word) {
		user = user || oneOf(name, "-u|--user")
	})
	a.fire(rulePrivilegeSudo, c, "")
	if user {
		if len(rest) == 0 {
			a.fire(rulePrivilegeRootShell, c, "")
			return shell.Feed{Taint: shell.TaintUnknown}
		}
		return a.walker().Run(rest, env, shell.External(sc, c.Name), depth, in)
	}
	if code, ok := suCommand(c.Args); ok {
		return a.runText(c, code, sc.Clone(), depth, "runuser -c")
	}
	a.fire(rulePrivilegeRootShell, c, "")
	return shell.Feed{Taint: shell.TaintUnknown}
}

// hScript: util-linux `script [-q] -c CMD [file]`; BSD/macOS `script [-q]
// [file [command ...]]`.
func hScript(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	o := shell.OptScan{Valued: "cEIOBmF", Long: []string{"--command", "--echo", "--log-in", "--log-out", "--log-io", "--log-timing", "--logging-format", "--output-limit"}}
	var code shell.Word
	found := false
	get := func(name string, v shell.Word) {
		if oneOf(name, "-c|--command") {
			code, found = v, true
		}
	}
	ops := o.Scan(c.Args, false, get)
	if !found && len(ops) >= 2 && strings.HasPrefix(ops[1].Text, "-") {
		// util-linux reads options after the typescript file too.
		ops = o.Scan(ops, true, get)
	}
	// The command runs on a terminal script makes (posingAsUser).
	a.self().enterTerminal()
	defer a.self().leaveTerminal()
	if found {
		return a.runText(c, code, sc.Clone(), depth, "script -c")
	}
	if len(ops) >= 2 {
		// BSD script: the words after the typescript file are the command.
		return a.walker().Run(ops[1:], env, shell.External(sc, c.Name), depth, in)
	}
	return shell.Feed{Taint: shell.TaintUnknown}
}

// hUnbuffer: the command runs on a terminal unbuffer makes.
func hUnbuffer(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	a.self().enterTerminal()
	defer a.self().leaveTerminal()
	return hUnwrap(a, c, env, sc, depth, in)
}

// hAt: at and batch read the job's shell text from stdin (pipe, heredoc,
// here-string) or from -f FILE, and run it later with sh.
func hAt(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	o := shell.OptScan{Valued: "qftcdr"}
	list := false
	var file shell.Word
	hasFile := false
	o.Scan(c.Args, true, func(name string, v shell.Word) {
		switch name {
		case "-l", "-c", "-d", "-r", "-V":
			list = true // list, print or remove jobs
		case "-f":
			file, hasFile = v, true
		}
	})
	if list {
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	if hasFile {
		if out, ok := (scriptJudge{a}).run(c, scriptRun{file: file}, sc, depth); ok {
			return out
		}
		return a.scriptFile(c, file, sc, depth)
	}
	return a.runFeed(c, in, sc, depth)
}

// tmuxCommands: for each tmux command that starts a shell command, its
// options that take a value and which operand is the shell command.
var tmuxCommands = []tmuxCommand{
	{"new-session", "cefFnstxy", 0}, {"new", "cefFnstxy", 0},
	{"new-window", "ceFnt", 0}, {"neww", "ceFnt", 0},
	{"split-window", "ceFlpt", 0}, {"splitw", "ceFlpt", 0},
	{"respawn-pane", "cet", 0}, {"respawnp", "cet", 0},
	{"respawn-window", "cet", 0}, {"respawnw", "cet", 0},
	{"run-shell", "dt", 0}, {"run", "dt", 0},
	{"if-shell", "t", 0}, {"if", "t", 0},
	{"display-popup", "bcdehsStTwxy", 0}, {"popup", "bcdehsStTwxy", 0},
	{"pipe-pane", "t", 0}, {"pipep", "t", 0},
}

type tmuxCommand struct {
	name   string
	valued string
	arg    int // index of the shell command among the operands
}

// tmuxCommandOf is sub's entry in tmuxCommands (a slice: a map would be
// built in package init).
func tmuxCommandOf(sub string) (tmuxCommand, bool) {
	for _, t := range tmuxCommands {
		if t.name == sub {
			return t, true
		}
	}
	return tmuxCommand{}, false
}

// hTmux judges the shell commands tmux starts (new-session, new-window,
// split-window, respawn-*, run-shell, if-shell, display-popup, pipe-pane,
// `tmux -c CMD`) and the text send-keys types into a pane. Commands may
// be chained with a ";" word.
func hTmux(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	// What it starts runs on a terminal it makes, in an environment of
	// the terminal server's, not the agent's (posingAsUser).
	a.self().enterTerminal()
	defer a.self().leaveTerminal()
	g := shell.OptScan{Valued: "cfLST"}
	var code shell.Word
	found := false
	rest := g.Scan(c.Args, false, func(name string, v shell.Word) {
		if name == "-c" {
			code, found = v, true
		}
	})
	if found {
		a.runText(c, code, sc.Clone(), depth, "tmux -c")
	}
	for len(rest) > 0 {
		end := len(rest)
		for k, w := range rest {
			if !w.Dyn && oneOf(w.Text, ";|\\;") {
				end = k
				break
			}
		}
		a.code().tmuxCommand(c, rest[:end], env, sc, depth)
		rest = shell.From(rest, end+1)
	}
	return shell.Feed{Taint: shell.TaintUnknown}
}

func (a codeJudge) tmuxCommand(c *Cmd, argv []shell.Word, env map[string]shell.Word, sc *shell.Scope, depth int) {
	if len(argv) == 0 || argv[0].Dyn {
		return
	}
	sub := argv[0].Text
	if oneOf(sub, "send-keys|send") {
		a.tmuxKeys(c, argv[1:], sc, depth)
		return
	}
	spec, ok := tmuxCommandOf(sub)
	if !ok {
		return
	}
	inner := sc.Clone()
	ops := shell.OptScan{Valued: spec.valued}.Scan(argv[1:], false, func(name string, v shell.Word) {
		if name == "-c" && !oneOf(sub, "run-shell|run") {
			inner = inner.Chdir(v, a.req.Home)
		}
	})
	if spec.arg >= len(ops) {
		return // the default shell: interactive
	}
	ops = ops[spec.arg:]
	if oneOf(sub, "if-shell|if") {
		ops = ops[:1]
	}
	if len(ops) == 1 {
		a.runText(c, ops[0], inner, depth, "tmux "+sub)
		return
	}
	// Several words are run as they are, without a shell.
	a.walker().Run(ops, env, shell.External(inner, "tmux"), depth+1, shell.Feed{})
}

// tmuxKeys judges what send-keys types: key names that end a line (Enter,
// C-m, C-j, KPEnter) submit it, C-c discards it, Space and Tab are blanks.
func (a codeJudge) tmuxKeys(c *Cmd, args []shell.Word, sc *shell.Scope, depth int) {
	literal := false
	keys := shell.OptScan{Valued: "cNt"}.Scan(args, false, func(name string, v shell.Word) {
		literal = literal || name == "-l"
	})
	var text []shell.Word
	line := shell.Word{}
	flush := func() {
		if line.Text != "" || line.Dyn {
			text = append(text, line)
		}
		line = shell.Word{}
	}
	for _, k := range keys {
		if !k.Dyn && !literal {
			switch k.Text {
			case "Enter", "C-m", "C-j", "KPEnter", "^M", "^J":
				flush()
				continue
			case "C-c", "^C", "C-u", "^U":
				line = shell.Word{}
				continue
			case "Space":
				k.Text = " "
			case "Tab":
				k.Text = "\t"
			}
		}
		line.Text += k.Text
		line.Dyn = line.Dyn || k.Dyn
		line.Taint |= k.Taint
		line.Stream = line.Stream || k.Stream
	}
	flush()
	for _, l := range text {
		a.runText(c, l, sc.Clone(), depth, "tmux send-keys")
	}
}

// hScreen: `screen [opts] CMD...` starts CMD in a new window (-dm: a
// detached session); `screen -X stuff TEXT` types TEXT and `-X screen|exec
// CMD...` starts CMD in a running session.
func hScreen(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	// What it starts runs on a terminal it makes, in an environment of
	// the terminal server's, not the agent's (posingAsUser).
	a.self().enterTerminal()
	defer a.self().leaveTerminal()
	args := c.Args
	var norm []shell.Word
	for i := 0; i < len(args); i++ {
		s := args[i].Text
		if args[i].Dyn || !strings.HasPrefix(s, "-") {
			prev := ""
			if i > 0 {
				prev = args[i-1].Text
			}
			if len(prev) < 2 || prev[0] != '-' || strings.IndexByte("SceshpTtX", prev[len(prev)-1]) < 0 {
				norm = append(norm, args[i:]...) // the command: its words are its own
				break
			}
		}
		switch s {
		case "-ls", "-list", "-wipe":
			return shell.Feed{Taint: shell.TaintUnknown}
		case "-Logfile":
			i++
			continue
		}
		norm = append(norm, args[i])
	}
	cmd := false
	var verb shell.Word
	rest := shell.OptScan{Valued: "SceshpTtX"}.Scan(norm, false, func(name string, v shell.Word) {
		if name == "-X" {
			cmd, verb = true, v
		}
	})
	if cmd {
		// -X runs a screen command in a running session: its name is
		// the value of -X, its arguments the words after it.
		switch verb.Text {
		case "stuff":
			if len(rest) > 0 {
				text := rest[0]
				if !text.Dyn {
					text.Text = screenText(text.Text)
				}
				a.runText(c, text, sc.Clone(), depth, "screen -X stuff")
			}
		case "screen", "exec":
			ops := shell.OptScan{Valued: "thLT"}.Scan(rest, false, nil)
			a.walker().Run(ops, env, shell.External(sc, c.Name), depth+1, shell.Feed{})
		}
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	if len(rest) == 0 {
		return shell.Feed{Taint: shell.TaintUnknown} // an interactive shell
	}
	return a.walker().Run(rest, env, shell.External(sc, c.Name), depth, in)
}

// screenText decodes the escapes screen's stuff command honours (\n,
// \r, \NNN, ^M).
func screenText(s string) string {
	s = strings.NewReplacer("^M", "\n", "^J", "\n", `\r`, "\n").Replace(s)
	return shell.ANSIC(s)
}

// bwrapValues are bubblewrap options and the number of values they take.
var bwrapValues = &lazy[map[string]int]{src: func() map[string]int {
	return map[string]int{
		"--bind": 2, "--bind-try": 2, "--ro-bind": 2, "--ro-bind-try": 2, "--dev-bind": 2, "--dev-bind-try": 2,
		"--symlink": 2, "--setenv": 2, "--file": 2, "--bind-data": 2, "--ro-bind-data": 2, "--chmod": 2,
		"--tmpfs": 1, "--proc": 1, "--dev": 1, "--dir": 1, "--chdir": 1, "--unsetenv": 1, "--uid": 1, "--gid": 1,
		"--hostname": 1, "--seccomp": 1, "--lock-file": 1, "--cap-add": 1, "--cap-drop": 1, "--args": 1,
		"--info-fd": 1, "--json-status-fd": 1, "--sync-fd": 1, "--block-fd": 1, "--userns-block-fd": 1,
		"--userns": 1, "--userns2": 1, "--pidns": 1, "--mqueue": 1, "--remount-ro": 1, "--exec-label": 1,
		"--file-label": 1, "--perms": 1, "--size": 1, "--add-seccomp-fd": 1, "--overlay-src": 1,
		"--overlay": 3, "--tmp-overlay": 1, "--ro-overlay": 1, "--argv0": 1,
	}
}}

func hBwrap(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	args := c.Args
	i := 0
	for i < len(args) && !args[i].Dyn && strings.HasPrefix(args[i].Text, "--") {
		if args[i].Text == "--" {
			i++
			break
		}
		i += 1 + bwrapValues.get()[args[i].Text]
	}
	return a.walker().Run(shell.From(args, i), env, shell.External(sc, c.Name), depth, in)
}
