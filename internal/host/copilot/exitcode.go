package copilot

import (
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/host"
)

// Copilot CLI 1.0.102's bash tool reports a command that exits non-zero
// as resultType "success" (postToolUse, captured: `test -f missing.txt`
// gives {"resultType":"success","textResultForLlm":"\n<shellId: 0
// completed with exit code 1>"}); only the line its shell appends to the
// output says how the command ended. The CLI's own reader of that line
// (cli-main.js) takes the last non-blank line, past the notes its sandbox
// adds after it, as `<shellId: ID completed with exit code N>` or
// `<detached command with shellId: ID completed with exit code N>`; this
// reads it the same way, and only there.

// sandboxNotes begin the lines Copilot's sandbox may add after the exit line.
var sandboxNotes = []string{"<sandbox is active ", "<this failure may be caused by the active sandbox policy.", "<This command was retried outside the Copilot sandbox with user approval and still failed."}

const exitMarker = " completed with exit code "

// shellFailure reads the exit line at the end of a bash result's text: a
// non-zero exit code there is a failure, described as "exit code N".
func shellFailure(text string) (string, bool) {
	for _, line := range host.TrailerLines(text, func(l string) bool { return sandboxNote(l) || exitLine(l) != "" }) {
		if code := exitLine(line); code != "" {
			if code == "0" {
				return "", false
			}
			return "exit code " + code, true
		}
	}
	return "", false
}

func sandboxNote(line string) bool {
	for _, p := range sandboxNotes {
		if strings.HasPrefix(line, p) {
			return true
		}
	}
	return false
}

// exitLine is the exit code an exit line names, "" when line is none.
func exitLine(line string) string {
	line = strings.TrimRight(line, " \t")
	if !strings.HasPrefix(line, "<shellId: ") && !strings.HasPrefix(line, "<detached command with shellId: ") || !strings.HasSuffix(line, ">") {
		return ""
	}
	i := strings.LastIndex(line, exitMarker)
	if i < 0 {
		return ""
	}
	code := line[i+len(exitMarker) : len(line)-1]
	if _, err := strconv.Atoi(code); err != nil {
		return ""
	}
	return code
}
