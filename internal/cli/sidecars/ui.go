package sidecars

import (
	"os"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/companion"
	"github.com/atreides-dev/atreides/internal/dashboard/listen"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/spf13/cobra"
)

const uiLong = `Serve a dashboard of this project in the browser: its sessions and each
session's timeline (phases, tool calls with their verdicts, strikes, todos,
subagents, background tasks), the decisions of the audit trail with
filters, intents and their leases, the trace ledger with the diff of each
change where git history proves it, the task board and background tasks.
The page updates within a second of a hook event.

It reads the store with one short read per change, however many pages are
open, so hooks never wait for it. It changes nothing except through two
confirmed actions, the same as the commands: release an intent lease
(atreides intent release) and cancel a background task (atreides bg
cancel). Actions need the confirmation code printed on this terminal
(stderr) at start, typed once in the page; no page or endpoint serves it.

It listens on 127.0.0.1:7433 (--addr). A non-loopback address is refused
unless --allow-remote is given with a token of 16 characters or more
(--token, or ATREIDES_UI_TOKEN); every request must then carry it: open the
page once with ?token=..., or send Authorization: Bearer .... --all shows
the sessions of every project atreides knows. Ctrl-C stops it.

Runs the atreides-ui program installed next to atreides (a separate
program, so that hooks do not pay for a web server).`

// uiOptions are the flags of 'atreides ui'.
type uiOptions struct {
	addr        string
	open        bool
	all         bool
	allowRemote bool
	token       string
}

func NewUICmd(io *command.IO) *cobra.Command {
	o := &uiOptions{}
	cmd := &cobra.Command{
		Use:   "ui",
		Short: "serve a live dashboard of sessions, decisions, intents and the ledger",
		Long:  uiLong,
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.StringVar(&o.addr, "addr", listen.DefaultAddr, "the address to listen on (host:port)")
	f.BoolVar(&o.open, "open", false, "open the dashboard in the browser")
	f.BoolVar(&o.all, "all", false, "show every project atreides knows, not only this one")
	f.BoolVar(&o.allowRemote, "allow-remote", false, "allow a non-loopback --addr (needs a token)")
	f.StringVar(&o.token, "token", "", "require this token on every request (default $ATREIDES_UI_TOKEN)")
	return cmd
}

// run checks the address here, so a refusal needs no companion program,
// then runs atreides-ui with the token in its environment (never on its
// command line, which every user of the machine can read).
func (o *uiOptions) run(io *command.IO) error {
	if o.token == "" {
		o.token = io.Getenv("ATREIDES_UI_TOKEN")
	}
	if err := listen.Check(o.addr, o.allowRemote, o.token); err != nil {
		return err
	}
	wd, err := io.Getwd()
	if err != nil {
		return err
	}
	bin, err := companion.Ensure(guard.UIBinary, "./cmd/"+guard.UIBinary, io.Err)
	if err != nil {
		return err
	}
	args := []string{"--addr", o.addr}
	for flag, on := range map[string]bool{"--open": o.open, "--all": o.all, "--allow-remote": o.allowRemote} {
		if on {
			args = append(args, flag)
		}
	}
	return command.RunCompanion(io, bin, wd, args, append(os.Environ(), "ATREIDES_UI_TOKEN="+o.token))
}
