package sidecars

import (
	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/spf13/cobra"
)

const otelLong = `OpenTelemetry export of this project's hook events.

With otel.enabled in the configuration, every hook event atreides decides
appends one span to .atreides/spans.jsonl (a session is a trace; see
docs/otel.md). 'atreides otel export' ships them to a collector.`

func NewOtelCmd(io *command.IO) *cobra.Command {
	return command.NewGroupCmd("otel <subcommand>", "export hook events as OpenTelemetry spans and metrics", otelLong, newOtelExportCmd(io))
}
