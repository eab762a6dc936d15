package comments

import (
	"fmt"
	"path/filepath"
	"strings"

	// Aliased: config is this package's syntax of configuration files.
	conf "github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
)

// Options are the checker's settings, from the configuration's
// context.comments section.
type Options struct {
	Enabled bool
	// RatioPercent: a file whose added non-blank lines are more than this
	// share of noise comments gets a note...
	RatioPercent int
	// ...when at least MinLines non-blank lines were added, so a one-line
	// edit is not judged by its ratio. Memo phrases count at any size.
	MinLines int
}

// FromConfig maps the configuration's context.comments section. Of its
// defaults (35%, 10 lines): written whole, real files of at least 10
// lines (test data left out) have more than 35% noise comments in 0.5% of
// CPython's standard library (611 files), 1.7% of the Go module cache
// here (3,952), 2.5% of Go's own source (6,595), none of this repository
// (411), node-pty's TypeScript or PostgreSQL's SQL; the
// comment-per-statement narration agents write is at 35% to 50%.
func FromConfig(cfg *conf.Config) Options {
	c := &cfg.Context.Comments
	return Options{Enabled: c.Enabled, RatioPercent: c.RatioPercent, MinLines: c.MinLines}
}

// Bounds of a note, so that it stays a short nudge: the lines quoted per
// file, the length of a quoted line, and the files named.
const (
	maxQuoted   = 8
	maxQuoteLen = 120
	maxFiles    = 4
)

// CheckAll checks every file a call added lines to, one report per file.
func CheckAll(added []event.FileLines) []Report {
	var out []Report
	at := map[string]int{}
	for _, f := range added {
		r := Check(f)
		if i, ok := at[f.Path]; ok {
			out[i].Add(r)
			continue
		}
		at[f.Path] = len(out)
		out = append(out, r)
	}
	return out
}

// flagged reports whether r deserves a note, and whether for its ratio.
func (o Options) flagged(r Report) (any, byRatio bool) {
	byRatio = r.Lines >= max(o.MinLines, 1) && r.Ratio()*100 > float64(o.RatioPercent)
	return byRatio || len(r.Memos) > 0, byRatio
}

// Note is the note for the reports, "" when none deserves one.
func (o Options) Note(reports []Report) string {
	var b strings.Builder
	files := 0
	for _, r := range reports {
		any, byRatio := o.flagged(r)
		if !any {
			continue
		}
		if files++; files > maxFiles {
			continue
		}
		if b.Len() > 0 {
			b.WriteString("\n")
		}
		o.writeFile(&b, r, byRatio)
	}
	if files == 0 {
		return ""
	}
	if files > maxFiles {
		fmt.Fprintf(&b, "\n(and %d more files)", files-maxFiles)
	}
	b.WriteString("\nComments should tell a later reader why the code is as it is. Delete or rewrite the ones that restate the code or talk about the change; keep directives, license headers and documentation.")
	return b.String()
}

func (o Options) writeFile(b *strings.Builder, r Report, byRatio bool) {
	var why []string
	if byRatio {
		why = append(why, fmt.Sprintf("%d of %d added lines are comments (%.0f%%, over %d%%)", len(r.Noise), r.Lines, r.Ratio()*100, o.RatioPercent))
	}
	if len(r.Memos) > 0 {
		why = append(why, fmt.Sprintf("%d comment(s) read as notes about the change (%q)", len(r.Memos), r.Memos[0].Phrase))
	}
	fmt.Fprintf(b, "Comment check on %s: %s. Reconsider:\n", r.Path, strings.Join(why, "; "))
	quoted := r.Memos
	if byRatio {
		quoted = append(quoted, withoutMemos(r.Noise, r.Memos)...)
	}
	for i, l := range quoted {
		if i == maxQuoted {
			fmt.Fprintf(b, "  ... and %d more\n", len(quoted)-maxQuoted)
			break
		}
		fmt.Fprintf(b, "  %s\n", clip(strings.TrimSpace(l.Text)))
	}
}

func withoutMemos(noise, memos []Line) []Line {
	var out []Line
	for _, n := range noise {
		dup := false
		for _, m := range memos {
			dup = dup || m.Index == n.Index && m.Text == n.Text
		}
		if !dup {
			out = append(out, n)
		}
	}
	return out
}

func clip(s string) string {
	if len(s) <= maxQuoteLen {
		return s
	}
	cut := maxQuoteLen
	for cut > 0 && s[cut]&0xC0 == 0x80 {
		cut-- // not inside a UTF-8 sequence
	}
	return s[:cut] + "…"
}

// memoKey keeps a call's note between Prepare and Handle.
type memoKey struct{}

// HandlerKinds are the events [Handler]'s handler runs on: a hook
// builds it for those alone.
var HandlerKinds = []event.Kind{event.PostTool}

// Handler tells the agent, after a write or edit, about the comment noise
// in what it added. The check runs in Prepare, outside the state lock; it
// needs no state. Paths are shown relative to the project.
func Handler(opts func() Options) engine.Handler {
	return engine.Handler{
		Name:     "comments",
		Priority: engine.Normal,
		Kinds:    HandlerKinds,
		Groups:   state.NoGroups,
		Prepare: func(c *engine.Call) {
			ev := c.Event
			if ev.Failed || len(ev.Tool.Added) == 0 {
				return
			}
			o := opts()
			if !o.Enabled {
				return
			}
			reports := CheckAll(ev.Tool.Added)
			var ids []string
			for i := range reports {
				ids = append(ids, reports[i].Path)
				reports[i].Path = relative(ev.ProjectDir, reports[i].Path)
			}
			if text := o.Note(reports); text != "" {
				c.Memo.Set(memoKey{}, event.Note("comments", strings.Join(ids, "\n"), event.Normal, text))
			}
		},
		Handle: func(c *engine.Call) (event.Result, error) {
			v, _ := c.Memo.Get(memoKey{})
			entries, _ := v.([]event.Entry)
			return event.Result{Context: entries}, nil
		},
	}
}

// relative is p relative to the project root when it lies inside it.
func relative(root, p string) string {
	if !filepath.IsAbs(p) {
		return p
	}
	if rel, ok := project.Rel(root, "", p); ok {
		return rel
	}
	return p
}
