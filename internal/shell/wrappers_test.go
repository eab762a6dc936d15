package shell

import (
	"slices"
	"strconv"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"
)

// TestUnwrap: a wrapper's options and fixed operands are read as the
// program reads them, the rest is the command it runs; with the options
// that make it work on a process it runs none; a program started by a
// wrapper does not see the shell's functions, one the shell runs does.
func TestUnwrap(t *testing.T) {
	for _, tc := range []struct {
		cmd      string
		assigns  bool
		want     string // the wrapped command; "-" for none
		internal bool   // the command sees the shell's functions
	}{
		{"nohup rm -rf x", false, "rm -rf x", false},
		{"strace -o log -f rm x", false, "rm x", false},
		{"strace -olog rm x", false, "rm x", false},
		{"exec -a name rm x", false, "rm x", true},
		{"exec -a name rm x", true, "rm x", false},
		{"time -f %e -- rm x", false, "rm x", true},
		{"nice -n 5 rm x", false, "rm x", true},
		{"nice --adjustment 5 rm x", false, "rm x", true},
		{"timeout -s KILL 10 rm x", false, "rm x", true},
		{"timeout 10", false, "-", true},
		{"chroot --userspec=u:g /srv rm x", false, "rm x", false},
		{"chroot --user u:g /srv rm x", false, "rm x", false}, // getopt's abbreviation
		{"unshare -r --map-user 0 rm x", false, "rm x", false},
		{"setpriv --reuid=1 --init-groups rm x", false, "rm x", false},
		{"ionice -c 3 rm x", false, "rm x", false},
		{"ionice -c 3 -p 42", false, "-", false},
		{"chrt -f 10 rm x", false, "rm x", false},
		{"chrt -p 10 42", false, "-", false},
		{"chrt --max", false, "-", false},
	} {
		argv := words(tc.cmd)
		sc := NewScope("/p")
		sc.setFunc("f", &syntax.Stmt{})
		w, ok := Unwrap(argv[0].Text, argv[1:], tc.assigns, sc, "/home/u")
		inner, in := w.Args, w.Scope
		if !ok {
			t.Errorf("%s: not a wrapper", tc.cmd)
			continue
		}
		var got []string
		for _, w := range inner {
			got = append(got, w.Text)
		}
		want := strings.Fields(tc.want)
		if tc.want == "-" {
			want = nil
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s (assigns %v): runs %q, want %q", tc.cmd, tc.assigns, got, want)
		}
		if internal := in.Funcs["f"] != nil; internal != tc.internal {
			t.Errorf("%s (assigns %v): sees the shell's functions: %v, want %v", tc.cmd, tc.assigns, internal, tc.internal)
		}
	}
	for _, name := range []string{"sudo", "env", "rm", "busybox"} {
		if _, ok := Unwrap(name, nil, false, NewScope("/p"), "/home/u"); ok {
			t.Errorf("%s read as a plain wrapper", name)
		}
	}
	if !slices.IsSorted(Wrappers()) || !slices.Contains(Wrappers(), "nohup") || !slices.Contains(Wrappers(), "flock") {
		t.Errorf("Wrappers() = %q: want the names, sorted", Wrappers())
	}
}

