package guard

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"mvdan.cc/sh/v3/syntax"

	"github.com/atreides-dev/atreides/internal/shell"
)

// wrapperForms runs `rm README.md` through every carrier the guard
// unwraps; %s stands for the inner command. TestWrappersKeepWrites fails
// when a handler is added without a form here (or a reason in
// notWrappers), so a new wrapper cannot open a scope bypass unnoticed.
var wrapperForms = map[string][]string{
	"sudo": {"sudo %s", "sudo -u root -- %s", "sudo -E -H %s"}, "doas": {"doas -u root %s"}, "run0": {"run0 %s"},
	"pkexec": {"pkexec %s"}, "env": {"env %s", "env -i A=1 %s", "env -u X %s", "env -C . %s"},
	"command": {"command %s"}, "builtin": {"builtin %s"}, "exec": {"exec %s", "exec -a name %s"},
	"nice": {"nice %s", "nice -n 5 %s", "nice --adjustment=5 %s"}, "nohup": {"nohup %s"},
	"timeout": {"timeout 5 %s", "timeout -s KILL 5 %s", "timeout --signal=KILL -k 1 5 %s"},
	"time":    {"time %s", "time -p %s"}, "stdbuf": {"stdbuf -oL %s", "stdbuf -o L %s"},
	"ionice": {"ionice -c3 %s", "ionice -c 2 -n 7 %s"}, "setsid": {"setsid %s", "setsid -f %s"},
	"taskset": {"taskset 0x1 %s", "taskset -c 0 %s"}, "chrt": {"chrt 0 %s", "chrt -i 0 %s"},
	"unbuffer": {"unbuffer %s"}, "caffeinate": {"caffeinate -i %s"}, "fakeroot": {"fakeroot %s"},
	"torsocks": {"torsocks %s"}, "proxychains": {"proxychains %s"}, "proxychains4": {"proxychains4 -q %s"},
	"strace": {"strace -f %s", "strace -o /tmp/t %s"}, "ltrace": {"ltrace %s"}, "xvfb-run": {"xvfb-run -a %s"},
	"dbus-run-session": {"dbus-run-session %s"}, "firejail": {"firejail %s", "firejail --quiet %s"},
	"chroot": {"chroot / %s"}, "flock": {"flock /tmp/l %s", "flock -w 5 /tmp/l %s", "flock /tmp/l -c '%s'"},
	"busybox": {"busybox %s"}, "watch": {"watch -n 1 %s", "watch -x %s"},
	"xargs": {"xargs %s < /dev/null", "xargs -0 %s < /dev/null"}, "parallel": {"parallel %s ::: x"},
	"find": {"find . -maxdepth 0 -exec %s \\;", "find . -maxdepth 0 -exec %s {} +"},
	"eval": {"eval '%s'", "eval %s"}, "trap": {"trap '%s' EXIT"},
	"su": {"su -c '%s'", "su root -c '%s'"}, "script": {"script -c '%s' /dev/null", "script -qc '%s' /dev/null"},
	"uv": {"uv run %s"}, "poetry": {"poetry run %s"}, "pipenv": {"pipenv run %s"}, "bundle": {"bundle exec %s"},
	"pnpm": {"pnpm exec %s"}, "direnv": {"direnv exec . %s"}, "nix-shell": {"nix-shell --run '%s'"},
	"unshare": {"unshare -r %s"}, "nsenter": {"nsenter -t 1 %s"}, "wine": {"wine %s"}, "sg": {"sg wheel '%s'"},
	"!": {"! %s"}, "npx": {"npx %s", "npx -c '%s'"}, "pnpx": {"pnpx %s"}, "bunx": {"bunx %s"},
	"runuser": {"runuser -u root -- %s", "runuser -l root -c '%s'"}, "tmux": {"tmux new-session -d '%s'", "tmux new-window '%s'"},
	"screen": {"screen -dm %s", "screen -dmS job %s"}, "at": {"at now <<< '%s'", "echo '%s' | at now"},
	"batch": {"batch <<< '%s'"}, "systemd-run": {"systemd-run --user -p CPUQuota=5%% sh -c 'cd " + testProject + " && %s'"},
	"systemd-inhibit": {"systemd-inhibit --why=x %s"}, "setpriv": {"setpriv --reuid=1000 %s"}, "eatmydata": {"eatmydata %s"},
	"bwrap": {"bwrap --bind / / %s"}, "cgexec": {"cgexec -g cpu:grp %s"}, "sandbox-exec": {"sandbox-exec -n no-network %s"},
	"numactl": {"numactl -C 0 %s", "numactl --cpunodebind=0 %s"},
}

// notWrappers are handlers that do not run a command given as arguments.
var notWrappers = map[string]string{
	"source": "runs a script file", ".": "runs a script file", "ssh": "runs on another machine",
	"cd": "changes directory", "pushd": "changes directory", "alias": "defines a name",
	"awk": "awk program", "gawk": "awk program", "mawk": "awk program", "nawk": "awk program",
	"busybox-awk": "awk program", "then": "keyword", "do": "keyword", "atreides": "atreides's own verbs (selfguard.go)",
}

