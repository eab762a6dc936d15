package inspect

import (
	"bytes"
	"context"
	"fmt"

	"github.com/atreides-dev/atreides/internal/cli/command"

	stdio "io"
	"path/filepath"
	"time"

	"github.com/atreides-dev/atreides/internal/export"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

const exportLong = `Write one session as a document: its phase history, tool calls and
decisions, strikes, todos with their hierarchy, anchors with their
staleness, intents and ledger records, subagents and background tasks, and
a validation section that says whether the session is complete and, if
not, why (docs/export.md lists the issue codes).

--format json (the default) matches docs/export.schema.json; --format md
is a report for people. The session defaults to the project's most
recently active one. -o FILE writes the file whole (a temporary file
renamed over it) and prints its path on stderr.

With export.on_session_end: true in the configuration, each session's
document is also written when its host ends it, into export.dir.`

// exportOptions are the flags of 'atreides export'.
type exportOptions struct {
	session string
	format  string
	out     string
}

func NewExportCmd(io *command.IO) *cobra.Command {
	o := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "write a session as one document (JSON or Markdown) with its validation",
		Long:  exportLong,
		Args:  command.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.StringVarP(&o.session, "session", "s", "", "the session to export (default: the most recently active)")
	f.StringVar(&o.format, "format", "json", "json or md")
	f.StringVarP(&o.out, "output", "o", "", "write to this file instead of stdout")
	return cmd
}

func (o *exportOptions) run(io *command.IO) error {
	render, ok := exportFormat(o.format)
	if !ok {
		return command.Usagef("--format %q: want json or md", o.format)
	}
	root, err := command.CwdRoot(io)
	if err != nil {
		return err
	}
	// A short id, as status and log show it, names its session; export
	// says when there is no such session.
	id, err := command.SessionOrPrefix(root, o.session)
	if err != nil {
		return err
	}
	c, _ := command.LoadConfig(root) // the built-in one when the files do not load
	doc, err := export.Session(context.Background(), root, view.OptionsOf(c, policy.ConfigDir()), id, hook.Version(), time.Now())
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := render(&buf, doc); err != nil {
		return err
	}
	if o.out == "" {
		_, err = io.Out.Write(buf.Bytes())
		return err
	}
	path, err := filepath.Abs(o.out)
	if err != nil {
		return err
	}
	if err := export.ReplaceFile(filepath.Dir(path), ".", filepath.Base(path), buf.Bytes()); err != nil {
		return err
	}
	fmt.Fprintln(io.Err, path)
	return nil
}

// exportFormat is the renderer --format names (a switch, not a
// package-level map, which would be init work in every hook process).
func exportFormat(name string) (render func(stdio.Writer, *view.Document) error, ok bool) {
	switch name {
	case "json":
		return export.JSON, true
	case "md":
		return export.Markdown, true
	}
	return nil, false
}
