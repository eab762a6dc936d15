package host

import "strings"

// TrailerLines is the block of lines a host appended to a tool's text to
// say how it ended (Gemini CLI's "Exit Code: 1", Copilot CLI's
// "<shellId: 0 completed with exit code 1>"), read from the end of text:
// trailing blank lines are skipped, then lines are taken while in says
// they belong to the trailer, the last line first. The first line that
// does not belong ends the block, so a trailer-like line the command
// printed in the middle of its output never counts; one printed as the
// output's very last line still could, which no reading of the text can
// tell apart.
func TrailerLines(text string, in func(line string) bool) []string {
	text = strings.TrimRight(text, " \t\r\n")
	var block []string
	for text != "" {
		line := text
		if i := strings.LastIndexByte(text, '\n'); i >= 0 {
			line, text = text[i+1:], text[:i]
		} else {
			text = ""
		}
		line = strings.TrimRight(line, "\r")
		if !in(line) {
			break
		}
		block = append(block, line)
	}
	return block
}
