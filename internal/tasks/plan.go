package tasks

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
)

// A plan is markdown that an agent or a person writes. Its phases are the
// level-two headings that start with "Phase" ("## Phase 1: Add the
// handler [NOT STARTED]"), in the order they appear: phase K is the K-th
// such heading, whatever number its title gives. The heading ends with the
// phase's marker; a heading without one is a phase not started. A line
// "Verify: <command>" in a phase's section (list item and backticks
// allowed) is how that phase is checked. Headings inside fenced code
// blocks are not phases.

// Phase markers, as tasks.Marker renders the statuses.
var phaseStatuses = []string{NotStarted, InProgress, Completed}

// Phase is one phase of a plan.
type Phase struct {
	// Title is the heading without its "##" and its marker.
	Title  string `json:"title"`
	Status string `json:"status"`
	Verify string `json:"verify,omitempty"`
	// FileStatus is the status the plan file's marker shows when it is
	// not the one recorded (a hand-written "[COMPLETED]"): shown as a
	// warning, never believed. "" when they agree.
	FileStatus string `json:"file_status,omitempty"`
	// marker is where the marker is (or, when the heading has none, where
	// it goes) in the source: [start, end).
	start, end int
}

// Plan is a parsed plan.
type Plan struct {
	Phases []Phase `json:"phases"`
}

// Current is the number (1-based) of the first phase not completed; 0
// when every phase is.
func (p *Plan) Current() int {
	for i, ph := range p.Phases {
		if ph.Status != Completed {
			return i + 1
		}
	}
	return 0
}

// Done counts the completed phases.
func (p *Plan) Done() int {
	n := 0
	for _, ph := range p.Phases {
		if ph.Status == Completed {
			n++
		}
	}
	return n
}

// ParsePlan reads a plan's phases. It never fails: text that is not a
// phase heading is the plan's prose.
func ParsePlan(src []byte) Plan {
	var p Plan
	fence := ""
	inPhase := false // a Verify line belongs to the phase whose section it is in
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src)
		} else {
			end += off
		}
		line := string(src[off:end])
		trimmed := strings.TrimSpace(line)
		switch {
		case fence != "":
			if strings.HasPrefix(trimmed, fence) {
				fence = ""
			}
		case strings.HasPrefix(trimmed, "```"), strings.HasPrefix(trimmed, "~~~"):
			fence = trimmed[:3]
		default:
			if ph, ok := parseHeading(line, off); ok {
				p.Phases = append(p.Phases, ph)
				inPhase = true
			} else if strings.HasPrefix(line, "# ") || strings.HasPrefix(line, "## ") {
				inPhase = false
			} else if n := len(p.Phases); inPhase && p.Phases[n-1].Verify == "" {
				p.Phases[n-1].Verify = verifyLine(trimmed)
			}
		}
		off = end + 1
	}
	return p
}

// parseHeading reads "## Phase …[MARKER]"; off is the line's offset.
func parseHeading(line string, off int) (Phase, bool) {
	rest, ok := strings.CutPrefix(line, "## ")
	if !ok {
		return Phase{}, false
	}
	head := strings.TrimLeft(rest, " \t")
	if len(head) < 5 || !strings.EqualFold(head[:5], "phase") {
		return Phase{}, false
	}
	body := strings.TrimRight(line, " \t\r")
	ph := Phase{Status: NotStarted, start: off + len(body), end: off + len(body)}
	title := body
	if strings.HasSuffix(body, "]") {
		if i := strings.LastIndexByte(body, '['); i >= 0 {
			if st, ok := markerStatus(body[i:]); ok {
				ph.Status, ph.start = st, off+i
				title = body[:i]
			}
		}
	}
	ph.Title = phaseTitle(strings.TrimSpace(strings.TrimPrefix(title, "## ")))
	return ph, true
}

// phaseTitle is a heading's title without its "Phase K:" label, which
// every message already gives as a number: "Phase 2: Tests" is "Tests".
// A heading that is only the label keeps it.
func phaseTitle(h string) string {
	rest := strings.TrimLeft(h[len("phase"):], " \t")
	digits := strings.TrimLeft(rest, "0123456789")
	if len(digits) == len(rest) {
		return h
	}
	t := strings.TrimSpace(strings.TrimLeft(digits, " \t:.)-–—"))
	if t == "" {
		return h
	}
	return t
}

