package gemini

import (
	"encoding/json"
	"testing"
	"time"
)

// TestDecodeBeforeAgentPrompt: Gemini CLI 0.61.0 in -p mode hands
// BeforeAgent the prompt behind the SessionStart context (the first row's
// shape is a captured payload's, cut short: atreides's fenced context,
// then another hook's, joined by "\n" and escaped). The prompt atreides
// reads loses exactly atreides's fenced text: another hook's context, and
// a prompt of any other shape, stay as they are.
func TestDecodeBeforeAgentPrompt(t *testing.T) {
	const (
		ours  = "&lt;!-- atreides:start --&gt;\n&lt;!-- atreides:session --&gt;\nYou are Muad'Dib, the lead agent of this session.\n&lt;!-- /atreides:start --&gt;"
		typed = "look at the widget code, please"
	)
	tests := []struct{ name, prompt, want string }{
		{"ours and another hook's", "<hook_context>" + ours + "\nOTHER &lt;hook&gt; ctx</hook_context>\n\n" + typed, "<hook_context>OTHER &lt;hook&gt; ctx</hook_context>\n\n" + typed},
		{"ours alone", "<hook_context>" + ours + "</hook_context>\n\n" + typed, typed},
		{"another hook's first", "<hook_context>OTHER\n" + ours + "</hook_context>\n\n" + typed, "<hook_context>OTHER</hook_context>\n\n" + typed},
		{"ours and no prompt", "<hook_context>" + ours + "</hook_context>", ""},
		{"multi-line prompt", "<hook_context>" + ours + "</hook_context>\n\n" + typed + "\n\nsecond paragraph", typed + "\n\nsecond paragraph"},
		{"no context", typed, typed},
		{"another hook's only", "<hook_context>OTHER</hook_context>\n\n" + typed, "<hook_context>OTHER</hook_context>\n\n" + typed},
		{"typed tags, not escaped", "<hook_context><!-- atreides:start -->x<!-- /atreides:start --></hook_context>\n\n" + typed, "<hook_context><!-- atreides:start -->x<!-- /atreides:start --></hook_context>\n\n" + typed},
		{"not followed by a blank line", "<hook_context>" + ours + "</hook_context> " + typed, "<hook_context>" + ours + "</hook_context> " + typed},
		{"fence in the prompt only", typed + "\n<hook_context>" + ours + "</hook_context>", typed + "\n<hook_context>" + ours + "</hook_context>"},
		{"unclosed fence", "<hook_context>&lt;!-- atreides:start --&gt;\nx</hook_context>\n\n" + typed, "<hook_context>&lt;!-- atreides:start --&gt;\nx</hook_context>\n\n" + typed},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			prompt, _ := json.Marshal(tt.prompt)
			in := `{"session_id":"s","transcript_path":"/t","cwd":"/p","hook_event_name":"BeforeAgent","timestamp":"2026-11-30T03:26:29.577Z","prompt":` + string(prompt) + `}`
			ev, err := Decode([]byte(in), "", time.Unix(0, 0))
			if err != nil {
				t.Fatal(err)
			}
			if ev.Prompt != tt.want {
				t.Errorf("prompt %q, want %q", ev.Prompt, tt.want)
			}
		})
	}
}

// TestFenceRoundTrip: what fenceStart sends, escaped as Gemini escapes it
// and put before a prompt as Gemini puts it, is taken off again whole,
// even when the context holds a fence of its own.
func TestFenceRoundTrip(t *testing.T) {
	for _, ctx := range []string{"plain", "<!-- atreides:session -->\nYou are X.", "a <!-- /atreides:start --> b"} {
		sent := fenceStart(ctx)
		escaped := escapeLikeGemini(sent)
		if got := stripStart("<hook_context>" + escaped + "</hook_context>\n\nhi"); got != "hi" {
			t.Errorf("%q came back as %q", ctx, got)
		}
	}
	if fenceStart("") != "" {
		t.Error("no context got a fence")
	}
}

func escapeLikeGemini(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '<':
			out = append(out, "&lt;"...)
		case '>':
			out = append(out, "&gt;"...)
		default:
			out = append(out, s[i])
		}
	}
	return string(out)
}
