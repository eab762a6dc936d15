package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/cli/govern"
	"github.com/atreides-dev/atreides/internal/cli/inspect"
	"github.com/atreides-dev/atreides/internal/cli/reviews"
	"github.com/atreides-dev/atreides/internal/cli/setup"
	"github.com/atreides-dev/atreides/internal/cli/sidecars"
	"github.com/atreides-dev/atreides/internal/cli/work"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/spf13/cobra"
)

// rootAbout is the head of atreides's help: the hosts of the registry by
// how they reach atreides (host.Transport), wrapped to the help's width
// whatever their names' lengths.
func rootAbout() string {
	plugins := command.HostDisplays(all.Via(host.Serve))
	for i, d := range plugins {
		plugins[i] = d + "'s"
	}
	s := command.AppendList("Agent hosts call atreides on every hook event: ", command.HostDisplays(all.Via(host.Hook)))
	s = command.AppendList(s+" run 'atreides hook <host>'; ", plugins)
	s += ` plugin keeps one 'atreides serve --stdio' running. For each event
atreides decides allow, ask or deny for commands and file access, keeps the
session's state under .atreides/, and injects context for the agent.`
	return "atreides: guardrails and orchestration for AI coding agents.\n\n" + wrap(s, command.HelpWidth)
}

// wrap breaks s into lines of at most width characters, between words.
func wrap(s string, width int) string {
	var b strings.Builder
	col := 0
	for i, w := range strings.Fields(s) {
		switch {
		case i == 0:
		case col+1+len(w) > width:
			b.WriteByte('\n')
			col = 0
		default:
			b.WriteByte(' ')
			col++
		}
		b.WriteString(w)
		col += len(w)
	}
	return b.String()
}

// rootFooter is the foot of atreides's help: how to start with each host
// of the registry (host.Host.Start).
func rootFooter() string {
	var b strings.Builder
	b.WriteString(rootFooterHead)
	const registers = "register the hooks"
	prev := ""
	for _, h := range all.All() {
		start := h.Start
		if strings.HasPrefix(prev, registers) && strings.HasPrefix(start, registers) {
			start = "..." + start[len(registers):] // as the line above
		}
		fmt.Fprintf(&b, "  atreides install %-12s%s\n", h.Name, start)
		prev = h.Start
	}
	return b.String() + rootFooterTail
}

const rootFooterHead = `Flags may come before or after arguments; '--' ends the flags.
Run 'atreides help <command>' or 'atreides <command> --help' for details.

Getting started:
  atreides install             list the agent hosts on this machine and what install writes
`

const rootFooterTail = `  atreides doctor              check that everything is in place
  atreides demo                see it work on a throwaway project

Exit status:
  0  success (for 'check': the command was evaluated, whatever the verdict)
  1  the command failed; the message says why
  2  bad usage; for 'hook', an explicit block that the host reads from stderr
  3  'doctor' or 'config validate' found problems; 'check --exit-code' denied

Files:
  .atreides/config.yaml              project policy (commit it)
  ~/.config/atreides/config.yaml     your defaults for every project
  .atreides/state.db                 session state (git-ignored)
  .atreides/audit.jsonl              every decision, for 'atreides log' (git-ignored)
  .atreides/log                      atreides's own errors and warnings (git-ignored)
`

// rootOptions are the flags of atreides itself.
type rootOptions struct {
	version bool
}

// hotCommand is the constructor of a command hosts start on every event,
// nil for any other: a command line that starts with one of them gets a
// tree of that one command, so that the agent's critical path does not
// build, for every event, the tree of every command
// (BenchmarkCommandTree). A switch, not a map: a map here would be built
// in the package init of every process.
func hotCommand(name string) func(*command.IO) *cobra.Command {
	switch name {
	case "hook":
		return newHookCmd
	case "serve":
		return newServeCmd
	}
	return nil
}

