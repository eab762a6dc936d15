package sidecars

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/demo"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/spf13/cobra"
)

const demoAbout = `Create a throwaway project, install the Claude Code hooks into it, and
replay a recorded Claude Code session through the real 'atreides hook
claude' process, one process per event, printing what each event got.
Nothing the recorded agent asks for is executed.`

// demoOptions are the flags of 'atreides demo'.
type demoOptions struct {
	keep bool
}

func NewDemoCmd(io *command.IO) *cobra.Command {
	o := &demoOptions{}
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "replay a recorded Claude Code session through a throwaway project",
		Long:  demoAbout,
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.keep, "keep", false, "keep the throwaway project and print its path")
	return cmd
}

// sessionEnv is env naming session sid through $ATREIDES_SESSION_ID,
// without the variables in which a host names its own session, which
// would win over it when the demo runs inside an agent's session.
func sessionEnv(env []string, sid string) []string {
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if !slices.Contains(all.SessionVars(), k) && !slices.Contains(state.SessionVars, k) {
			out = append(out, kv)
		}
	}
	return append(out, "ATREIDES_SESSION_ID="+sid)
}

func (opts *demoOptions) run(io *command.IO) error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find this binary: %w", err)
	}
	proj, err := os.MkdirTemp("", "atreides-demo-")
	if err != nil {
		return fmt.Errorf("create the demo project: %w", err)
	}
	if !opts.keep {
		defer os.RemoveAll(proj)
	}
	rep, err := demo.Project(proj, exe)
	if err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "demo project %s\n%s\n", proj, rep)
	env := append(os.Environ(), "CLAUDE_PROJECT_DIR="+proj)
	sid := "demo-" + time.Now().UTC().Format("20060102T150405")
	// The todo goes on the demo session's checklist, as its agent would
	// add it: only a session's own todos hold its stop
	// (docs/work-items.md).
	if o, err := demo.Run([]string{exe, "todo", "add", "Make TestChangelog pass"}, sessionEnv(env, sid), proj, nil); err != nil || o.Exit != 0 {
		return fmt.Errorf("add the demo todo: %v %s", err, o.Stderr)
	}
	fmt.Fprintln(io.Out, "added an atreides todo: Make TestChangelog pass")

	home, _ := os.UserHomeDir()
	steps, err := demo.Steps(proj, home, sid)
	if err != nil {
		return err
	}
	for i, s := range steps {
		o, err := s.Replay(exe, env, proj)
		if err != nil {
			return fmt.Errorf("step %d: %w", i+1, err)
		}
		fmt.Fprintf(io.Out, "\n%2d. %s: %s%s\n", i+1, s.EventName(), s.Note, toolDetail(s))
		for _, line := range strings.Split(demo.Describe(o), "\n") {
			fmt.Fprintf(io.Out, "    -> %s\n", line)
		}
		fmt.Fprintf(io.Out, "    (%.1f ms)\n", float64(o.Duration.Microseconds())/1000)
	}
	fmt.Fprintln(io.Out, "\n'atreides status -v' in the demo project now says:")
	o, err := demo.Run([]string{exe, "status", "-v"}, env, proj, nil)
	if err != nil {
		return err
	}
	io.Out.Write([]byte(o.Stdout))
	if opts.keep {
		fmt.Fprintf(io.Out, "\nthe demo project is kept at %s\n", proj)
	}
	return nil
}

func toolDetail(s demo.Step) string {
	var p struct {
		In struct {
			Command  string `json:"command"`
			FilePath string `json:"file_path"`
		} `json:"tool_input"`
	}
	if json.Unmarshal(s.Input(), &p) != nil {
		return ""
	}
	if p.In.Command != "" {
		return "\n    $ " + p.In.Command
	}
	if p.In.FilePath != "" {
		return "\n    " + p.In.FilePath
	}
	return ""
}
