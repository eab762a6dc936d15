package e2e

import (
	"testing"

	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
)

// TestGeminiCommentChecker: a comment-heavy write_file with memo phrases
// brings the comment note (AfterTool's context) into the next request the
// model receives, naming the file and quoting the lines; a clean write
// brings none.
func TestGeminiCommentChecker(t *testing.T) {
	geminiCLI.require(t)
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Do(fg.Call{Name: "write_file", Args: map[string]any{"file_path": "fetch.go", "content": noisyGo}}),
		fg.Do(fg.Call{Name: "write_file", Args: map[string]any{"file_path": "normalize.go", "content": cleanGo}}),
		fg.Text("Both files written."),
	}})
	// This test is about the comment note only: no verify nudge at the stop.
	p.WriteFile(".atreides/config.yaml", "context:\n  work:\n    verify_before_stop: false\n")
	p.writeGeminiHooks()
	p.Run("write the weather package")

	p.assertExists("fetch.go")
	p.assertExists("normalize.go")
	main := p.Fake.Main()
	if len(main) != 3 {
		t.Fatalf("got %d conversation requests, want 3", len(main))
	}
	if main[0].Contains("Comment check") {
		t.Error("a comment note before any write")
	}
	for _, want := range []string{"Comment check on fetch.go", "  // Now uses http.Get instead of the old client, as requested", "  // Return the response"} {
		if !main[1].Contains(want) {
			t.Errorf("the request after the noisy write lacks %q", want)
		}
	}
	if main[2].Contains("Comment check on normalize.go") {
		t.Error("the clean write brought a comment note")
	}
}
