package cli

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	stdio "io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/export"
	"github.com/atreides-dev/atreides/internal/fleet"
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

func newExportCmd(io *IO) *cobra.Command {
	o := &exportOptions{}
	cmd := &cobra.Command{
		Use:   "export",
		Short: "write a session as one document (JSON or Markdown) with its validation",
		Long:  exportLong,
		Args:  noArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	f := cmd.Flags()
	f.StringVarP(&o.session, "session", "s", "", "the session to export (default: the most recently active)")
	f.StringVar(&o.format, "format", "json", "json or md")
	f.StringVarP(&o.out, "output", "o", "", "write to this file instead of stdout")
	return cmd
}

func (o *exportOptions) run(io *IO) error {
	render, ok := exportFormats[o.format]
	if !ok {
		return usagef("--format %q: want json or md", o.format)
	}
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	doc, err := exportSession(context.Background(), root, hook.NewSettings(root).ConfigOrBuiltin(), o.session, time.Now())
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
	if err := replaceFile(filepath.Dir(path), ".", filepath.Base(path), buf.Bytes()); err != nil {
		return err
	}
	fmt.Fprintln(io.Err, path)
	return nil
}

// exportFormats are the renderers --format names.
var exportFormats = map[string]func(stdio.Writer, *view.Document) error{
	"json": export.JSON,
	"md":   export.Markdown,
}

// exportSession builds the document of session ("" the most recently
// active one) of the project at root.
func exportSession(ctx context.Context, root string, c *config.Config, session string, now time.Time) (*view.Document, error) {
	s, err := view.Take(ctx, root, view.OptionsOf(c, policy.ConfigDir()))
	if err != nil {
		return nil, err
	}
	if session == "" {
		if len(s.Sessions) == 0 {
			return nil, fmt.Errorf("no session to export: %s has no sessions yet", root)
		}
		session = s.Sessions[0].ID
	}
	doc, err := export.Build(s, audit.Of(fleet.Open(root)), session, now)
	if err != nil {
		return nil, err
	}
	doc.Atreides = hook.Version()
	return doc, nil
}

// replaceFile writes data to name in the directory rel below base, whole,
// without following a link below base.
func replaceFile(base, rel, name string, data []byte) error {
	d, err := confined.MkdirAll(base, rel, 0o755)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.ReplaceFile(name, data, true); err != nil {
		return fmt.Errorf("write %s: %w", d.Path(name), err)
	}
	return nil
}

func writeExport(root string, c *config.Config, session string) error {
	if session == "" || strings.ContainsAny(session, `/\`) || strings.HasPrefix(session, ".") {
		return fmt.Errorf("session id %q cannot name a file; not exported", session)
	}
	doc, err := exportSession(context.Background(), root, c, session, time.Now())
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := export.JSON(&buf, doc); err != nil {
		return err
	}
	dir := cmp.Or(c.Export.Dir, ".atreides/exports")
	if filepath.IsAbs(dir) {
		return fmt.Errorf("export.dir %q must be relative to the project root", dir)
	}
	if err := replaceFile(root, dir, session+".json", buf.Bytes()); err != nil {
		return err
	}
	return pruneExports(root, dir, c.Export.Keep)
}

// pruneExports keeps the newest keep exports of dir (0: all).
func pruneExports(root, dir string, keep int) error {
	if keep <= 0 {
		return nil
	}
	d, err := confined.OpenDir(root, dir)
	if err != nil {
		return err
	}
	defer d.Close()
	es, err := d.Entries()
	if err != nil {
		return err
	}
	type exp struct {
		name string
		mod  time.Time
	}
	var all []exp
	for _, e := range es {
		if !e.Type().IsRegular() || !strings.HasSuffix(e.Name(), ".json") || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if info, err := e.Info(); err == nil {
			all = append(all, exp{e.Name(), info.ModTime()})
		}
	}
	if len(all) <= keep {
		return nil
	}
	slices.SortFunc(all, func(a, b exp) int { return cmp.Or(b.mod.Compare(a.mod), strings.Compare(a.name, b.name)) })
	var errs []error
	for _, e := range all[keep:] {
		if err := d.Remove(e.name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
