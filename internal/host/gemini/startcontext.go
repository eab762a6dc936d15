package gemini

import "strings"

// Gemini CLI 0.61.0 in -p mode puts the SessionStart hooks' context in
// front of the user's prompt (gemini.js, after fireSessionStartEvent):
// input = "<hook_context>" + context + "</hook_context>\n\n" + input, the
// context of every SessionStart hook joined with "\n" and HTML-escaped
// (getAdditionalContext: < and > become &lt; and &gt;), and BeforeAgent
// is handed that whole text as its prompt (fireBeforeAgentHookSafe).
// Keyword modes, phase and continuation detection and the audit would
// take atreides's own text for the user's. (Interactive mode adds the
// context as a history turn of its own instead, and the prompt is clean.)
//
// So atreides fences what it sends at SessionStart (startFence), and
// BeforeAgent's prompt loses exactly that fenced text, found where Gemini
// puts it: another hook's context in the same block, and anything the
// user typed, stay.

// The fence around atreides's SessionStart context, as sent (an HTML
// comment the model reads past, like session.Marker) and as Gemini hands
// it back (escaped).
const (
	fenceOpen         = "<!-- atreides:start -->"
	fenceClose        = "<!-- /atreides:start -->"
	escapedFenceOpen  = "&lt;!-- atreides:start --&gt;"
	escapedFenceClose = "&lt;!-- /atreides:start --&gt;"
)

// The wrapping Gemini puts around the SessionStart context in a prompt.
const (
	blockOpen  = "<hook_context>"
	blockClose = "</hook_context>"
	blockAfter = "\n\n"
)

// fenceStart fences atreides's SessionStart context so that stripStart
// can find it; a fence inside the text is dropped, so the first close
// after the open is the fence's own.
func fenceStart(ctx string) string {
	if ctx == "" {
		return ""
	}
	ctx = strings.ReplaceAll(strings.ReplaceAll(ctx, fenceOpen, ""), fenceClose, "")
	return fenceOpen + "\n" + ctx + "\n" + fenceClose
}

// stripStart is BeforeAgent's prompt without atreides's SessionStart
// context: only in the leading block Gemini builds (escaped, so it holds
// no raw "<"), and only the fenced text with the "\n" Gemini joined it to
// another hook's context by; the block goes, with its "\n\n", when
// nothing else is in it. A prompt of any other shape is returned as is.
func stripStart(prompt string) string {
	rest, ok := strings.CutPrefix(prompt, blockOpen)
	if !ok {
		return prompt
	}
	body, after, ok := strings.Cut(rest, blockClose)
	if !ok || strings.ContainsAny(body, "<>") {
		return prompt
	}
	if after != "" && !strings.HasPrefix(after, blockAfter) {
		return prompt
	}
	i := strings.Index(body, escapedFenceOpen)
	if i < 0 {
		return prompt
	}
	j := strings.Index(body[i:], escapedFenceClose)
	if j < 0 {
		return prompt
	}
	before, behind := body[:i], body[i+j+len(escapedFenceClose):]
	switch {
	case before == "" && behind == "":
		return strings.TrimPrefix(after, blockAfter)
	case strings.HasPrefix(behind, "\n"):
		behind = behind[1:]
	case strings.HasSuffix(before, "\n"):
		before = before[:len(before)-1]
	}
	return blockOpen + before + behind + blockClose + after
}
