package export

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/view"
)

// Session builds the document of session ("" the most recently active
// one) of the project at root, as atreides version writes it at now.
func Session(ctx context.Context, root string, o view.Options, session, version string, now time.Time) (*view.Document, error) {
	s, err := view.Take(ctx, root, o)
	if err != nil {
		return nil, err
	}
	if session == "" {
		if len(s.Sessions) == 0 {
			return nil, fmt.Errorf("no session to export: %s has no sessions yet", root)
		}
		session = s.Sessions[0].ID
	}
	doc, err := Build(s, audit.Of(fleet.Open(root)), session, now)
	if err != nil {
		return nil, err
	}
	doc.Atreides = version
	return doc, nil
}

// ReplaceFile writes data to name in the directory rel below base, whole,
// creating the directory; confined to base (a symbolic link on the way is
// refused).
func ReplaceFile(base, rel, name string, data []byte) error {
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

// Write writes the JSON document of session into export.dir of the
// project at root and keeps the newest export.keep there: what a
// session's end writes with export.on_session_end.
func Write(ctx context.Context, root string, c *config.Config, o view.Options, session, version string) error {
	if session == "" || strings.ContainsAny(session, `/\`) || strings.HasPrefix(session, ".") {
		return fmt.Errorf("session id %q cannot name a file; not exported", session)
	}
	doc, err := Session(ctx, root, o, session, version, time.Now())
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := JSON(&buf, doc); err != nil {
		return err
	}
	dir := cmp.Or(c.Export.Dir, ".atreides/exports")
	if filepath.IsAbs(dir) {
		return fmt.Errorf("export.dir %q must be relative to the project root", dir)
	}
	if err := ReplaceFile(root, dir, session+".json", buf.Bytes()); err != nil {
		return err
	}
	return prune(root, dir, c.Export.Keep)
}

// prune keeps the newest keep exports of dir (0: all).
func prune(root, dir string, keep int) error {
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
