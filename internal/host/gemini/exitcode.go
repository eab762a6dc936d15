package gemini

import (
	"strconv"
	"strings"
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
// gives it) from its end: a non-zero "Exit Code" or a "Signal" there is a
// failure, described as Gemini put it. The trailer is read backwards and
// stops at the first line that is not the section before the last one
// read (Gemini writes each at most once, in order), so an "Exit Code: 1"
// the command printed in its output does not count, nor does a whole
// trailer it printed (a log of earlier calls); one printed as the output's
// very last line above a real trailer that has no exit code still could,
// which no reading of this text can tell apart.
func shellFailure(text string) (string, bool) {
	text = strings.TrimSuffix(strings.TrimSpace(text), "</untrusted_context>")
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	var msg []string
	next := len(shellTrailer) // sections before this one may follow
	for i := len(lines) - 1; i > 0; i-- {
		line := strings.TrimRight(lines[i], "\r")
		k := trailerSection(line)
		if k < 0 || k >= next {
			break
		}
		next = k
		prefix := shellTrailer[k]
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
