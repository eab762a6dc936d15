package review

import (
	"fmt"
	"strings"
)

// DefaultFocus is what a review without a focus looks at.
const DefaultFocus = "the uncommitted changes (git diff HEAD, and new files git status lists); if there are none, the last commit (git show HEAD)"

// Prompt is the review prompt every reviewer gets: the focus, what
// counts as a finding, and the JSON the answer must end with, which
// package consensus parses.
func Prompt(focus string) string {
	focus = strings.TrimSpace(focus)
	if focus == "" {
		focus = DefaultFocus
	}
	return fmt.Sprintf(`You are one of several independent reviewers of this project (atreides multi-model review). Do not edit, create or delete any file; read, search and run read-only commands only.

Review: %s

Report real problems only: bugs, security holes, data loss, races, unhandled errors, wrong or missing behaviour, missing tests for risky code. Leave out style preferences. For each problem give the file (relative to the project root), the first line (1-based) and last line it concerns, a severity (critical, high, medium, low or info), a short title that names the problem, and a detail saying why it is wrong and how to fix it.

End your answer with exactly one JSON object, and nothing after it:
{"findings": [{"file": "path/to/file", "line": 42, "end_line": 45, "severity": "high", "title": "…", "detail": "…"}]}
If you find no problem, end with {"findings": []}.`, focus)
}
