package e2e

import (
	"os"
	"strings"
	"testing"

	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
)

// TestGeminiReadBeforeWrite: Gemini CLI lets write_file overwrite a file
// its agent never read; with context.read_before_write: block, atreides
// refuses it, names the file, and lets the same write through once the
// agent has read the file with read_file.
func TestGeminiReadBeforeWrite(t *testing.T) {
	geminiCLI.require(t)
	// Gemini resolves a relative file_path against the project.
	write := fg.Call{Name: "write_file", Args: map[string]any{"file_path": "notes.txt", "content": "rewritten\n"}}
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Do(write),
		fg.Do(fg.Call{Name: "read_file", Args: map[string]any{"file_path": "notes.txt"}}),
		fg.Do(write),
		fg.Text("Rewritten after reading it."),
	}})
	p.WriteFile("notes.txt", "kept by the user\n")
	p.WriteFile(".atreides/config.yaml", "context:\n  read_before_write: block\n")
	p.writeGeminiHooks()
	p.Run("rewrite notes.txt")

	frs := p.Fake.FunctionResponses()
	if len(frs) != 3 {
		t.Fatalf("got %d function responses, want 3", len(frs))
	}
	if e := frs[0].Error(); !strings.Contains(e, "atreides refused this change: notes.txt was not read in this session") {
		t.Errorf("the unread overwrite was not refused by atreides: %q", frs[0].Text())
	}
	for i := 1; i < 3; i++ {
		if e := frs[i].Error(); e != "" {
			t.Errorf("call %d failed: %q", i, e)
		}
	}
	if b, err := os.ReadFile(p.Path("notes.txt")); err != nil || string(b) != "rewritten\n" {
		t.Errorf("notes.txt = %q, %v; want the second write's content", b, err)
	}
}
