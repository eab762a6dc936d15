package gemini

import (
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/host"
)

// Gemini CLI 0.61.0's run_shell_command reports how its command ended
// only in llmContent (ShellToolInvocation.execute): "Output: <output>",
// then, one a line and only when there is something to say, "Error: …",
// "Exit Code: N" (N non-zero), "Signal: S", "Background PIDs: …" and
// "Process Group PGID: N", all wrapped in <untrusted_context>. The
// exit code it keeps in the result's data never reaches AfterTool, and
// tool_response.error is set only when the command could not be started,
// so a compile error that exits 1 arrives with no error field at all.

// shellTrailer are the section prefixes that follow the output, in order.
var shellTrailer = []string{"Error: ", "Exit Code: ", "Signal: ", "Background PIDs: ", "Process Group PGID: "}

// shellFailure reads the trailer of a shell result's text (as ContentText
// gives it) from its end (host.TrailerLines): a non-zero "Exit Code" or a
// "Signal" there is a failure, described as Gemini put it. Gemini writes
// each section at most once, in order, so the trailer read backwards
// stops at a line that is not a section before the last one read: a whole
// trailer the command printed (a log of earlier calls) does not count.
func shellFailure(text string) (string, bool) {
	text = strings.TrimSuffix(strings.TrimSpace(text), "</untrusted_context>")
	var msg []string
	next := len(shellTrailer) // sections before this one may follow
	inOrder := func(l string) bool {
		k := trailerSection(l)
		if k < 0 || k >= next {
			return false
		}
		next = k
		return true
	}
	for _, line := range host.TrailerLines(text, inOrder) {
		prefix := shellTrailer[trailerSection(line)]
		switch value := strings.TrimSpace(line[len(prefix):]); prefix {
		case "Exit Code: ":
			if n, err := strconv.Atoi(value); err == nil && n != 0 {
				msg = append(msg, "exit code "+value)
			}
		case "Signal: ":
			if value != "" && value != "(none)" {
				msg = append(msg, "killed by signal "+value)
			}
		}
	}
	if len(msg) == 0 {
		return "", false
	}
	return strings.Join(msg, ", "), true
}

// trailerSection is the index in shellTrailer of the section the line
// starts, -1 for none.
func trailerSection(line string) int {
	for i, p := range shellTrailer {
		if strings.HasPrefix(line, p) {
			return i
		}
	}
	return -1
}

// shellFailed is shellFailure as the event's Failed and Error.
func shellFailed(text string) (bool, string) {
	msg, failed := shellFailure(text)
	return failed, msg
}
