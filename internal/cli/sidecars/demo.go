package sidecars

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/demo"
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
	if o, err := demo.Run([]string{exe, "todo", "add", "Make TestChangelog pass"}, env, proj, nil); err != nil || o.Exit != 0 {
		return fmt.Errorf("add the demo todo: %v %s", err, o.Stderr)
	}
	fmt.Fprintln(io.Out, "added an atreides todo: Make TestChangelog pass")

	home, _ := os.UserHomeDir()
	steps, err := demo.Steps(proj, home, "demo-"+time.Now().UTC().Format("20060102T150405"))
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
