package reviews

import (
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/review"
	"github.com/spf13/cobra"
)

// NewReviewCmd is 'atreides review'.
func NewReviewCmd(io *command.IO) *cobra.Command {
	return command.NewGroupCmd("review <subcommand>",
		"multi-model review: one review on several hosts, merged by agreement",
		`A multi-model review runs the same review prompt on every reviewer (config
review.reviewers: a host and its model; by default every host whose headless
command is on PATH) as background tasks, reads each one's findings (file,
line, severity, title, detail) and merges them by consensus: the findings
more reviewers agree on come first, then the more severe. The report, in
markdown and JSON, goes to the task's directory (tasks.dir/<n>_<slug>/reviews/)
with --task, else .atreides/reviews/. Reviewers that fail, time out or
answer without findings are named in it.`,
		newRunCmd(io), newShowCmd(io),
	)
}

// printReport shows a report: JSON, or the ranked findings and where the files
// are (or, unfinished, how to collect it).
func printReport(io *command.IO, rep *review.Report, done, asJSON bool) error {
	if asJSON {
		return command.PrintJSON(io, struct {
			*review.Report
			Done bool `json:"done"`
		}{rep, done})
	}
	if !done {
		fmt.Fprintf(io.Out, "Review %s is still running (%d of %d reviewers answered); collect it with: atreides review show %s --wait 5m\n", rep.ID, rep.Answered(), len(rep.Reviewers), rep.ID)
		return nil
	}
	md, js := rep.Paths()
	fmt.Fprint(io.Out, strings.TrimPrefix(rep.Markdown(), "# "))
	fmt.Fprintf(io.Out, "\nReport: %s (JSON: %s)\n", md, js)
	return nil
}
