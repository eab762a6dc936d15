package audit

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/event"
)

// FilterVerdicts are the values a Filter's Verdicts takes: the four
// verdicts, and block for an event refused or kept going.
var FilterVerdicts = []string{"allow", "ask", "deny", "none", "block"}

// Filter selects records; the zero Filter selects all.
type Filter struct {
	Since   time.Time // records at or after it
	Session string
	// SessionPrefix takes Session as the start of the ids it selects (a
	// short id of a session whose record is gone, its trail kept).
	SessionPrefix bool
	Host          string
	Verdicts      []string // any of them: allow, ask, deny, none, or block (an event refused or kept going)
	// Rule is a rule id, or a prefix of one when it ends in "." or "*"
	// ("self." and "git.*" select every rule of those groups).
	Rule string

	since string // Since in stampLayout, compared as text
}

func (f *Filter) prepare() {
	if !f.Since.IsZero() {
		f.since = f.Since.UTC().Format(stampLayout)
	}
}

func (f *Filter) match(v *fields) bool {
	if f.since != "" && !f.after(v.time) {
		return false
	}
	if f.Session != "" && !f.sessionIs(v.session) {
		return false
	}
	if f.Host != "" && !eq(v.host, f.Host) {
		return false
	}
	if len(f.Verdicts) > 0 && !slices.ContainsFunc(f.Verdicts, func(s string) bool { return v.verdictIs(s) || (s == "block" && v.block) }) {
		return false
	}
	if f.Rule != "" {
		rule := str(v.rule)
		if p, ok := strings.CutSuffix(f.Rule, "*"); ok {
			return strings.HasPrefix(rule, p)
		}
		if strings.HasSuffix(f.Rule, ".") {
			return strings.HasPrefix(rule, f.Rule)
		}
		return rule == f.Rule
	}
	return true
}

// sessionIs reports whether a record's session is the one f selects.
func (f *Filter) sessionIs(raw []byte) bool {
	if f.SessionPrefix {
		return strings.HasPrefix(str(raw), f.Session)
	}
	return eq(raw, f.Session)
}

// verdictIs reports whether the record's verdict, as VerdictOf reads
// it, is want. Only "none" of a tool call reads otherwise, so the text
// is compared first and the event only then looked at.
func (v *fields) verdictIs(want string) bool {
	if !eq(v.verdict, "none") {
		return eq(v.verdict, want)
	}
	return VerdictOf(str(v.event), "none") == want
}

// after reports whether a record's time is at or after f.Since. Records
// written by atreides compare as text; any other form is parsed.
func (f *Filter) after(stamp []byte) bool {
	if len(stamp) == len(f.since) {
		return string(stamp) >= f.since
	}
	t, err := time.Parse(time.RFC3339Nano, str(stamp))
	return err == nil && !t.Before(f.Since)
}

// Result counts what a read met besides the records it passed on.
type Result struct {
	Damaged int // lines that are not records (a torn write, another program's text), skipped
}

// Reader is an audit trail to read: the project's own file ([Trail]) or
// the one a team's machines share in the team store ([Shared]). [Of]
// picks the one a project keeps.
type Reader interface {
	// Read passes each record matching f to fn, oldest first, as the
	// line stored (valid JSON, no newline; valid only until fn returns).
	Read(f Filter, fn func(line []byte) error) (Result, error)
	// ReadRows is Read for the text view (see [Row]).
	ReadRows(f Filter, fn func(*Row) error) (Result, error)
	// Stats summarizes the records matching f, with days in loc.
	Stats(f Filter, loc *time.Location) (*Stats, error)
	// Follow passes records matching f to fn as they are written, until
	// ctx ends or fn fails, looking for them every poll. It calls ready
	// (when not nil) once it knows where it starts, or failed: every
	// record appended after ready reaches fn, so a caller that promises
	// its readers every new record waits for it.
	Follow(ctx context.Context, f Filter, poll time.Duration, ready func(), fn func(line []byte) error) error
	// Where names the trail for messages.
	Where() string
}

