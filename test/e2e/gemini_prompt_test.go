package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
)

// TestGeminiPromptIsTheUsers: Gemini CLI 0.61.0 in -p mode puts the
// SessionStart context in front of the prompt it hands BeforeAgent; the
// prompt atreides reads (here: the audit's prompt field) is still exactly
// what the user typed, while the model is still sent atreides's context.
func TestGeminiPromptIsTheUsers(t *testing.T) {
	const typed = "look at the widget code, please"
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{fg.Text("Looked.")}})
	p.writeGeminiHooks()
	p.Run(typed)
	main := p.Fake.Main()
	if len(main) == 0 || !main[0].Contains("atreides:session") || !main[0].Contains(typed) {
		t.Fatalf("the first request lacks atreides's session context or the prompt")
	}
	var prompts []string
	for _, line := range strings.Split(strings.TrimSpace(p.Atreides("log", "--json")), "\n") {
		var r struct {
			Prompt string `json:"prompt"`
		}
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			t.Fatalf("atreides log --json printed %q: %v", line, err)
		}
		if r.Prompt != "" {
			prompts = append(prompts, r.Prompt)
		}
	}
	if len(prompts) != 1 || prompts[0] != typed {
		t.Errorf("the audit's prompts are %q, want only %q", prompts, typed)
	}
}
