package setup

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/doctor"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/spf13/cobra"
)

// doctorAbout is doctor's help, with every host of the registry.
func doctorAbout() string {
	return command.AppendList("Check what is installed where: the hook settings of ", command.HostDisplays(all.All())) +
		` for this project and for the user, whether the binary each hook
runs exists, the configuration, and the health of the state store. Exit 3
when something needs fixing.`
}

// doctorOptions are the flags of 'atreides doctor'.
type doctorOptions struct {
	asJSON bool
}

func NewDoctorCmd(io *command.IO) *cobra.Command {
	o := &doctorOptions{}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "check installation, binary paths and the state store",
		Long:  doctorAbout(),
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	return cmd
}

func (o *doctorOptions) run(io *command.IO) error {
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	wd, _ := io.Getwd()
	doc := doctor.Run(host.EnvAt(io.Getenv, root), wd, hook.Version())
	if o.asJSON {
		if err := command.PrintJSON(io, doc); err != nil {
			return err
		}
	} else {
		printDoctor(io, doc)
	}
	if !doc.OK {
		return &command.ProblemsError{}
	}
	return nil
}

// groupTitles head the text report's groups.
func groupTitles() map[string]string {
	return map[string]string{
		doctor.GroupHosts:  "Installed",
		doctor.GroupFired:  "Hooks firing",
		doctor.GroupConfig: "Configuration",
		doctor.GroupState:  "State",
	}
}

// printDoctor writes one line per check under its group's heading, the
// status coloured on a terminal.
func printDoctor(io *command.IO, doc *doctor.Report) {
	st := command.StyleOf(io)
	fmt.Fprintf(io.Out, "atreides %s, project %s\n", doc.Version, doc.Project)
	titles := groupTitles()
	for _, g := range doctor.Groups() {
		first := true
		for _, c := range doc.Checks {
			if c.Group != g {
				continue
			}
			if first {
				fmt.Fprintf(io.Out, "\n%s\n", st.Bold(titles[g]))
				first = false
			}
			mark := map[string]string{"ok": "ok     ", "problem": "PROBLEM", "note": "note   "}[c.Status]
			fmt.Fprintf(io.Out, "%s  %-24s %s\n", st.Verdict(mark), c.Name, c.Detail)
		}
	}
	if doc.OK {
		fmt.Fprintln(io.Out, "\nno problems found")
	}
}