// trail is what the readers of both trails are built on: each passes
// the records matching f with their scanned fields; valid asks for a
// full check of the JSON of each.
type trail interface {
	each(f Filter, valid bool, fn func([]byte, *fields) error) (Result, error)
}

// Where is the current file's path.
func (t *Trail) Where() string { return t.Path() }

// Read passes each record matching f to fn, oldest first, as the line
// stored (valid JSON, no newline; valid only until fn returns). An error
// from fn stops the read and is returned.
func (t *Trail) Read(f Filter, fn func(line []byte) error) (Result, error) {
	return t.each(f, true, func(line []byte, _ *fields) error { return fn(line) })
}

// Row is what one line of the text view shows of a record.
type Row struct {
	Time                                          time.Time
	Host, Session, HostEvent, Verdict, Rule, Tool string
	Block                                         bool
	// Target is the command, else the paths joined by spaces.
	Target string
	// Marks are the record's marks as "kind: text", joined by "; ".
	Marks string
	// Machine is where the record was written, in a shared trail.
	Machine string
}

// ReadRows is Read for the text view: each matching record's Row, built
// from the scanned line without decoding all of it. Decoding every record
// in full (its timings, its reason) took most of the time of a view of
// tens of thousands of records; the view checks each line's structure,
// and --json, which prints the lines themselves, checks them in full.
func (t *Trail) ReadRows(f Filter, fn func(*Row) error) (Result, error) { return readRows(t, f, fn) }

// readRows is ReadRows of either trail.
func readRows(t trail, f Filter, fn func(*Row) error) (Result, error) {
	var r Row
	return t.each(f, false, func(_ []byte, v *fields) error {
		v.row(&r)
		return fn(&r)
	})
}

// row fills r from scanned fields.
func (v *fields) row(r *Row) {
	r.Time, _ = time.Parse(time.RFC3339Nano, str(v.time))
	r.Host, r.Session, r.HostEvent = str(v.host), str(v.session), str(v.hostEvent)
	r.Verdict, r.Rule, r.Tool, r.Block = VerdictOf(str(v.event), str(v.verdict)), str(v.rule), str(v.tool), v.block
	r.Target, r.Machine = str(v.command), str(v.machine)
	if r.Target == "" && len(v.paths) > 0 {
		var paths []string
		if json.Unmarshal(v.paths, &paths) == nil {
			r.Target = strings.Join(paths, " ")
		}
	}
	r.Marks = ""
	if len(v.marks) > 0 {
		// Rare (a few records of a session), so decoded when there.
		var ms []event.Mark
		if json.Unmarshal(v.marks, &ms) == nil {
			parts := make([]string, len(ms))
			for i, m := range ms {
				parts[i] = m.Kind + ": " + m.Text
			}
			r.Marks = strings.Join(parts, "; ")
		}
	}
}

// each passes the records matching f to fn with their scanned fields;
// valid asks for a full check of the JSON of each.
func (t *Trail) each(f Filter, valid bool, fn func([]byte, *fields) error) (Result, error) {
	f.prepare()
	var res Result
	old, _, cur, err := t.open(f.Since)
	if err != nil {
		return res, err
	}
	segs := old
	if cur != nil {
		segs = append(segs, cur)
	}
	defer closeAll(segs)
	err = readSegments(segs, &f, valid, &res, fn)
	return res, err
}

// readSegments passes the matching complete lines of each segment in turn
// to fn.
func readSegments(segs []*os.File, f *Filter, valid bool, res *Result, fn func([]byte, *fields) error) error {
	for _, s := range segs {
		if err := readSegment(newLines(s), f, valid, res, fn); err != nil {
			return err
		}
	}
	return nil
}

