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
// "Signal" there is a failure, described as Gemini put it.
func shellFailure(text string) (string, bool) {
	text = strings.TrimSuffix(strings.TrimSpace(text), "</untrusted_context>")
	var msg []string
	for _, line := range host.TrailerLines(text, func(l string) bool { return trailerPrefix(l) != "" }) {
		prefix := trailerPrefix(line)
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

func trailerPrefix(line string) string {
	for _, p := range shellTrailer {
		if strings.HasPrefix(line, p) {
			return p
		}
	}
	return ""
}

// shellFailed is shellFailure as the event's Failed and Error.
func shellFailed(text string) (bool, string) {
	msg, failed := shellFailure(text)
	return failed, msg
}
