package e2e

import (
	"testing"

	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
)

// TestGeminiGaps runs the Gemini CLI scenarios of issue 36's Gemini
// holes that a headless run can show: failures told by the exit code. The
// state block after /compress needs the interactive CLI
// (TestGeminiCompressMemory, in a pseudo-terminal): `gemini -p "/compress"
// --resume latest` (0.61.0) does not compress: the command's action starts
// the compression without waiting for it, and a command that returns
// nothing leaves the text to go to the model as a prompt
// (nonInteractiveCli); seen: no summarising request, and the next resumed
// prompt found no snapshot to restore.
func TestGeminiGaps(t *testing.T) {
	geminiCLI.require(t)
	for _, sc := range []struct {
		name string
		fn   func(*testing.T)
	}{
		{"ExitCodeStrikes", geminiExitStrikes},
	} {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			sc.fn(t)
		})
	}
}

// Gemini CLI 0.61.0 reports a command that exits 1 as "Exit Code: 1" in
// the tool's llmContent, with no error field. `test -f missing.txt` prints
// nothing and names no error, so only that line says it failed: the
// second failure in a row brings the strike warning.
func geminiExitStrikes(t *testing.T) {
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Do(fg.Shell("test -f missing.txt")),
		fg.Do(fg.Shell("test -f missing.txt")),
		fg.Text("It is not there."),
	}})
	p.writeGeminiHooks()
	p.Run("check for missing.txt")

	main := p.Fake.Main()
	if len(main) < 3 {
		t.Fatalf("got %d model requests, want 3", len(main))
	}
	const warned = "failed 2 times in a row"
	if main[1].Contains(warned) || !main[2].Contains(warned) {
		t.Errorf("the strike warning did not follow the second failure (after the first: %v)", main[1].Contains(warned))
	}
}
