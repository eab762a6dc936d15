package inspect

import (
	"context"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/trace"
	"github.com/spf13/cobra"
)

func NewTraceCmd(io *command.IO) *cobra.Command {
	return command.NewGroupCmd("trace <subcommand>",
		"verify or show the trace ledger of file changes",
		`Read the trace ledger (.atreides/trace.jsonl, or the team store's when the
project keeps its state in one): one Agent Trace record per file change an
agent made, hash-chained, its head signed into a checkpoint kept in your
config directory (see docs/ledger.md).`,
		newTraceVerifyCmd(io),
		newTraceShowCmd(io),
	)
}

// loadLedger reads the ledger of the working directory's project, the
// team store's when the project has one (trace.Load), and names the
// project's root.
func loadLedger(io *command.IO) (root string, l *trace.Ledger, err error) {
	if root, err = command.CwdRoot(io); err != nil {
		return "", nil, err
	}
	st := fleet.Open(root)
	st.LockTimeout = 2 * time.Second
	l, err = trace.Load(context.Background(), st)
	return root, l, err
}

// orDash is s, or "-" for an empty cell of a listing.
func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
