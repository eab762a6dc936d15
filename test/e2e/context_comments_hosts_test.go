package e2e

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
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

// ocCommentScript writes the noisy file, then the clean one, then ends,
// through OpenCode's (and Kilo Code's) write tool.
func ocCommentScript(path func(string) string) func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
	return func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		switch countToolResults(r) {
		case 0:
			return fakeopenaichat.Tool("call_noisy", "write", map[string]any{"filePath": path("fetch.go"), "content": noisyGo})
		case 1:
			return fakeopenaichat.Tool("call_clean", "write", map[string]any{"filePath": path("normalize.go"), "content": cleanGo})
		}
		return fakeopenaichat.Reply{Text: "Both files written."}
	}
}

// checkOCCommentNote: the note on fetch.go reaches a later request, and
// none on normalize.go does.
func checkOCCommentNote(t *testing.T, fake *fakeopenaichat.Server) {
	t.Helper()
	mains := fake.MainRequests()
	if len(mains) < 3 {
		t.Fatalf("%d main requests, want 3:\n%s", len(mains), fake.Summary())
	}
	last := unescapeJSON(mains[len(mains)-1].Body())
	for _, want := range []string{"Comment check on fetch.go", "  // Now uses http.Get instead of the old client, as requested"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last request lacks %q", want)
		}
	}
	if strings.Contains(last, "Comment check on normalize.go") {
		t.Error("the clean write brought a comment note")
	}
}

// TestOpenCodeCommentChecker: the comment note after OpenCode's write.
func TestOpenCodeCommentChecker(t *testing.T) {
	t.Parallel()
	var p *ocProject
	p = newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply { return ocCommentScript(p.Path)(r) })
	p.WriteFile(".atreides/config.yaml", "context:\n  work:\n    verify_before_stop: false\n")
	p.runOC("Write the weather package.")
	p.assertExists("fetch.go")
	checkOCCommentNote(t, p.Fake)
}

// TestKiloCommentChecker: the same in Kilo Code.
func TestKiloCommentChecker(t *testing.T) {
	t.Parallel()
	var p *kiloProject
	p = newKiloProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply { return ocCommentScript(p.Path)(r) })
	p.WriteFile(".atreides/config.yaml", "context:\n  work:\n    verify_before_stop: false\n")
	p.Atreides("install", "kilo", "--project", "--offline")
	p.runKilo("Write the weather package.")
	p.assertExists("fetch.go")
	checkOCCommentNote(t, p.Fake)
}

// TestCopilotCommentChecker: the comment note after Copilot CLI's create.
func TestCopilotCommentChecker(t *testing.T) {
	copilotCLI.require(t)
	p := newCopilotProjectFor(t, func(hp *hostProject) fa.Script {
		create := func(name, content string) fa.ToolUse {
			return fa.ToolUse{Name: "create", Input: map[string]any{"path": hp.Path(name), "file_text": content}}
		}
		return fa.Script{Steps: []fa.Step{fa.Call(create("fetch.go", noisyGo)), fa.Call(create("normalize.go", cleanGo)), fa.Text("Both files written.")}}
	})
	p.WriteFile(".atreides/config.yaml", "context:\n  work:\n    verify_before_stop: false\n")
	p.install("../home/.copilot/hooks/atreides.json")
	p.Run("write the weather package")
	p.assertExists("fetch.go")
	main := p.Fake.Main()
	if len(main) != 3 {
		t.Fatalf("got %d main requests, want 3", len(main))
	}
	for _, want := range []string{"Comment check on fetch.go", "  // Now uses http.Get instead of the old client, as requested"} {
		if !main[1].Contains(want) {
			t.Errorf("the request after the noisy create lacks %q", want)
		}
	}
	if main[2].Contains("Comment check on normalize.go") {
		t.Error("the clean create brought a comment note")
	}
}

// TestQwenCommentChecker: the comment note after Qwen Code's write_file.
func TestQwenCommentChecker(t *testing.T) {
	qwenCLI.require(t)
	var p *qwenProject
	p = newQwenProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		switch countToolResults(r) {
		case 0:
			return qwenCall("call_noisy", "write_file", map[string]any{"file_path": p.Path("fetch.go"), "content": noisyGo})
		case 1:
			return qwenCall("call_clean", "write_file", map[string]any{"file_path": p.Path("normalize.go"), "content": cleanGo})
		}
		return fakeopenaichat.Reply{Text: "Both files written."}
	})
	p.WriteFile(".atreides/config.yaml", "context:\n  work:\n    verify_before_stop: false\n")
	p.writeQwenHooks()
	p.Run("write the weather package")
	p.assertExists("fetch.go")
	main := p.Main()
	if len(main) < 3 {
		t.Fatalf("got %d main-agent requests, want 3", len(main))
	}
	last := unescapeJSON(main[len(main)-1].Body())
	for _, want := range []string{"Comment check on fetch.go", "  // Now uses http.Get instead of the old client, as requested"} {
		if !strings.Contains(last, want) {
			t.Errorf("the last request lacks %q", want)
		}
	}
	if strings.Contains(last, "Comment check on normalize.go") {
		t.Error("the clean write brought a comment note")
	}
}

// TestClineCommentChecker: the comment note after Cline's editor writes a
// new file, as a user message after the tool's result.
func TestClineCommentChecker(t *testing.T) {
	clineCLI.require(t)
	var dir later // the project is known once it is made
	p := newClineProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		write := func(id, name, content string) fakeopenaichat.Reply {
			args, _ := json.Marshal(map[string]string{"path": filepath.Join(dir.get(), name), "new_text": content})
			return fakeopenaichat.Tool(id, "editor", string(args))
		}
		return replies(write("call_noisy", "fetch.go", noisyGo), write("call_clean", "normalize.go", cleanGo))(r)
	})
	dir.set(p.Dir)
	p.WriteFile(".atreides/config.yaml", "context:\n  work:\n    verify_before_stop: false\n")
	p.install()
	p.Run("write the weather package")
	p.assertExists("fetch.go")
	if _, rest := p.after("call_noisy"); !strings.Contains(rest, "Comment check on fetch.go") || !strings.Contains(rest, "  // Now uses http.Get instead of the old client, as requested") {
		t.Errorf("no comment note after the noisy write; then %q", rest)
	}
	if _, rest := p.after("call_clean"); strings.Contains(rest, "Comment check on normalize.go") {
		t.Errorf("the clean write brought a comment note: %q", rest)
	}
}
