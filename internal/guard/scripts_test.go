package guard

import (
	"errors"
	"io/fs"
	"strings"
	"testing"
)

// fakeScripts is a file system of script texts by absolute path.
type fakeScripts map[string]string

func (f fakeScripts) read(p string) (string, error) {
	if t, ok := f[p]; ok {
		return t, nil
	}
	return "", fs.ErrNotExist
}

// scriptFiles are the files of TestScriptFiles, in the test project.
func scriptFiles() fakeScripts {
	const p = testProject + "/"
	chain := fakeScripts{}
	for i := 1; i <= 6; i++ {
		chain[p+"c"+string(rune('0'+i))+".sh"] = "echo level\nbash c" + string(rune('0'+i+1)) + ".sh\n"
	}
	files := fakeScripts{
		p + "approve.sh":  "#!/bin/sh\natreides plan approve 1\n",
		p + "pty.sh":      "env -i script -qc \"atreides plan approve 1\" /dev/null\n",
		p + "intent.sh":   "#!/usr/bin/env bash\nset -e\natreides intent approve R\n",
		p + "uninst":      "atreides uninstall\n", // no shebang: the shell runs it with sh
		p + "home.sh":     "#!/bin/bash\ncd /tmp\nrm -rf ~\n",
		p + "ok.sh":       "#!/bin/sh\nset -eu\necho building\ngo build ./...\ngo test ./internal/...\n",
		p + "rmarg.sh":    "rm -rf \"$1\"\n",
		p + "lib.sh":      "cleanup() { atreides uninstall; }\n",
		p + "outer.sh":    "echo outer\nsh inner.sh\n",
		p + "inner.sh":    "atreides uninstall\n",
		p + "loop.sh":     "echo again\nbash loop.sh\n",
		p + "sub/x.sh":    "atreides uninstall\n",
		p + "tool.py":     "#!/usr/bin/env python3\natreides uninstall\n",
		p + "fishy":       "#!/usr/bin/fish\natreides uninstall\n",
		p + "elf":         "\x7fELF\x02\x01\x01\x00atreides uninstall\n",
		p + "big.sh":      "atreides uninstall\n" + strings.Repeat("#", MaxScriptBytes),
		p + "written.sh":  "atreides uninstall\n",
		"/opt/tools/x.sh": "atreides uninstall\n",
		p + "gradle.sh":   "#!/bin/sh\nJAVACMD=$JAVA_HOME/bin/java\neval set -- $OPTS \"$@\"\nexec \"$JAVACMD\" \"$@\"\n",
		p + "zsh.sh":      "atreides plan approve 1\nx=${(f)y}\n",
		"/usr/bin/helper": "#!/bin/sh\nrm -rf ~\n",
	}
	for k, v := range chain {
		files[k] = v
	}
	files[p+"c4.sh"] = "echo last\n" // c1..c4: four levels
	return files
}