// TestWrapperTables: wrapperOf's binary search needs wrapperTable sorted
// with one row per name, and every listed carrier must dispatch, else a
// wrapper would be read as a plain program.
func TestWrapperTables(t *testing.T) {
	for i := 1; i < len(wrapperTable); i++ {
		if wrapperTable[i-1].name >= wrapperTable[i].name {
			t.Errorf("wrapperTable: %q before %q: want strictly sorted names", wrapperTable[i-1].name, wrapperTable[i].name)
		}
	}
	for _, n := range carrierNames {
		if carrierOf(n) == nil {
			t.Errorf("carrier %q: carrierOf has no case for it", n)
		}
		if _, ok := wrapperOf(n); ok {
			t.Errorf("%q is both a carrier and a plain wrapper", n)
		}
	}
	for _, tc := range []struct {
		name string
		want bool
	}{{"nohup", true}, {"!", true}, {"xvfb-run", true}, {"xargs", true}, {"npx", true}, {"sudo", false}, {"", false}, {"nohu", false}} {
		if got := IsWrapper(tc.name); got != tc.want {
			t.Errorf("IsWrapper(%q) = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestUnwrapCarriers: the wrappers that may hand shell text to a shell,
// or decide where the command runs.
func TestUnwrapCarriers(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want string // "run ARGV", "text VIA: TEXT" or "unknown"
		cwd  string
	}{
		{"npx -p pkg cowsay hi", "run cowsay hi", "/p"},
		{"bunx --call rm", "text bunx -c: rm", "/p"},
		{"nix-shell -p jq --run make", "text nix-shell --run: make", "/p"},
		{"nix-shell --command make", "text nix-shell --command: make", "/p"},
		{"nix-shell -p jq", "unknown", ""},
		{"direnv exec . make", "run make", "/p"},
		{"direnv allow", "unknown", ""},
		{"flock -w 5 /tmp/l rm x", "run rm x", "/p"},
		{"flock /tmp/l -c make", "text flock -c: make", "/p"},
		{"flock --command make /tmp/l", "text flock -c: make", "/p"},
		{"systemd-run rm x", "run rm x", "/"},
		{"systemd-run --user rm x", "run rm x", "/home/u"},
		{"systemd-run --user --same-dir rm x", "run rm x", "/p"},
		{"systemd-run --working-directory=/srv rm x", "run rm x", "/srv"},
		{"xargs -0 -n 1 rm -f", "run rm -f \x00 <stdin>", "/p"},
		{"xargs", "run echo \x00 <stdin>", "/p"},
		{"xargs -I {} mv {} {}.bak", "run mv \x00 \x00.bak <stdin>", "/p"},
		{"xargs --max-args 2 -i rm -rf", "run rm -rf \x00 <stdin>", "/p"}, // a misplaced {}
		{"xargs -I{} eval 'echo ok'", "run eval 'echo ok' <stdin>", "/p"},
	} {
		argv := words(tc.cmd)
		w, ok := Unwrap(argv[0].Text, argv[1:], false, NewScope("/p"), "/home/u")
		var got string
		switch {
		case !ok:
			got = "not a wrapper"
		case w.Unknown:
			got = "unknown"
		case w.Carried:
			got = "text " + w.Via + ": " + w.Text.Text
		default:
			var ws []string
			for _, a := range w.Args {
				ws = append(ws, a.Text)
			}
			got = "run " + strings.Join(ws, " ")
			if w.Fed && w.Stdin.Taint&TaintUnknown != 0 {
				got += " <stdin>"
			}
		}
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.cmd, got, tc.want)
		}
		if tc.cwd != "" && w.Scope.Cwd != tc.cwd {
			t.Errorf("%s: runs in %q, want %q", tc.cmd, w.Scope.Cwd, tc.cwd)
		}
	}
}

// TestOptScan: options read as GNU getopt reads them, with permutation
// and abbreviated long options.
func TestOptScan(t *testing.T) {
	o := OptScan{Valued: "cu", Long: []string{"--command", "--user"}}
	for _, tc := range []struct {
		args    string
		permute bool
		opts    string // name=value pairs seen
		ops     string
	}{
		{"-c ls bob", false, "-c=ls", "bob"},
		{"-lcls bob", false, "-l= -c=ls", "bob"},
		{"bob -c ls", false, "", "bob -c ls"},
		{"bob -c ls", true, "-c=ls", "bob"},
		{"--comm ls bob", false, "--command=ls", "bob"},
		{"--user=root -- -c", true, "--user=root", "-c"},
		{"--c=x y", false, "--c=x", "y"}, // too short to abbreviate
	} {
		var opts []string
		ops := o.Scan(words(tc.args), tc.permute, func(name string, v Word) { opts = append(opts, name+"="+v.Text) })
		var got []string
		for _, w := range ops {
			got = append(got, w.Text)
		}
		if strings.Join(opts, " ") != tc.opts || strings.Join(got, " ") != tc.ops {
			t.Errorf("%q permute=%v: options %q operands %q, want %q and %q", tc.args, tc.permute, opts, got, tc.opts, tc.ops)
		}
	}
}

// TestReadEnv: env's assignments, unset variables, working directory,
// -S string and command, as env reads them.
func TestReadEnv(t *testing.T) {
	for _, tc := range []struct {
		args string
		want string // "sets | unsets | split | args | cwd clears"
	}{
		{"A=1 B=2 ls -l", "A=1 B=2 | | | ls -l | /p false"},
		{"-u HOME -uPATH --unset=GIT_DIR ls", "| HOME PATH GIT_DIR | | ls | /p false"},
		{"-i A=1 ls", "A=1 | | | ls | /p true"},
		{"- ls", "| | | ls | /p true"},
		{"-0i ls", "| | | ls | /p true"},
		{"-C /srv ls", "| | | ls | /srv false"},
		{"--chdir=/srv -- A=1 ls", "| | | A=1 ls | /srv false"},
		{"A=1 -S 'B=2 rm' x", "A=1 | | 'B=2 | rm' x | /p false"},
		{"-vS 'rm -rf' x", "| | 'rm | -rf' x | /p false"},
		{"-vu FOO rm -rf x", "| FOO | | rm -rf x | /p false"}, // the cluster's -u takes the next word
		{"-iu FOO ls", "| FOO | | ls | /p true"},
		{"-vC /srv ls", "| | | ls | /srv false"},
		{"--unset FOO --chdir /srv ls", "| FOO | | ls | /srv false"},
		{"-P /bin -a sh ls", "| | | ls | /p false"},
		{"--split-string 'rm -rf' x", "| | 'rm | -rf' x | /p false"},
		{"", "| | | | /p false"},
	} {
		var sets, unsets []string
		e := ReadEnv(words(tc.args), NewScope("/p"), "/home/u",
			func(name string, v Word) { sets = append(sets, name+"="+v.Text) },
			func(name Word) { unsets = append(unsets, name.Text) })
		var args []string
		for _, w := range e.Args {
			args = append(args, w.Text)
		}
		got := strings.Join([]string{strings.Join(sets, " "), strings.Join(unsets, " "), e.Split.Text,
			strings.Join(args, " "), e.Scope.Cwd + " " + strconv.FormatBool(e.Clears)}, " | ")
		if got = strings.Join(strings.Fields(got), " "); got != strings.Join(strings.Fields(tc.want), " ") {
			t.Errorf("env %s: %q, want %q", tc.args, got, tc.want)
		}
	}
	if got := DropAssignments(words("A=1 B=2 ls C=3")); len(got) != 2 || got[0].Text != "ls" {
		t.Errorf("DropAssignments: %v, want ls C=3", got)
	}
}

// TestShellArgs: a shell's options end where its operands start; -c
// makes the first operand the command text.
func TestShellArgs(t *testing.T) {
	for _, tc := range []struct {
		args    string
		ops     string
		command bool
	}{
		{"-c ls x y", "ls x y", true},
		{"-ec ls", "ls", true},
		{"-o pipefail -c ls", "ls", true},
		{"-eo pipefail script.sh", "script.sh", false},
		{"-oc ls", "ls", false}, // the rest of the cluster is the name -o takes
		{"+x --rcfile rc -l script.sh a", "script.sh a", false},
		{"--norc -- -c", "-c", false},
		{"- -c", "-c", false},
		{"", "", false},
	} {
		ops, command := ShellArgs(words(tc.args))
		var got []string
		for _, w := range ops {
			got = append(got, w.Text)
		}
		if strings.Join(got, " ") != tc.ops || command != tc.command {
			t.Errorf("sh %s: operands %q command %v, want %q %v", tc.args, got, command, tc.ops, tc.command)
		}
	}
}
