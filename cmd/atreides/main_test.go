package main

import (
	"flag"
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
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
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
