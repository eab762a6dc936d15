package shell

import (
	"slices"
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
		sc.Funcs["f"] = &syntax.Stmt{}
		inner, in, ok := Unwrap(argv[0].Text, argv[1:], tc.assigns, sc)
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
		if _, _, ok := Unwrap(name, nil, false, NewScope("/p")); ok {
			t.Errorf("%s read as a plain wrapper", name)
		}
	}
	if !slices.IsSorted(Wrappers()) || !slices.Contains(Wrappers(), "nohup") {
		t.Errorf("Wrappers() = %q: want the names, sorted", Wrappers())
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