func TestWrappersKeepWrites(t *testing.T) {
	for _, name := range slices.Concat(slices.Collect(maps.Keys(handlers.get())), shell.Wrappers()) {
		if isShell(name) {
			continue // covered below with -c
		}
		if _, ok := wrapperForms[name]; !ok && notWrappers[name] == "" {
			t.Errorf("handler %q has no form in wrapperForms and no reason in notWrappers", name)
		}
	}
	var forms []string
	for _, fs := range wrapperForms {
		forms = append(forms, fs...)
	}
	for _, s := range shellNames {
		forms = append(forms, s+" -c '%s'", s+" -ec '%s'")
	}
	forms = append(forms, "sudo timeout 5 nice ionice -c3 %s", "env bash -c 'sudo %s'", "f() { %s; }; f",
		"true && %s", "(%s)", "{ %s; }", "echo $(%s)", "cat <(%s)", "if true; then %s; fi")
	want := testProject + "/README.md"
	for _, f := range forms {
		cmd := strings.ReplaceAll(f, "%s", "rm README.md")
		e := ShellEffects(Request{Tool: "shell", Command: cmd, Cwd: testProject, ProjectRoot: testProject, Home: testHome})
		if !slices.Contains(e.Writes, want) {
			t.Errorf("%s: writes %q (unknown %q), want %s", cmd, e.Writes, e.Unknown, want)
		}
		if r := DefaultPolicy().Check(shellReq(cmd, testProject)); !slices.Contains(r.Effects.Writes, want) {
			t.Errorf("%s: the judging walk writes %q, want %s", cmd, r.Effects.Writes, want)
		}
	}
}

// writingPrograms write the files named in their arguments.
var writingPrograms = map[string]bool{"rm": true, "cp": true, "mv": true, "tee": true, "dd": true, "install": true,
	"rsync": true, "truncate": true, "ln": true, "touch": true, "mkdir": true, "rmdir": true, "unlink": true, "shred": true}

// TestCorpusWritesSeen is the cross-view property over every corpus row:
// whatever the guard resolves into a writing program with an operand, or
// an output redirection to a file, shows up in the command's effects
// (paths or unknown writes), and the judging walk and the effects-only
// walk agree on the paths.
func TestCorpusWritesSeen(t *testing.T) {
	rows, missed := 0, 0
	for _, f := range []string{"cc-safety-net.tsv", "cc-safety-net-multiline.tsv", "dcg.tsv", "dcg-multiline.tsv", "parry-guard.tsv", "bypasses.tsv"} {
		for _, r := range loadCorpus(t, f) {
			rows++
			req := shellReq(r.cmd, testProject)
			res := DefaultPolicy().Check(req)
			eff := ShellEffects(req)
			// Handlers read the judging walk's effects when the guard
			// ran (shellcall.Effects): both walks must agree.
			if !slices.Equal(res.Effects.Writes, eff.Writes) || !slices.Equal(res.Effects.Unknown, eff.Unknown) ||
				res.Effects.Changes != eff.Changes || res.Effects.Verifies != eff.Verifies || !slices.Equal(res.Effects.Programs, eff.Programs) {
				t.Errorf("%s:%d %q: judging walk %+v, effects-only walk %+v", f, r.line, r.cmd, res.Effects, eff)
			}
			why := writesExpected(res.Commands, r.cmd)
			if why != "" && eff.Empty() {
				missed++
				t.Errorf("%s:%d %q: %s, but no write was found", f, r.line, r.cmd, why)
			}
		}
	}
	t.Logf("%d rows, %d with a write the effects missed", rows, missed)
}

// writesExpected says why the command must have effects: a resolved
// writing program with an operand, or an output redirection to a file.
func writesExpected(cmds []string, src string) string {
	for _, c := range cmds {
		f := strings.Fields(c)
		if len(f) < 2 || !writingPrograms[f[0]] {
			continue
		}
		if f[0] == "rsync" && (strings.Contains(f[len(f)-1], ":") || slices.ContainsFunc(f, func(a string) bool {
			return a == "--dry-run" || a == "--list-only" || strings.HasPrefix(a, "-") && !strings.HasPrefix(a, "--") && strings.Contains(a, "n")
		})) {
			continue // a dry run, a listing or a copy to another host
		}
		for _, a := range f[1:] {
			if strings.HasPrefix(a, "/dev/") {
				continue // a descriptor (tee >(cmd)) or a device
			}
			if !strings.HasPrefix(a, "-") || a == "-" {
				if f[0] == "dd" && !strings.HasPrefix(a, "of=") {
					continue
				}
				return "the guard resolved " + c
			}
		}
	}
	file, err := shell.Parse(src)
	if err != nil {
		return ""
	}
	why := ""
	syntax.Walk(file, func(n syntax.Node) bool {
		r, ok := n.(*syntax.Redirect)
		if !ok || why != "" {
			return why == ""
		}
		switch r.Op {
		case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.AppClob:
			if w := r.Word.Lit(); w != "" && !shell.HarmlessDevice(w) && !strings.HasPrefix(w, "/dev/") {
				why = "it redirects output to " + w
			}
		}
		return true
	})
	return why
}
