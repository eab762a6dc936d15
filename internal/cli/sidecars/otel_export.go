package sidecars

import (
	"net/url"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/companion"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/spf13/cobra"
)

const otelExportLong = `Ship the spooled spans to an OpenTelemetry collector over OTLP/HTTP
(protobuf to <endpoint>/v1/traces), with two metrics (decisions per verdict
and rule, hook latency) to <endpoint>/v1/metrics.

The endpoint is --endpoint, else otel.endpoint, else
$OTEL_EXPORTER_OTLP_ENDPOINT; headers (an API key) come from otel.headers
and $OTEL_EXPORTER_OTLP_HEADERS and are never printed. It resumes where the
last run stopped (.atreides/spans.cursor), retries connection errors, 429
and 5xx with backoff, and moves on only once the collector accepted a
batch. --follow keeps shipping as hooks write spans until Ctrl-C.

Runs the atreides-otel program installed next to atreides (a separate
program, so that hooks do not pay for an HTTP client).`

// otelExportOptions are the flags of 'atreides otel export'.
type otelExportOptions struct {
	follow   bool
	endpoint string
}

func newOtelExportCmd(io *command.IO) *cobra.Command {
	o := &otelExportOptions{}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "ship the spooled spans to an OTLP/HTTP collector",
		Long:  otelExportLong,
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.BoolVar(&o.follow, "follow", false, "keep shipping spans as hooks write them, until interrupted")
	f.StringVar(&o.endpoint, "endpoint", "", "the OTLP/HTTP base URL, e.g. http://localhost:4318")
	return cmd
}

// run checks --endpoint here, so a typo needs no companion program, then
// runs atreides-otel.
func (o *otelExportOptions) run(io *command.IO) error {
	if o.endpoint != "" {
		u, err := url.Parse(o.endpoint)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return command.Usagef("--endpoint: want http(s)://host[:port][/path]")
		}
	}
	wd, err := io.Getwd()
	if err != nil {
		return err
	}
	bin, err := companion.Ensure(guard.OTelBinary, "./cmd/"+guard.OTelBinary, io.Err)
	if err != nil {
		return err
	}
	var args []string
	if o.follow {
		args = append(args, "--follow")
	}
	if o.endpoint != "" {
		args = append(args, "--endpoint", o.endpoint)
	}
	return command.RunCompanion(io, bin, wd, args, nil)
}
