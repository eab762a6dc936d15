package main

import (
	"flag"
	"fmt"
	"os"
	"testing"

	"github.com/atreides-dev/atreides/internal/cli"
	"github.com/rogpeppe/go-internal/testscript"
)

var update = flag.Bool("u", false, "rewrite the golden output in testdata/script")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"atreides": func() { os.Exit(cli.Main(os.Args, os.Stdin, os.Stdout, os.Stderr)) },
	})
}

// TestScripts runs every testdata/script/*.txtar against the real command
// line, in-process, with a throwaway HOME.
//
// The condition [root-marker] holds when a /.atreides was there before the
// scripts ran (left by something else on this machine): a script that
// checks nothing is kept at / then checks what it can, that no state was
// written into it, instead of failing on what lies above its work
// directory.
func TestScripts(t *testing.T) {
	_, err := os.Lstat("/.atreides")
	rootMarker := err == nil
	testscript.Run(t, testscript.Params{
		Condition: func(cond string) (bool, error) {
			if cond == "root-marker" {
				return rootMarker, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		UpdateScripts:       *update,
		Cmds:                map[string]func(*testscript.TestScript, bool, []string){"jsonshape": jsonShape},
		Setup: func(env *testscript.Env) error {
			env.Setenv("HOME", env.WorkDir+"/home")
			env.Setenv("XDG_CONFIG_HOME", "")
			env.Setenv("XDG_STATE_HOME", "")
			env.Setenv("CLAUDE_PROJECT_DIR", "")
			return os.MkdirAll(env.WorkDir+"/home", 0o755)
		},
	})
}
