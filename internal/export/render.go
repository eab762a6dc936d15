package export

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/view"
)

// JSON writes the document indented, keys in the order of the Go types,
// HTML characters unescaped (a command reads `a && b`).
func JSON(w io.Writer, d *view.Document) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(d)
}

// Markdown writes the document as a report for people: the validation
// first, then one heading per section, tables for the tool calls and
// decisions, the todo tree indented.
func Markdown(w io.Writer, d *view.Document) error {
	m := &md{}
	m.header(d)
	m.validation(&d.Validation)
	m.session(d)
	m.phases(d.Phases)
	m.toolCalls(d.ToolCalls)
	m.decisions(d.Decisions)
	m.strikes(d)
	m.todos(&d.Todos)
	m.anchors(d.Anchors)
	m.intents(&d.Intents)
	m.ledger(&d.Ledger)
	m.delegations(d.Delegations)
	m.background(d.Background)
	_, err := io.WriteString(w, m.String())
	return err
}

// md builds the report; a strings.Builder never fails, so the sections
// do not check errors and Markdown writes once.
type md struct{ strings.Builder }

func (m *md) f(format string, args ...any) { fmt.Fprintf(m, format, args...) }

func (m *md) h2(title string, n int) {
	m.f("\n## %s", title)
	if n >= 0 {
		m.f(" (%d)", n)
	}
	m.f("\n\n")
}

func (m *md) none(n int) bool {
	if n == 0 {
		m.f("None.\n")
	}
	return n == 0
}

// row writes one table row, cells escaped.
func (m *md) row(cells ...string) {
	for i := range cells {
		cells[i] = cell(cells[i])
	}
	m.f("| %s |\n", strings.Join(cells, " | "))
}

func (m *md) table(head ...string) {
	m.row(head...)
	seps := make([]string, len(head))
	for i := range seps {
		seps[i] = "---"
	}
	m.f("| %s |\n", strings.Join(seps, " | "))
}

// cell keeps a value in one table cell. Text of more than one line is
// shown as lines, joined by <br> (a table row is one line of Markdown, and
// GitHub, GitLab and most viewers take <br> in a cell), never folded into
// one line nor left as a literal \n. The trail and the store keep text
// sanitized, a newline written as the two characters \n: those are read
// back as line breaks here (the JSON document keeps the text as stored,
// so a command that meant a literal backslash-n is still there exact).
// <, > and & are escaped so that a command such as `a <b >c` is not read
// as HTML, and pipes so that they do not split the row.
func cell(s string) string {
	lines := splitLines(s)
	for i, l := range lines {
		lines[i] = cellEscaper().Replace(l)
	}
	s = strings.Join(lines, "<br>")
	if s == "" {
		return "–"
	}
	return s
}

// cellEscaper is the escaping of a table cell's text, made on the first
// cell. A replacer, not package html, and made on first use, not in a
// package variable: the hook binary links this package, and any init
// work here (html's, or a variable's) would run on every hook event.
func cellEscaper() *strings.Replacer {
	cellEscape.Do(func() {
		cellEscape.r = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&#34;", "'", "&#39;", "|", `\|`)
	})
	return cellEscape.r
}

// cellEscape holds cellEscaper's replacer; its zero value needs no init.
var cellEscape struct {
	sync.Once
	r *strings.Replacer
}

// splitLines is s as lines: real newlines and sanitized ones (\n), each
// line's spaces folded, blank lines at the ends dropped.
func splitLines(s string) []string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, `\r\n`, "\n"), `\n`, "\n")
	var out []string
	for _, l := range strings.Split(s, "\n") {
		l = strings.Join(strings.Fields(strings.ReplaceAll(l, `\t`, " ")), " ")
		if l != "" || len(out) > 0 {
			out = append(out, l)
		}
	}
	for len(out) > 0 && out[len(out)-1] == "" {
		out = out[:len(out)-1]
	}
	return out
}

// text is a value outside a table (a list item): its lines, the later
// ones indented to stay in the item.
func text(s string) string {
	return strings.Join(splitLines(s), "\n  ")
}