// readSegment passes the matching complete lines of one segment to fn.
func readSegment(l *lines, f *Filter, valid bool, res *Result, fn func([]byte, *fields) error) error {
	var v fields
	for {
		line, err := l.next()
		if err == io.EOF {
			res.Damaged += l.damaged
			l.damaged = 0
			return nil
		}
		if err != nil {
			return fmt.Errorf("read audit trail: %w", err)
		}
		if err := passLine(line, &v, f, valid, res, fn); err != nil {
			return err
		}
	}
}

// passLine passes one stored line (without its newline) to fn if it is a
// record matching f, and counts it in res if it is not a record.
func passLine(line []byte, v *fields, f *Filter, valid bool, res *Result, fn func([]byte, *fields) error) error {
	if len(line) == 0 {
		return nil
	}
	if !scan(line, v) {
		res.Damaged++
		return nil
	}
	if !f.match(v) {
		return nil
	}
	if valid && !json.Valid(line) {
		res.Damaged++
		return nil
	}
	return fn(line, v)
}

// open opens the rotated segments that may hold records at or after
// since, oldest first, with their infos, and the current file (nil if
// there is none). The current file is opened first: a rotation while the
// others are listed then shows it under its new name too, which is
// noticed and read once, and no segment is missed.
func (t *Trail) open(since time.Time) (old []*os.File, infos []fs.FileInfo, cur *os.File, err error) {
	d, err := confined.OpenDir(t.base, t.dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, nil, nil
	}
	if err != nil {
		return nil, nil, nil, fmt.Errorf("open audit trail: %w", err)
	}
	defer d.Close()
	cur, err = d.OpenFile(t.currentName, os.O_RDONLY, 0)
	if errors.Is(err, fs.ErrNotExist) {
		cur = nil
	} else if err != nil {
		return nil, nil, nil, fmt.Errorf("open audit trail: %w", err)
	}
	names, err := t.rotated(d)
	if err != nil {
		if cur != nil {
			_ = cur.Close()
		}
		return nil, nil, nil, fmt.Errorf("list audit trail: %w", err)
	}
	var curInfo fs.FileInfo
	if cur != nil {
		curInfo, _ = cur.Stat()
	}
	for _, n := range names {
		s, err := d.OpenFile(n, os.O_RDONLY, 0)
		if errors.Is(err, fs.ErrNotExist) {
			continue // removed by a rotation meanwhile
		}
		if err != nil {
			closeAll(old)
			if cur != nil {
				_ = cur.Close()
			}
			return nil, nil, nil, fmt.Errorf("open audit trail: %w", err)
		}
		fi, err := s.Stat()
		// A segment last written before since holds nothing after it: a
		// record's time is taken before it is written.
		if err != nil || (curInfo != nil && os.SameFile(fi, curInfo)) || (!since.IsZero() && fi.ModTime().Before(since)) {
			_ = s.Close()
			continue
		}
		old, infos = append(old, s), append(infos, fi)
	}
	return old, infos, cur, nil
}

func closeAll(fs []*os.File) {
	for _, f := range fs {
		_ = f.Close()
	}
}

