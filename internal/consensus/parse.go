package consensus

import (
	"bytes"
	"encoding/json"
	"errors"
	"path"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds on what one answer may bring in: a reviewer's answer is model
// output, read by a program that writes it into a report.
const (
	MaxFindings = 200
	maxTitle    = 200
	maxDetail   = 4000
	maxFile     = 1024
	// maxStarts bounds how many '{' or '[' a lenient parse tries, so an
	// answer full of braces costs linear time, not quadratic.
	maxStarts = 64
)

// ErrNoFindings is returned when an answer holds no findings JSON.
var ErrNoFindings = errors.New(`no findings JSON in the answer (expected {"findings": [...]})`)

// rawFinding is a finding as a model writes it: line numbers may come as
// strings ("12" or "12-15"), and a few field names have synonyms.
type rawFinding struct {
	File        string          `json:"file"`
	Path        string          `json:"path"`
	Line        json.RawMessage `json:"line"`
	EndLine     json.RawMessage `json:"end_line"`
	Severity    string          `json:"severity"`
	Title       string          `json:"title"`
	Detail      string          `json:"detail"`
	Description string          `json:"description"`
}

// Parse reads a reviewer's answer: the JSON object {"findings": [...]}
// (or a bare array of findings) alone, in a fenced code block, or inside
// prose. Findings without a title are dropped; the rest are normalised
// (see [Finding]). An answer with no such JSON is [ErrNoFindings]; an
// empty list is no error (the reviewer found nothing).
func Parse(answer string) ([]Finding, error) {
	for _, cand := range candidates(answer) {
		raws, ok := decode(cand)
		if !ok {
			continue
		}
		out := make([]Finding, 0, min(len(raws), MaxFindings))
		for _, r := range raws {
			if f, ok := r.normal(); ok && len(out) < MaxFindings {
				out = append(out, f)
			}
		}
		return out, nil
	}
	return nil, ErrNoFindings
}

// candidates are the texts that may hold the JSON, most likely first:
// the whole answer, each object that opens with a "findings" key (the
// last first: the prompt asks the answer to end with it, and what comes
// before may quote code or another such object), its fenced blocks, then
// the text from each of the first '{' and '[' on (a bare array).
func candidates(s string) []string {
	out := append([]string{strings.TrimSpace(s)}, findingsObjects(s)...)
	rest := s
	for {
		i := strings.Index(rest, "```")
		if i < 0 {
			break
		}
		body := rest[i+3:]
		if nl := strings.IndexByte(body, '\n'); nl >= 0 {
			body = body[nl+1:]
		}
		j := strings.Index(body, "```")
		if j < 0 {
			break
		}
		out = append(out, body[:j])
		rest = body[j+3:]
	}
	n := 0
	for i := 0; i < len(s) && n < maxStarts; i++ {
		if s[i] == '{' || s[i] == '[' {
			out = append(out, s[i:])
			n++
		}
	}
	return out
}

// findingsObjects are the texts from each '{' that opens a "findings"
// key, the last first, at most maxStarts of them.
func findingsObjects(s string) []string {
	var out []string
	for end := len(s); len(out) < maxStarts; {
		i := strings.LastIndex(s[:end], `"findings"`)
		if i < 0 {
			break
		}
		if j := strings.LastIndexByte(s[:i], '{'); j >= 0 && strings.TrimSpace(s[j+1:i]) == "" {
			out = append(out, s[j:])
		}
		end = i
	}
	return out
}

// decode reads the first JSON value of s: an object with a findings
// list, or a list of findings.
func decode(s string) ([]rawFinding, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, false
	}
	d := json.NewDecoder(strings.NewReader(s))
	var v json.RawMessage
	if d.Decode(&v) != nil {
		return nil, false
	}
	v = bytes.TrimSpace(v)
	if len(v) > 0 && v[0] == '[' {
		var list []rawFinding
		return list, json.Unmarshal(v, &list) == nil && looksLikeFindings(v)
	}
	var obj struct {
		Findings *[]rawFinding `json:"findings"`
	}
	if json.Unmarshal(v, &obj) != nil || obj.Findings == nil {
		return nil, false
	}
	return *obj.Findings, true
}

// looksLikeFindings tells a list of findings from any other array in
// prose ("[1, 2]"): it is empty or its first item is an object.
func looksLikeFindings(v []byte) bool {
	var items []json.RawMessage
	if json.Unmarshal(v, &items) != nil {
		return false
	}
	return len(items) == 0 || bytes.HasPrefix(bytes.TrimSpace(items[0]), []byte("{"))
}

func (r rawFinding) normal() (Finding, bool) {
	title := clip(oneLine(r.Title), maxTitle)
	if title == "" {
		return Finding{}, false
	}
	f := Finding{
		File:     cleanFile(firstOf(r.File, r.Path)),
		Severity: ParseSeverity(r.Severity),
		Title:    title,
		Detail:   clip(strings.TrimSpace(firstOf(r.Detail, r.Description)), maxDetail),
	}
	f.Line, f.EndLine = lineRange(r.Line)
	if end, _ := lineRange(r.EndLine); end > 0 {
		f.EndLine = end
	}
	if f.Line == 0 || f.EndLine < f.Line {
		f.EndLine = f.Line
	}
	return f, true
}

// lineRange reads a line number: 12, "12", "12-15" or "L12".
func lineRange(raw json.RawMessage) (int, int) {
	var n float64
	if json.Unmarshal(raw, &n) == nil {
		return clampLine(n), clampLine(n)
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return 0, 0
	}
	s = strings.TrimPrefix(strings.TrimSpace(s), "L")
	a, b, _ := strings.Cut(s, "-")
	start := atoi(a)
	end := atoi(strings.TrimPrefix(strings.TrimSpace(b), "L"))
	return start, max(start, end)
}

func atoi(s string) int {
	n, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0
	}
	return clampLine(float64(n))
}

// clampLine keeps a line number in 0..1e9: a negative, fractional or
// absurd number is a model's slip, not a place in a file.
func clampLine(n float64) int {
	if n != n || n < 1 {
		return 0
	}
	if n > 1e9 {
		return 1e9
	}
	return int(n)
}

// cleanFile makes paths comparable: forward slashes, no "./", no
// trailing spaces; "" stays "" (a finding about the whole change). Control
// characters and backticks go: the report shows the path in a code span,
// which a newline or a backtick would end.
func cleanFile(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '`' || unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	s = strings.TrimSpace(strings.ReplaceAll(s, `\`, "/"))
	if s == "" {
		return ""
	}
	s = path.Clean(s)
	s = strings.TrimPrefix(s, "./")
	if s == "." {
		return ""
	}
	return clip(s, maxFile)
}

func firstOf(s ...string) string {
	for _, v := range s {
		if strings.TrimSpace(v) != "" {
			return v
		}
	}
	return ""
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

// clip cuts s to at most n bytes on a rune boundary.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
