package cli

import (
	"context"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/spf13/cobra"
)

const serveAbout = `Answer hook requests from a plugin that runs inside its host (OpenCode,
or a fork that loads the same plugin and names itself with --host),
as JSON lines: one request per line on stdin, one response per line on
stdout (protocol version 1: {"v":1,"id":N,"method":M,"params":{...}} in,
{"id":N,"result":{...}} or {"id":N,"error":{"code":C,"message":S}} out;
method "hello" returns the protocol and atreides versions).

The state store is opened for each request and closed after it, exactly
as for 'atreides hook'; a request is answered once decided, and its state
is saved behind the answer (the session's next request waits for it).
The configuration and the guard policy are kept between requests and
read again when a config file changes. At most 128 requests are read
ahead; one read beyond that is answered at once with error -32004 (busy)
and not handled. Exits when stdin closes, after answering every
request in flight. Started by the atreides OpenCode plugin; not meant to
be run by hand.`

// serveOptions are the flags of 'atreides serve'.
type serveOptions struct {
	stdio   bool
	timeout time.Duration
	host    string
}

func newServeCmd(io *command.IO) *cobra.Command {
	o := &serveOptions{}
	cmd := &cobra.Command{
		Use:   "serve --stdio [flags]",
		Short: "answer a host plugin's hooks as JSON lines (OpenCode starts this)",
		Long:  serveAbout,
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.stdio, "stdio", false, "speak JSON lines on stdin and stdout (the only transport)")
	f.DurationVar(&o.timeout, "timeout", hook.ServeTimeout, "deadline of one request")
	f.StringVar(&o.host, "host", hook.DefaultServed, "the host the plugin runs in: "+servedHosts())
	return cmd
}

func (o *serveOptions) run(io *command.IO) error {
	if !o.stdio {
		return command.Usagef("--stdio is required (the only transport)")
	}
	if o.timeout <= 0 {
		return command.Usagef("--timeout must be positive")
	}
	h, ok := all.ByName(o.host)
	if !ok || h.Via != host.Serve {
		return command.Usagef("--host %q: not a host whose plugin starts serve (%s)", o.host, servedHosts())
	}
	return hook.NewServer(&io.Process, o.timeout, h).Serve(context.Background(), io.In, io.Out)
}

// servedHosts names the hosts whose plugin starts serve, for messages.
func servedHosts() string {
	var names []string
	for _, h := range all.Via(host.Serve) {
		names = append(names, h.Name)
	}
	return strings.Join(names, ", ")
}