// Follow passes records matching f to fn as they are written, until ctx
// ends or fn fails: first the records already there when f.Since is set
// (else it starts at the end of the trail), then new ones, looking for
// them every poll. A rotation is noticed when the current name leads to
// another file: the old one is read to its end, then the new one from its
// start. ready, when not nil, is called once it knows where it starts
// (or failed before): a record appended after that is passed to fn.
func (t *Trail) Follow(ctx context.Context, f Filter, poll time.Duration, ready func(), fn func(line []byte) error) error {
	if ready != nil {
		defer ready()
	}
	f.prepare()
	var (
		res Result
		cur *os.File
		// prev is the file read last, kept open while the trail has no
		// current file after a rotation: when one appears, the segments
		// set aside after prev are read first (the new file may have
		// filled and rotated before the next look).
		prev *os.File
		l    *lines
		pass = func(line []byte, _ *fields) error { return fn(line) }
	)
	defer func() {
		for _, f := range []*os.File{cur, prev} {
			if f != nil {
				_ = f.Close()
			}
		}
	}()
	if !f.Since.IsZero() {
		old, _, c, err := t.open(f.Since)
		if err != nil {
			return err
		}
		if c != nil {
			cur, l = c, newLines(c)
		}
		err = readSegments(old, &f, true, &res, pass)
		closeAll(old)
		if err != nil {
			return err
		}
	} else if c, err := t.openCurrent(os.O_RDONLY, 0); err != nil {
		return fmt.Errorf("open audit trail: %w", err)
	} else if c != nil {
		if _, err := c.Seek(0, io.SeekEnd); err != nil {
			_ = c.Close()
			return fmt.Errorf("read audit trail: %w", err)
		}
		cur, l = c, newLines(c)
	}
	if ready != nil {
		ready()
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		if cur != nil {
			if err := readSegment(l, &f, true, &res, pass); err != nil {
				return err
			}
			if !t.isCurrent(cur) {
				// Records a hook appended just before the rename are in
				// the old file: read it to its end, then every segment set
				// aside after it (the trail may have rotated more than
				// once since the last look), then the new current file.
				if err := readSegment(l, &f, true, &res, pass); err != nil {
					return err
				}
				next, last, err := t.after(cur, &f, &res, pass)
				switch {
				case next != nil:
					_ = cur.Close()
					if last != nil {
						_ = last.Close()
					}
				case last != nil:
					_ = cur.Close()
					prev = last
				default:
					prev = cur
				}
				cur = next
				if err != nil {
					return err
				}
				if cur != nil {
					l = newLines(cur)
					continue // read what the new file already holds
				}
			}
		}
		if cur == nil {
			c, err := t.next(&prev, &f, &res, pass)
			if err != nil {
				return err
			}
			if c != nil {
				if prev != nil {
					_ = prev.Close()
					prev = nil
				}
				cur, l = c, newLines(c)
				continue
			}
		}
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
	}
}

// next opens the current file, if there is one yet; after a rotation
// (prev, the file read last, not nil) it first passes on the records of
// the segments rotated after prev, and prev becomes the last of them.
func (t *Trail) next(prev **os.File, f *Filter, res *Result, fn func([]byte, *fields) error) (*os.File, error) {
	if *prev == nil {
		c, err := t.openCurrent(os.O_RDONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("open audit trail: %w", err)
		}
		return c, nil
	}
	cur, last, err := t.after(*prev, f, res, fn)
	if last != nil {
		_ = (*prev).Close()
		*prev = last
	}
	return cur, err
}

// after passes on the records of the segments rotated after old, and
// returns the current file (nil if there is none yet) and the last
// segment it read, left open (nil if it read none): a file held open
// cannot have its inode reused, so it still tells where the next look
// starts after retention removed it.
func (t *Trail) after(old *os.File, f *Filter, res *Result, fn func([]byte, *fields) error) (cur, last *os.File, err error) {
	segs, infos, cur, err := t.open(time.Time{})
	if err != nil {
		return nil, nil, err
	}
	oi, err := old.Stat()
	if err != nil {
		closeAll(segs)
		return cur, nil, nil
	}
	// Segments are in order; those up to old's new name were read. When
	// old is gone (removed by retention), every segment left is newer.
	from := 0
	for i, si := range infos {
		if os.SameFile(si, oi) {
			from = i + 1
		}
	}
	err = readSegments(segs[from:], f, true, res, fn)
	if from < len(segs) && err == nil {
		last = segs[len(segs)-1]
		segs = segs[:len(segs)-1]
	}
	closeAll(segs)
	if err != nil {
		if cur != nil {
			_ = cur.Close()
		}
		return nil, nil, err
	}
	return cur, last, nil
}

// RowOf is the Row of one stored line, such as Follow passes; ok is false
// for a line that is not a record.
func RowOf(line []byte) (r Row, ok bool) {
	var v fields
	if !scan(line, &v) {
		return r, false
	}
	v.row(&r)
	return r, true
}