func stamp(t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func (m *md) header(d *view.Document) {
	m.f("# Session %s\n\n", d.Session.ID)
	m.f("Exported %s by atreides %s from %s (schema %d).\n", stamp(d.ExportedAt), d.Atreides, d.Project, d.SchemaVersion)
}

func (m *md) validation(v *view.Validation) {
	word := "incomplete"
	if v.Complete {
		word = "complete"
	}
	m.h2("Validation: "+word, -1)
	m.f("%.2f hours since the last activity; %d audit record(s).\n\n", v.HoursSinceActivity, v.TrailRecords)
	if m.none(len(v.Issues)) {
		return
	}
	for _, is := range v.Issues {
		m.f("- **%s** `%s`: %s\n", is.Severity, is.Code, is.Message)
	}
}

func (m *md) session(d *view.Document) {
	s := &d.Session
	m.h2("Session", -1)
	end := "not ended"
	if s.Ended {
		end = "ended (" + s.EndReason + ")"
	}
	m.f("- host: %s\n- cwd: %s\n- started: %s\n- last activity: %s\n- %s\n- phase: %s\n", cell(s.Host), cell(s.Cwd), stamp(s.Started), stamp(s.Updated), end, cell(s.Phase))
	c := s.Counters
	m.f("- counters: %d events, %d prompts, %d tool calls, %d denied, %d asked, %d failed, %d stops, %d compactions, %d escalations\n",
		c.Events, c.Prompts, c.ToolCalls, c.Denied, c.Asked, c.Failed, c.Stops, c.Compacts, c.Escalations)
	m.f("- open todos: %d of the session, %d of the project; %d strike(s) pending\n",
		openTodos(d.Todos), openTodos(view.ExportTodos{Atreides: d.Todos.Project}), len(d.Strikes))
	if t := s.Task; t != nil {
		m.f("- task: #%d %s", t.Number, t.Title)
		if t.Phases > 0 {
			m.f(" (phase %d of %d)", t.Phase, t.Phases)
		}
		m.f("\n")
	}
	if !s.Recorded {
		m.f("- the store holds no record of this session\n")
	}
}

func (m *md) phases(ts []view.Transition) {
	m.h2("Phase history", len(ts))
	if m.none(len(ts)) {
		return
	}
	m.table("time", "from", "to", "cause")
	for _, t := range ts {
		m.row(stamp(t.Time), t.From, t.To, t.Cause)
	}
}

func (m *md) toolCalls(cs []view.ToolCall) {
	m.h2("Tool calls", len(cs))
	if m.none(len(cs)) {
		return
	}
	m.table("time", "tool", "target", "verdict", "outcome", "duration", "rule", "reason")
	for _, c := range cs {
		tool := c.Tool
		if c.Agent != "" {
			tool += " (" + c.Agent + ")" // a subagent's call
		}
		m.row(stamp(c.Time), tool, c.Target, c.Verdict, c.Outcome, duration(c.DurationMS), c.Rule, c.Reason)
	}
}

// duration is a call's time from pre to post: ms under a second, else
// seconds; "" when unknown.
func duration(ms int64) string {
	switch {
	case ms < 0:
		return ""
	case ms < 1000:
		return fmt.Sprintf("%d ms", ms)
	default:
		return fmt.Sprintf("%.1f s", float64(ms)/1000)
	}
}

func (m *md) decisions(ds []view.Decision) {
	m.h2("Decisions", len(ds))
	if m.none(len(ds)) {
		return
	}
	m.table("time", "event", "tool", "command or paths", "verdict", "rule", "reason")
	for _, d := range ds {
		target := d.Command
		if target == "" {
			target = strings.Join(d.Paths, " ")
		}
		if d.Prompt != "" {
			target = "“" + d.Prompt + "”"
		}
		verdict, reason := d.Verdict, d.Reason
		if d.Block {
			verdict, reason = verdict+", kept going", d.BlockReason
		}
		m.row(stamp(d.Time), d.HostEvent, d.Tool, target, verdict, d.Rule, reason)
	}
}

func (m *md) strikes(d *view.Document) {
	// Pending, as status shows them: a strike a later success of the
	// same target cleared is gone, its failure still counted above.
	m.h2("Strikes pending", len(d.Strikes))
	if !m.none(len(d.Strikes)) {
		m.table("tool", "target", "count", "class", "last", "last error")
		for _, k := range d.Strikes {
			last := ""
			if n := len(k.Errors); n > 0 {
				last = k.Errors[n-1].Excerpt
			}
			m.row(k.Tool, k.Target, fmt.Sprint(k.Count), k.Class, stamp(k.Last), last)
		}
	}
	m.h2("Escalations", d.Escalations.Count)
	for _, e := range d.Escalations.Events {
		m.f("- %s %s\n", stamp(e.Time), text(e.Text))
	}
	if d.Escalations.Count == 0 && len(d.Escalations.Events) == 0 {
		m.f("None.\n")
	}
}

func (m *md) todos(t *view.ExportTodos) {
	m.h2("Todos", -1)
	m.f("The agent's list:\n\n")
	if !m.none(len(t.Agent)) {
		for _, a := range t.Agent {
			m.f("- %s %s\n", box(a.Open), text(a.Title+" ("+a.Status+")"))
		}
	}
	m.f("\natreides todos of the session:\n\n")
	if !m.none(len(t.Atreides)) {
		m.todoTree(t.Atreides, 0)
	}
	m.f("\nThe project's todos (added at a terminal, no session's):\n\n")
	if !m.none(len(t.Project)) {
		m.todoTree(t.Project, 0)
	}
}

func (m *md) todoTree(ns []view.TodoNode, depth int) {
	for _, n := range ns {
		m.f("%s- %s #%d %s: %s\n", strings.Repeat("  ", depth), box(n.Open), n.ID, n.Level, text(n.Title+" ("+n.Status+")"))
		m.todoTree(n.Children, depth+1)
	}
}

func box(open bool) string {
	if open {
		return "[ ]"
	}
	return "[x]"
}

func (m *md) anchors(as []view.Anchor) {
	m.h2("Anchors", len(as))
	if m.none(len(as)) {
		return
	}
	m.table("id", "kind", "priority", "text", "created", "age (h)", "stale")
	for _, a := range as {
		m.row(fmt.Sprint(a.ID), a.Kind, a.Priority, a.Text, stamp(a.Created), fmt.Sprintf("%.2f", a.AgeHours), yes(a.Stale))
	}
}

func yes(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func (m *md) intents(in *view.ExportIntents) {
	m.h2("Intents", -1)
	if in.Error != "" {
		m.f("The intents file could not be read: %s\n\n", cell(in.Error))
	}
	m.f("Leases held:\n\n")
	if !m.none(len(in.Leases)) {
		for _, l := range in.Leases {
			m.f("- %s %s, since %s, renewed %s", l.Intent, cell(l.Title), stamp(l.Since), stamp(l.Renewed))
			if !l.Expires.IsZero() {
				m.f(", expires %s", stamp(l.Expires))
			}
			if l.Expired {
				m.f(" (expired)")
			}
			m.f("\n")
		}
	}
	m.f("\nChanged files under:\n\n")
	if !m.none(len(in.Touched)) {
		for _, t := range in.Touched {
			m.f("- %s %s: %d record(s)\n", cell(t.ID), cell(t.Title), t.Records)
		}
	}
}

func (m *md) ledger(l *view.ExportLedger) {
	m.h2("Trace ledger", len(l.Records))
	v := l.Verify
	if v.OK {
		m.f("The chain verifies (%d records, head from %s, checkpoint %s).\n\n", v.Records, v.HeadSource, v.Checkpoint)
	} else {
		m.f("The chain does NOT verify: %s\n\n", cell(v.Problem))
	}
	if m.none(len(l.Records)) {
		return
	}
	m.table("seq", "time", "intent", "change", "files", "before", "after")
	for _, r := range l.Records {
		var files []string
		for _, f := range r.Files {
			files = append(files, f.Path)
		}
		m.row(fmt.Sprint(r.Seq), r.Time, r.Intent, r.Change, strings.Join(files, " "), short(r.Before), short(r.After))
	}
}

// short is a content hash's first 12 characters, enough to tell apart.
func short(h string) string {
	h = strings.TrimPrefix(h, "sha256:")
	return h[:min(len(h), 12)]
}

func (m *md) delegations(ds []view.Delegation) {
	m.h2("Delegations", len(ds))
	if m.none(len(ds)) {
		return
	}
	m.table("id", "type", "depth", "path", "started", "stopped", "outcome", "overdue")
	for _, a := range ds {
		outcome := a.Outcome
		if a.Running {
			outcome = "running"
		}
		m.row(a.ID, a.Type, fmt.Sprint(a.Depth), strings.Join(a.Path, " › "), stamp(a.Started), stamp(a.Stopped), outcome, yes(a.Overdue))
	}
}

func (m *md) background(bs []view.Background) {
	m.h2("Background tasks", len(bs))
	if m.none(len(bs)) {
		return
	}
	m.table("id", "agent", "description", "status", "created", "ended", "result or error")
	for _, b := range bs {
		m.row(b.ID, b.Agent, b.Description, b.Status, stamp(b.Created), stamp(b.Ended), firstLine(b.Error+b.Result))
	}
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	return s
}
