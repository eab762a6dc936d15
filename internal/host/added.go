package host

import (
	"encoding/json"
	"strings"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// Every host's write and edit tools say what they put into a file in one of
// three shapes: the whole new content (with, on some hosts, the content it
// replaced), a replacement of one string by another, or a patch. These
// turn each shape into [event.FileLines] for [event.Tool.Added], so that
// every adapter marks added lines the same way.

// Written is a write of content to path; original is what the file held
// before ("" for a new file). A line counts as added when the original did
// not hold it as often.
func Written(path, content, original string) event.FileLines {
	lines := splitLines(content)
	if original == "" {
		return event.FileLines{Path: path, Lines: lines, Whole: true}
	}
	return event.FileLines{Path: path, Lines: lines, New: notIn(lines, splitLines(original)), Whole: true}
}

// OriginalIn is the file's content before a write, as a host's tool
// response holds it under key (Claude Code's "originalFile", Gemini CLI's
// "originalContent"); "" when it is not there or does not parse, and then
// every line of the write counts as added (the comment checker fails
// open).
func OriginalIn(response json.RawMessage, key string) string {
	if len(response) == 0 || response[0] != '{' {
		return ""
	}
	var fields map[string]json.RawMessage
	var s string
	if strictjson.Unmarshal(response, &fields) != nil || json.Unmarshal(fields[key], &s) != nil {
		return ""
	}
	return s
}

// Replaced is an edit of path that replaced old by new: the lines of new
// that old did not hold as often are added.
func Replaced(path, old, new string) event.FileLines {
	lines := splitLines(new)
	return event.FileLines{Path: path, Lines: lines, New: notIn(lines, splitLines(old))}
}

// patchHeaders are the apply_patch lines that name a file, each followed by
// the path. "Move to" is the new name of an updated file: it is written too.
var patchHeaders = []string{"*** Update File:", "*** Add File:", "*** Delete File:", "*** Move to:"}

// PatchPaths lists the files an apply_patch envelope touches, in order and
// without repeats.
func PatchPaths(patch string) []string {
	var paths []string
	seen := map[string]bool{}
	for line := range strings.Lines(patch) {
		// Leading blanks are tolerated: Codex's own parser is lenient (and OpenCode's and Copilot's),
		// and a path the guard misses is worse than one it sees twice.
		line = strings.TrimSpace(line)
		for _, h := range patchHeaders {
			if rest, ok := strings.CutPrefix(line, h); ok {
				if p := strings.TrimSpace(rest); p != "" && !seen[p] {
					seen[p] = true
					paths = append(paths, p)
				}
				break
			}
		}
	}
	return paths
}

// PatchAdded reads an apply_patch envelope (Codex's, and OpenCode's
// apply_patch): an added file's lines are all added; an updated file's
// hunks are kept as their context and added lines, in order, with the
// removed lines left out. A file moved by the patch is named by its new
// path. Files that gain no line are left out.
func PatchAdded(patch string) []event.FileLines {
	var (
		out []event.FileLines
		cur *event.FileLines
	)
	flush := func() {
		if cur != nil && hasNew(*cur) {
			out = append(out, *cur)
		}
		cur = nil
	}
	for line := range strings.Lines(patch) {
		line = strings.TrimRight(line, "\r\n")
		if rest, ok := strings.CutPrefix(line, "***"); ok {
			rest = strings.TrimSpace(rest)
			switch {
			case strings.HasPrefix(rest, "Add File:"), strings.HasPrefix(rest, "Update File:"):
				flush()
				_, p, _ := strings.Cut(rest, ":")
				cur = &event.FileLines{Path: strings.TrimSpace(p), New: []bool{}, Whole: strings.HasPrefix(rest, "Add")}
			case strings.HasPrefix(rest, "Move to:") && cur != nil:
				cur.Path = strings.TrimSpace(strings.TrimPrefix(rest, "Move to:"))
			case strings.HasPrefix(rest, "Delete File:"), rest == "End Patch":
				flush()
			}
			continue
		}
		if cur == nil || line == "" {
			continue
		}
		switch line[0] {
		case '+', ' ':
			cur.Lines = append(cur.Lines, line[1:])
			cur.New = append(cur.New, line[0] == '+')
		}
	}
	flush()
	return out
}

func hasNew(f event.FileLines) bool {
	for i := range f.Lines {
		if f.IsNew(i) {
			return true
		}
	}
	return false
}

// splitLines splits text into lines without their ends; a final newline
// does not start another line.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// notIn marks the lines of lines that old does not hold as often,
// counting repeats: a line written twice where the original had it once
// is added once.
func notIn(lines, old []string) []bool {
	count := make(map[string]int, len(old))
	for _, l := range old {
		count[l]++
	}
	marks := make([]bool, len(lines))
	for i, l := range lines {
		if count[l] > 0 {
			count[l]--
			continue
		}
		marks[i] = true
	}
	return marks
}