func markerStatus(m string) (string, bool) {
	for _, st := range phaseStatuses {
		if m == Marker(st) {
			return st, true
		}
	}
	return "", false
}

// verifyLine is the command of a "Verify: cmd" line, "" for another line.
func verifyLine(trimmed string) string {
	l := strings.TrimLeft(trimmed, "-*+ ")
	l = strings.ReplaceAll(l, "**", "")
	rest, ok := cutPrefixFold(l, "verify:")
	if !ok {
		return ""
	}
	rest = strings.TrimSpace(rest)
	if len(rest) >= 2 && rest[0] == '`' && rest[len(rest)-1] == '`' {
		rest = strings.Trim(rest, "`")
	}
	return strings.TrimSpace(rest)
}

func cutPrefixFold(s, prefix string) (string, bool) {
	if len(s) < len(prefix) || !strings.EqualFold(s[:len(prefix)], prefix) {
		return s, false
	}
	return s[len(prefix):], true
}

// PlanHash identifies what a plan says, and an approval pins it: a plan
// whose hash changed since is not the plan the user approved. It is the
// sha256 of [CanonicalPlan]: the text without the phase markers (the
// store holds where the phases stand, and atreides rewrites the markers
// from it) and without whitespace that changes nothing a reader sees.
func PlanHash(src []byte) string {
	sum := sha256.Sum256(CanonicalPlan(src))
	return hex.EncodeToString(sum[:])
}

// CanonicalPlan is a plan's text as its approval sees it: phase markers
// removed (with the blanks before them), line ends as "\n", no byte
// order mark, no blanks at a line's end, one blank line wherever there
// were several, none at the start or the end. Indentation and the blanks
// inside a line stay: they make lists nest, code blocks and a command's
// arguments, so a change of them is a change of the plan.
func CanonicalPlan(src []byte) []byte {
	text := withoutMarkers(bytes.TrimPrefix(src, []byte("\xef\xbb\xbf")))
	var out []byte
	blank := false
	for _, line := range bytes.Split(text, []byte("\n")) {
		line = bytes.TrimRight(line, " \t\r")
		if len(line) == 0 {
			blank = len(out) > 0
			continue
		}
		if blank {
			out = append(out, '\n')
		}
		out = append(append(out, line...), '\n')
		blank = false
	}
	return out
}

// withoutMarkers is src without its phase markers and the blanks before
// them.
func withoutMarkers(src []byte) []byte {
	var text []byte
	prev := 0
	for _, ph := range ParsePlan(src).Phases {
		text = append(text, bytes.TrimRight(src[prev:ph.start], " \t")...)
		prev = ph.end
	}
	return append(text, src[prev:]...)
}

// WithStatuses is src with every phase's marker the status recorded for
// it (status[k-1]; a phase past the record is not started): the plan
// file's markers are written from the store, never read back.
func WithStatuses(src []byte, status []string) []byte {
	p := ParsePlan(src)
	out := src
	for k := len(p.Phases); k >= 1; k-- {
		st := NotStarted
		if k <= len(status) {
			st = status[k-1]
		}
		if p.Phases[k-1].Status == st && p.Phases[k-1].start != p.Phases[k-1].end {
			continue
		}
		if next, err := SetMarker(out, k, st); err == nil {
			out = next
		}
	}
	return out
}

// SetMarker gives phase k (1-based) of src the status's marker. Only the
// marker's bytes change (a heading without one gets one at its end).
func SetMarker(src []byte, k int, status string) ([]byte, error) {
	if _, ok := markerStatus(Marker(status)); !ok {
		return nil, fmt.Errorf("a phase is not started, in progress or completed, not %s", status)
	}
	p := ParsePlan(src)
	if k < 1 || k > len(p.Phases) {
		return nil, fmt.Errorf("the plan has %s, no phase %d", phasesWord(len(p.Phases)), k)
	}
	ph := p.Phases[k-1]
	m := Marker(status)
	if ph.start == ph.end {
		m = " " + m
	}
	out := make([]byte, 0, len(src)+len(m))
	out = append(out, src[:ph.start]...)
	out = append(out, m...)
	return append(out, src[ph.end:]...), nil
}

func phasesWord(n int) string {
	if n == 1 {
		return "1 phase"
	}
	return strconv.Itoa(n) + " phases"
}