// commands are the constructors of the commands a command line needs, in
// the order help lists them.
func commands(args []string) []func(*command.IO) *cobra.Command {
	if len(args) > 0 {
		if c := hotCommand(args[0]); c != nil {
			return []func(*command.IO) *cobra.Command{c}
		}
	}
	return []func(*command.IO) *cobra.Command{
		newHookCmd,
		newServeCmd,
		setup.NewInitCmd,
		setup.NewInstallCmd,
		setup.NewUninstallCmd,
		setup.NewDoctorCmd,
		work.NewStatusCmd,
		inspect.NewLogCmd,
		inspect.NewExportCmd,
		inspect.NewCheckCmd,
		setup.NewConfigCmd,
		setup.NewTrustCmd,
		work.NewTodoCmd,
		work.NewTaskCmd,
		work.NewPlanCmd,
		work.NewErrorsCmd,
		work.NewBgCmd,
		work.NewAnchorCmd,
		reviews.NewReviewCmd,
		govern.NewIntentCmd,
		inspect.NewTraceCmd,
		sidecars.NewStoreCmd,
		sidecars.NewUICmd,
		sidecars.NewTopCmd,
		sidecars.NewOtelCmd,
		sidecars.NewMCPCmd,
		sidecars.NewDemoCmd,
		newVersionCmd,
		newCompletionCmd,
		newManCmd,
	}
}

// newRootCmd builds the command tree for a command line (see commands).
// Every command reads and writes through io, never through os, so the
// whole tree runs in tests.
func newRootCmd(io *command.IO, args []string) *cobra.Command {
	o := &rootOptions{}
	// Commands are listed in the order they are added: the order a user
	// meets them in, not the alphabet.
	cobra.EnableCommandSorting = false
	root := &cobra.Command{
		Use:           "atreides",
		Short:         "guardrails and orchestration for AI coding agents",
		Args:          cobra.ArbitraryArgs,
		SilenceErrors: true,
		SilenceUsage:  true,
		// 'atreides completion' is generated from this tree by a command
		// of ours, not cobra's default one.
		CompletionOptions: cobra.CompletionOptions{DisableDefaultCmd: true},
		RunE: func(cmd *cobra.Command, args []string) error {
			switch {
			case o.version:
				return (&versionOptions{}).run(io)
			case len(args) == 0:
				writeRootHelp(io.Err, cmd)
				return command.ExitStatus(command.ExitUsage)
			}
			return command.UnknownCommand(cmd, args[0])
		},
	}
	root.Flags().BoolVar(&o.version, "version", false, "print the version")
	root.SetIn(io.In)
	root.SetOut(io.Out)
	root.SetErr(io.Err)
	root.SetFlagErrorFunc(command.FlagError)
	root.SetHelpCommand(newHelpCmd(root))
	subHelp := root.HelpFunc()
	root.SetHelpFunc(func(cmd *cobra.Command, args []string) {
		if cmd == root {
			writeRootHelp(io.Out, cmd)
			return
		}
		subHelp(cmd, args)
	})
	for _, c := range commands(args) {
		cmd := c(io)
		argsAreUsage(cmd)
		root.AddCommand(cmd)
	}
	if completing(args) {
		addDynamicCompletion(io, root)
	}
	return root
}

// argsAreUsage makes a wrong number of arguments a usage error (exit 2,
// as the help says) in cmd and its subcommands, cobra's own checks
// (cobra.RangeArgs and the like) included, which return plain errors.
func argsAreUsage(cmd *cobra.Command) {
	if check := cmd.Args; check != nil {
		cmd.Args = func(c *cobra.Command, args []string) error {
			err := check(c, args)
			var u *command.UsageError
			if err == nil || errors.As(err, &u) {
				return err
			}
			return &command.UsageError{Msg: err.Error()}
		}
	}
	for _, sub := range cmd.Commands() {
		argsAreUsage(sub)
	}
}

func writeRootHelp(w io.Writer, root *cobra.Command) {
	var b strings.Builder
	b.WriteString(rootAbout())
	b.WriteString("\n\nUsage:\n  atreides <command> [flags] [args]\n\nCommands:\n")
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			fmt.Fprintf(&b, "  %-10s %s\n", c.Name(), c.Short)
		}
	}
	b.WriteString("\n")
	b.WriteString(rootFooter())
	io.WriteString(w, b.String())
}
