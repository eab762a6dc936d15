package cli

import (
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/spf13/cobra"
)

// hookHosts lists the hosts 'atreides hook' answers, for messages.
func hookHosts() string {
	var names []string
	for _, h := range all.Via(host.Hook) {
		names = append(names, h.Name)
	}
	return strings.Join(names, ", ")
}

// The flags of 'atreides hook', named once for the command tree and for
// hookArgs, which reads them without it.
const (
	hookEventFlag   = "event"
	hookTimeoutFlag = "timeout"
)

// hookOptions are the arguments of 'atreides hook'.
type hookOptions struct {
	host    string
	event   string
	timeout float64 // seconds; the host's timeout for this hook, as installed
}

func newHookCmd(io *command.IO) *cobra.Command {
	o := &hookOptions{}
	cmd := &cobra.Command{
		Use:   "hook <host>",
		Short: "answer one hook event from an agent host (hosts call this)",
		Long:  "Answer one hook event read from stdin, in the host's protocol.\nHosts: " + hookHosts() + ". Installed by 'atreides install', with the timeout\nit gave the host; not meant to be run by hand.",
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return command.Usagef("want exactly one host, got %d arguments", len(args))
			}
			o.host = args[0]
			return o.run(io)
		},
	}
	cmd.Flags().StringVar(&o.event, hookEventFlag, "", "the host's event name, used when stdin cannot be read")
	cmd.Flags().Float64Var(&o.timeout, hookTimeoutFlag, 0, "the host's timeout for this hook in seconds; atreides answers before it")
	return cmd
}

func (o *hookOptions) run(io *command.IO) error {
	h, ok := all.ByName(o.host)
	if !ok || h.Via != host.Hook {
		return command.Usagef("unknown host %q (known: %s)", o.host, hookHosts())
	}
	budget := hook.Budget(io.Getenv, time.Duration(o.timeout*float64(time.Second)))
	if exit := hook.Answer(&io.Process, h.Adapter, o.event, budget); exit != 0 {
		return command.ExitStatus(exit)
	}
	return nil
}

// hookArgs reads the command line hosts run on every event, 'hook HOST
// [--event NAME] [--timeout SECONDS]' (flags in either spelling, before or
// after the host), without building the command tree: cobra's tree of
// every command costs each hook process about as much as deciding a
// simple event. Anything else (help, an unknown flag, a value that does
// not parse, a missing host) returns false, and the full parser answers
// it with its usual messages.
func hookArgs(args []string) (*hookOptions, bool) {
	if len(args) < 2 || args[0] != "hook" {
		return nil, false
	}
	o := &hookOptions{}
	hosts := 0
	for i := 1; i < len(args); i++ {
		a := args[i]
		if !strings.HasPrefix(a, "-") {
			o.host = a
			hosts++
			continue
		}
		name, val, inline := strings.Cut(a, "=")
		if !inline {
			if i+1 >= len(args) {
				return nil, false
			}
			i++
			val = args[i]
		}
		if !o.set(name, val) {
			return nil, false
		}
	}
	return o, hosts == 1
}

// set sets the flag name (with its dashes) to val, reporting whether it is
// one of the hook's flags and val parses.
func (o *hookOptions) set(name, val string) bool {
	switch name {
	case "--" + hookEventFlag:
		o.event = val
		return true
	case "--" + hookTimeoutFlag:
		t, err := strconv.ParseFloat(val, 64)
		o.timeout = t
		return err == nil
	}
	return false
}
