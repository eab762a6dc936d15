package shell

import (
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// OptScan describes a program's options the way GNU getopt reads them:
// short letters that take a value (attached, "-uroot", or as the next
// word) and long options that take one ("--user=root", "--user root").
// Long options may be abbreviated to an unambiguous prefix.
type OptScan struct {
	Valued string
	Long   []string
}

// Scan walks the options of args and calls fn (when not nil) for every
// option with its canonical name ("-c", "--command") and value. Without
// permute it stops at the first operand and returns it and everything
// after; with permute options may follow operands (until "--") and the
// operands alone are returned.
func (o OptScan) Scan(args []Word, permute bool, fn func(name string, val Word)) []Word {
	var ops []Word
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.Text
		switch {
		case w.Dyn || s == "-" || len(s) < 2 || s[0] != '-':
			if !permute {
				return args[i:]
			}
			ops = append(ops, w)
		case s == "--":
			return append(ops, args[i+1:]...)
		case strings.HasPrefix(s, "--"):
			name, val, has := strings.Cut(s, "=")
			name, valued := o.longName(name)
			v := Word{Text: val, Dyn: w.Dyn, Taint: w.Taint}
			if !has && valued && i+1 < len(args) {
				i++
				v = args[i]
			}
			if fn != nil {
				fn(name, v)
			}
		default:
			i = o.shorts(args, i, fn)
		}
	}
	return ops
}

// shorts reads the cluster of short options args[i] and returns the
// index of the last word it used.
func (o OptScan) shorts(args []Word, i int, fn func(name string, val Word)) int {
	w := args[i]
	s := w.Text
	for j := 1; j < len(s); j++ {
		if strings.IndexByte(o.Valued, s[j]) < 0 {
			if fn != nil {
				fn("-"+s[j:j+1], Word{})
			}
			continue
		}
		v := Word{Text: s[j+1:], Taint: w.Taint}
		if j == len(s)-1 && i+1 < len(args) {
			i++
			v = args[i]
		}
		if fn != nil {
			fn("-"+s[j:j+1], v)
		}
		break
	}
	return i
}

// longName resolves an abbreviated long option against the valued ones.
func (o OptScan) longName(name string) (string, bool) {
	match := ""
	for _, l := range o.Long {
		if l == name {
			return l, true
		}
		if len(name) >= 4 && strings.HasPrefix(l, name) {
			if match != "" {
				return name, false // ambiguous: getopt refuses to run
			}
			match = l
		}
	}
	if match != "" {
		return match, true
	}
	return name, false
}

// SkipOptions returns the index of the first operand. valued lists short
// option letters that take a value; long options with a value use '='
// unless listed in longValued.
func SkipOptions(args []Word, valued string, longValued ...string) int {
	i := 0
	for i < len(args) {
		s := args[i].Text
		if args[i].Dyn {
			return i
		}
		if s == "--" {
			return i + 1
		}
		if !strings.HasPrefix(s, "--") && (len(s) < 2 || s[0] != '-') {
			return i
		}
		i += OptionWords(s, valued, longValued)
	}
	return i
}

// From is args from index i on, nil past the end.
func From(args []Word, i int) []Word {
	if i >= len(args) {
		return nil
	}
	return args[i:]
}

// External is the scope seen by a program a wrapper starts: shell
// functions are not visible to /usr/bin/time, nohup, sudo and the like
// (builtin, command and exec run inside the shell and still see them).
func External(sc *Scope, wrapper string) *Scope {
	if slices.Contains([]string{"builtin", "command", "exec", "time", "!"}, wrapper) || len(sc.Funcs) == 0 {
		return sc
	}
	c := sc.Clone()
	c.Funcs = map[string]*syntax.Stmt{}
	return c
}

// wrapper is how a wrapper that runs the rest of its words reads them:
// its options, with getopt (scan) or simply skipped (valued and long
// say which take a value), the fixed operands before the command, and
// the options with which it runs no command (it works on a process).
type wrapper struct {
	scan     bool
	valued   string
	long     []string
	operands int
	// internal: the command runs in the shell (it sees its functions).
	internal bool
	// none are the options that make it run no command.
	none []string
}

