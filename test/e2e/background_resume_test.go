package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/background"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
)

// TestBackgroundResumeGemini: delegate_task's resume on Gemini CLI. The
// first task runs `gemini -p` with the session id atreides gave it
// (--session-id); the resume runs `gemini -p … --resume <that id>`, and
// the real CLI sends the model the first task's conversation before the
// new prompt. On main Gemini had no resume command (background.resume),
// so a resume was refused.
func TestBackgroundResumeGemini(t *testing.T) {
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{fg.Text("FIRST-ANSWER-41"), fg.Text("SECOND-ANSWER-42")}})
	atreides := atreidesFor(t)
	t.Setenv("HOME", p.Home)
	t.Setenv("PATH", strings.Join([]string{filepath.Dir(p.bin), filepath.Dir(atreides), os.Getenv("PATH")}, string(os.PathListSeparator)))
	for _, kv := range []string{"GOOGLE_GEMINI_BASE_URL=" + p.Fake.URL, "GEMINI_API_KEY=fake-key", "GEMINI_CLI_TRUST_WORKSPACE=true"} {
		k, v, _ := strings.Cut(kv, "=")
		t.Setenv(k, v)
	}
	first := runTask(t, p.Dir, atreides, background.Request{Parent: "parent-1", Host: "gemini", Agent: "explore", Description: "first", Prompt: "Remember the word PELICAN-77."})
	if first.Status != background.Completed || first.Child == "" {
		t.Fatalf("bg-1: %s %q session %q", first.Status, first.Error, first.Child)
	}
	second := runTask(t, p.Dir, atreides, background.Request{Parent: "parent-1", Host: "gemini", Agent: "explore", Description: "again", Prompt: "Which word did I ask you to remember?", Resume: first.ID})
	out := background.Dir(p.Dir, second.ID)
	argv, _ := os.ReadFile(filepath.Join(out, "argv.json"))
	if second.Status != background.Completed || !strings.Contains(second.Result, "SECOND-ANSWER-42") {
		stderr, _ := os.ReadFile(filepath.Join(out, "stderr"))
		t.Fatalf("%s: %s %q %q\nargv %s\nstderr:\n%s", second.ID, second.Status, second.Result, second.Error, argv, tail(string(stderr), 3000))
	}
	if !strings.Contains(string(argv), `"--resume","{session}"`) {
		t.Errorf("the resume's argv: %s", argv)
	}
	reqs := p.Fake.Requests()
	last := reqs[len(reqs)-1]
	if !last.Contains("PELICAN-77") || !last.Contains("Which word did I ask you to remember?") {
		t.Errorf("the resumed request lacks the first task's conversation:\n%s", tail(string(last.Raw), 3000))
	}
}
