package host

import (
	"encoding/json"
	"strings"
)

// JSONAnswer is the answer carrying out as JSON on stdout, or no answer
// when empty. Every field of an answer is a string or raw JSON the engine
// produced, so only a broken UpdatedInput can fail to encode; then the
// answer is fallback's with the reason, so that a block is never lost.
func JSONAnswer(out any, empty bool, fallback func(reason string) Answer) Answer {
	if empty {
		return Answer{}
	}
	b, err := json.Marshal(out)
	if err != nil {
		return fallback("atreides could not encode its answer: " + err.Error())
	}
	return Answer{Stdout: append(b, '\n')}
}

// Block refuses a call twice over: out as JSON on stdout, and exit 2 with
// the reason on stderr, which every command-hook host reads as a block
// should it not heed the JSON. out must hold only plain strings.
func Block(out any, reason string) Answer {
	b, _ := json.Marshal(out) // plain strings: cannot fail
	return Answer{Stdout: append(b, '\n'), Stderr: reason, Exit: 2}
}

// UnreadableReason is what the model is told when its tool call is
// blocked because the hook could not read it.
func UnreadableReason(err error) string {
	return "atreides could not read this hook event (" + err.Error() + "), so the tool call is blocked. Retry the call; if it keeps failing, ask the user to run `atreides doctor`."
}

// DefaultReason stands in for a blank deny or block reason: hosts show a
// block's reason to the model, and some reject an empty one (Codex, which
// would then let the call through) or show it as nothing (Gemini CLI's
// "Tool execution blocked: <reason>").
const DefaultReason = "blocked by atreides"

// OrDefault is s, or def when s is blank.
func OrDefault(s, def string) string {
	if strings.TrimSpace(s) == "" {
		return def
	}
	return s
}

// NonEmptyReason is reason, or [DefaultReason] when it is blank.
func NonEmptyReason(reason string) string { return OrDefault(reason, DefaultReason) }

// AskDenied is the reason of the deny that stands in for an Ask where the
// host cannot ask the user (cannot says why): the call is not run, and the
// model is told to get the user's go-ahead itself.
func AskDenied(cannot, reason string) string {
	return "atreides wants the user to confirm this call, and " + cannot + ", so it was not run. Ask the user; if they agree they can run it themselves or allow it in the atreides policy. Reason: " + reason
}