func skip(valued string) wrapper { return wrapper{valued: valued} }

func getopt(n int, valued string, long ...string) wrapper {
	return wrapper{scan: true, valued: valued, long: long, operands: n}
}

// wrappers are the programs that run the rest of their words as a
// command, changing only how (priority, tracing, a namespace, a lock):
// the command is judged like one typed directly.
var wrappers = map[string]wrapper{
	"builtin": skip(""), "exec": skip("a"), "nohup": skip(""), "time": skip("of"), "setsid": skip(""),
	"caffeinate": skip("tw"), "fakeroot": skip(""), "torsocks": skip(""), "proxychains": skip("f"),
	"proxychains4": skip("f"), "strace": skip("oepsSuEXPIab"), "ltrace": skip("oepsuAnaDlLxXF"),
	"xvfb-run": skip("nslfe"), "dbus-run-session": skip(""), "firejail": skip(""), "wine": skip(""),
	"!": skip(""), "then": skip(""), "do": skip(""), "unbuffer": skip(""),
	"nice":    {valued: "n", long: []string{"--adjustment"}, internal: true},
	"timeout": {valued: "sk", long: []string{"--signal", "--kill-after"}, operands: 1, internal: true},
	"nsenter": getopt(0, "tSG", "--target", "--setuid", "--setgid"),
	"unshare": getopt(0, "RwSG", "--root", "--wd", "--setuid", "--setgid", "--propagation", "--setgroups",
		"--map-user", "--map-group", "--map-users", "--map-groups", "--monotonic", "--boottime"),
	"chroot":          getopt(1, "", "--userspec", "--groups"),
	"stdbuf":          getopt(0, "ioe", "--input", "--output", "--error"),
	"systemd-inhibit": getopt(0, "", "--what", "--who", "--why", "--mode"),
	"cgexec":          getopt(0, "g"),
	"numactl":         getopt(0, "ipmCN", "--interleave", "--preferred", "--membind", "--physcpubind", "--cpunodebind"),
	"sandbox-exec":    getopt(0, "npfD"),
	"eatmydata":       getopt(0, ""),
	"setpriv": getopt(0, "", "--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid", "--groups",
		"--inh-caps", "--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label",
		"--apparmor-profile", "--landlock-access", "--landlock-rule"),
	"ionice": {scan: true, valued: "cnpPu", long: []string{"--class", "--classdata", "--pid", "--pgid", "--uid"},
		none: []string{"-p", "-P", "-u", "--pid", "--pgid", "--uid"}},
	"chrt": {scan: true, valued: "TPD", long: []string{"--sched-runtime", "--sched-period", "--sched-deadline"},
		operands: 1, none: []string{"-p", "--pid", "-m", "--max"}},
}

// Wrappers lists the programs Unwrap reads.
func Wrappers() []string {
	names := make([]string, 0, len(wrappers))
	for n := range wrappers {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// Unwrap is the command the wrapper name runs with args, and the scope
// it runs in: args is nil when it runs none. assigns says the wrapper's
// words came with assignments (`X=1 time cmd`): time and ! are then
// programs, not keywords of the shell. ok is false for a program that
// is not such a wrapper.
func Unwrap(name string, args []Word, assigns bool, sc *Scope) (inner []Word, in *Scope, ok bool) {
	w, ok := wrappers[name]
	if !ok {
		return nil, nil, false
	}
	in = sc
	if !w.internal {
		in = External(sc, name)
		if assigns {
			in = External(sc, "")
		}
	}
	if !w.scan {
		return From(args, SkipOptions(args, w.valued, w.long...)+w.operands), in, true
	}
	none := false
	rest := OptScan{Valued: w.valued, Long: w.long}.Scan(args, false, func(opt string, _ Word) {
		none = none || slices.Contains(w.none, opt)
	})
	if none {
		return nil, in, true
	}
	return From(rest, w.operands), in, true
}