// TestScriptFiles: a shell script run from a file is judged by its text
// (read through Request.ReadScript), as if typed inline; one that cannot
// be read keeps the verdict of an unknown program.
func TestScriptFiles(t *testing.T) {
	const pa, sc = "self.plan-approve", "self.command"
	files := scriptFiles()
	with := func(r *Request) { r.ReadScript = files.read }
	runSelfCases(t, DefaultPolicy(), []selfCase{
		// Every way of running a script, and under wrappers.
		{`bash approve.sh`, Deny, pa},
		{`sh approve.sh`, Deny, pa},
		{`dash -e approve.sh`, Deny, pa},
		{`zsh approve.sh`, Deny, pa},
		{`ksh approve.sh`, Deny, pa},
		{`./approve.sh`, Deny, pa},
		{`source approve.sh`, Deny, pa},
		{`. ./approve.sh`, Deny, pa},
		{`env -i bash approve.sh`, Deny, ""},
		{`nohup ./approve.sh &`, Deny, pa},
		{`timeout 60 sh ./approve.sh`, Deny, pa},
		{`/home/user/proj/approve.sh`, Deny, pa},
		{`bash pty.sh`, Deny, ""},
		{`bash intent.sh`, Deny, ""},
		{`./intent.sh`, Deny, ""},
		{`./uninst`, Deny, sc},
		{`bash home.sh`, Deny, ""},
		{`bash rmarg.sh /`, Deny, ""},
		{`source lib.sh && cleanup`, Deny, sc},
		{`bash outer.sh`, Deny, sc},
		{`cd sub && bash x.sh`, Deny, sc},
		{`bash sub/x.sh`, Deny, sc},
		{`at -f approve.sh now`, Deny, pa},
		// Harmless scripts stay allowed.
		{`bash ok.sh`, Allow, ""},
		{`./ok.sh`, Allow, ""},
		{`source ok.sh`, Allow, ""},
		{`bash rmarg.sh build`, Allow, ""},
		{`bash loop.sh`, Allow, ""},
		{`zsh zsh.sh`, Ask, "parse.unreadable"}, // a line the parser cannot read hides none before it
		{`./gradle.sh build`, Allow, ""},        // what the guard cannot know inside a script does not ask
		{`eval set -- $OPTS "$@"`, Ask, ""},     // ... while typed inline it does // a script running itself is judged once
		{`source lib.sh`, Allow, ""},
		{`bash x.sh`, Allow, ""}, // the cwd's x.sh: there is none
		// Scripts running scripts: four levels are read, a fifth asks.
		{`bash c1.sh`, Allow, ""},
		// Not read: keeps today's verdict for an unknown program.
		{`bash missing.sh`, Allow, ""},
		{`./configure && make`, Allow, ""},
		{`python3 tool.py`, Allow, ""},
		{`./tool.py`, Allow, ""},
		{`./fishy`, Allow, ""},
		{`./elf`, Allow, ""},
		{`bash big.sh`, Allow, ""},
		{`ssh build1 bash /opt/tools/x.sh`, Allow, ""},
		{`bash /opt/tools/x.sh`, Deny, sc},                            // outside the project, not an installed program
		{`bash /usr/bin/helper`, Allow, ""},                           // the installed system's: judged as the program
		{`echo 'echo hi' > written.sh && bash written.sh`, Allow, ""}, // judged as written
	}, with)
	deep := scriptFiles()
	deep[testProject+"/c4.sh"] = "bash c5.sh\n"
	deep[testProject+"/c5.sh"] = "echo five\n"
	runSelfCases(t, DefaultPolicy(), []selfCase{{`bash c1.sh`, Ask, "dynamic.script"}},
		func(r *Request) { r.ReadScript = deep.read })
	// Without a reader nothing is read.
	runSelfCases(t, DefaultPolicy(), []selfCase{{`bash approve.sh`, Allow, ""}, {`./uninst`, Allow, ""}}, nil)
}

// TestScriptFilesReadOnlyScripts: the reader is asked only for a file a
// shell runs, never for the programs of ordinary commands.
func TestScriptFilesReadOnlyScripts(t *testing.T) {
	var asked []string
	read := func(p string) (string, error) {
		asked = append(asked, p)
		return "", errors.New("no")
	}
	for _, cmd := range []string{`ls -la`, `git status`, `go test ./...`, `python3 x.py`, `/usr/bin/rm -f a`, `cat x.sh`, `node tool.js`} {
		r := selfReq("shell", cmd)
		r.ReadScript = read
		DefaultPolicy().Check(r)
	}
	if len(asked) != 0 {
		t.Fatalf("read %q for commands that run no script", asked)
	}
	r := selfReq("shell", `bash x.sh`)
	r.ReadScript = read
	DefaultPolicy().Check(r)
	if len(asked) != 1 || asked[0] != testProject+"/x.sh" {
		t.Fatalf("bash x.sh read %q, want the project's x.sh once", asked)
	}
}

// FuzzScriptFile: any script text, run in every way a script file is run
// (the reader gives the same text for every path, so scripts that run
// scripts recurse), gets a well-formed, deterministic verdict without a
// panic or a hang, in the judging walk and the effects-only walk. The text
// itself goes through shell.Parse, which FuzzParse (internal/shell) and
// FuzzCheck cover.
func FuzzScriptFile(f *testing.F) {
	for _, s := range []string{"atreides plan approve 1\n", "#!/bin/sh\nbash x.sh\n", "#!/usr/bin/env -S bash -e\nrm -rf \"$1\"\n",
		"#!", "#!\n", "\x00", "cd sub; . ./x.sh; source x.sh \"$@\"", "f() { ./x.sh; }; f; f", "#!/usr/bin/env\n"} {
		f.Add(s)
	}
	p := DefaultPolicy()
	f.Fuzz(func(t *testing.T, text string) {
		read := func(string) (string, error) { return text, nil }
		for _, cmd := range []string{`bash x.sh /`, `./x.sh`, `source x.sh a`, `cd sub && sh ./x.sh`} {
			r := selfReq("shell", cmd)
			r.ReadScript = read
			stop := watchdog("script", text)
			res := p.check(r)
			noRules.checkShell(r)
			stop()
			checkResult(t, cmd, res)
			if again := p.check(r); again.Verdict != res.Verdict || again.Rule != res.Rule {
				t.Fatalf("%s not deterministic: %s %s then %s %s", cmd, res.Verdict, res.Rule, again.Verdict, again.Rule)
			}
		}
		_ = shellText(text, true)
	})
}
