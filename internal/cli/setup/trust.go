package setup

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

const trustLong = `A project's .atreides/config.yaml comes with the repository, so until you
trust it atreides applies only what tightens the policy: settings that
loosen the guard or governance (guard off, rules disabled or allowed,
exemptions, weaker switches), run a program (checks, background commands,
plan verification) or open a connection (store, otel) are ignored, and the
session start, doctor, config show and check say so.

'atreides trust' shows exactly what would change, asks, and records your
trust outside the repository (in your atreides configuration directory),
pinned to the file's content and to the project files its programs name:
when any of them changes, the file is untrusted again. An agent can never
run this command.`

// trustOptions are the flags of 'atreides trust'.
type trustOptions struct {
	yes, revoke, asJSON bool
}

func NewTrustCmd(io *command.IO) *cobra.Command {
	o := &trustOptions{}
	cmd := &cobra.Command{
		Use:   "trust",
		Short: "trust this project's configuration (what loosens the guard or runs programs)",
		Long:  trustLong,
		Args:  cobra.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.BoolVarP(&o.yes, "yes", "y", false, "trust without asking (for scripts)")
	f.BoolVar(&o.revoke, "revoke", false, "stop trusting this project's configuration")
	f.BoolVar(&o.asJSON, "json", false, "print the result as JSON (without --yes, only what trust would change)")
	return cmd
}

// trustJSON is `trust --json`.
type trustJSON struct {
	File    string           `json:"file"`
	Trusted bool             `json:"trusted"`
	SHA256  string           `json:"sha256"`
	Pins    []string         `json:"pins"`
	Ignored []config.Ignored `json:"ignored"`
	// Action is what this run did: trusted, revoked or none.
	Action string `json:"action"`
}

func (o *trustOptions) run(io *command.IO) error {
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	paths := config.DefaultPaths(root)
	now, err := config.Load(paths)
	if err != nil {
		return fmt.Errorf("%w\n(fix the file first: 'atreides config validate')", err)
	}
	t := now.Trust()
	if t.File == "" { // no project file was read
		if o.asJSON {
			return command.PrintJSON(io, trustJSON{Action: "none", Pins: []string{}, Ignored: []config.Ignored{}})
		}
		fmt.Fprintf(io.Out, "no project configuration here (%s): nothing to trust\n", paths.Project)
		return nil
	}
	// What the file would lose untrusted, whatever its state now.
	untrusted := paths
	untrusted.Trust = ""
	u, err := config.Load(untrusted)
	if err != nil {
		return err
	}
	doc := trustJSON{File: t.File, Trusted: t.Trusted, SHA256: t.Digest, Pins: view.List(t.Refs), Ignored: view.List(u.Trust().Ignored), Action: "none"}
	switch {
	case o.revoke:
		if err := config.TrustProject(paths, t, true, time.Now()); err != nil {
			return err
		}
		doc.Trusted, doc.Action = false, "revoked"
	case t.Trusted, o.asJSON && !o.yes:
		// Trusted already, or asked for a report: nothing to do.
	default:
		if !o.asJSON {
			o.describe(io, doc)
		}
		ok, err := o.confirm(io)
		if err != nil {
			return err
		}
		if !ok {
			fmt.Fprintln(io.Err, "not trusted: nothing changed")
			return command.ExitStatus(1)
		}
		if err := config.TrustProject(paths, t, false, time.Now()); err != nil {
			return err
		}
		doc.Trusted, doc.Action = true, "trusted"
	}
	if o.asJSON {
		return command.PrintJSON(io, doc)
	}
	o.report(io, doc)
	return nil
}

// describe prints what trusting the file changes, before the question.
func (o *trustOptions) describe(io *command.IO, v trustJSON) {
	st := command.StyleOf(io)
	fmt.Fprintf(io.Out, "%s is %s (sha256 %s)\n", v.File, st.Paint(command.SGRYellow, "untrusted"), config.ShortDigest(v.SHA256))
	if len(v.Ignored) == 0 {
		fmt.Fprintln(io.Out, "Nothing in it loosens the guard, runs a program or opens a connection: trusting it changes nothing now.")
	} else {
		fmt.Fprintln(io.Out, "Until you trust it, atreides ignores these settings of it:")
		command.PrintIgnored(io.Out, v.Ignored)
	}
	if len(v.Pins) > 0 {
		fmt.Fprintf(io.Out, "Trust also pins the files its programs name: %s\n", strings.Join(v.Pins, ", "))
	}
}

// report prints the outcome.
func (o *trustOptions) report(io *command.IO, v trustJSON) {
	switch v.Action {
	case "revoked":
		fmt.Fprintf(io.Out, "revoked: atreides again ignores what loosens the guard or runs programs in %s\n", v.File)
	case "trusted":
		fmt.Fprintf(io.Out, "trusted: %s (sha256 %s) applies in full until it changes\n", v.File, config.ShortDigest(v.SHA256))
	default:
		fmt.Fprintf(io.Out, "%s is trusted as it is (sha256 %s)", v.File, config.ShortDigest(v.SHA256))
		if len(v.Ignored) > 0 {
			fmt.Fprintf(io.Out, "; untrusted, %d of its settings would be ignored", len(v.Ignored))
		}
		fmt.Fprintln(io.Out)
	}
}

// confirm asks at a terminal; elsewhere only --yes says yes.
func (o *trustOptions) confirm(io *command.IO) (bool, error) {
	if o.yes {
		return true, nil
	}
	if !command.StdinTerminal(io) {
		return false, command.Usagef("not a terminal: run 'atreides trust' yourself, or with --yes in a script")
	}
	fmt.Fprint(io.Out, "Trust this file as it is now? [y/N] ")
	line, err := bufio.NewReader(io.In).ReadString('\n')
	if err != nil && !errors.Is(err, os.ErrClosed) && line == "" {
		return false, nil
	}
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true, nil
	}
	return false, nil
}
