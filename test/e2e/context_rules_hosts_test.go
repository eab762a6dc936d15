package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
	fo "github.com/atreides-dev/atreides/test/e2e/fakeopenai"
	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// writeRulesProject writes the nested-rules layout into a host project.
func writeRulesProject(p *hostProject) {
	for rel, c := range rulesProject {
		p.WriteFile(rel, c)
	}
}

// TestGeminiNestedRules: Gemini CLI reads GEMINI.md, not AGENTS.md, so
// atreides brings the nested rules with the read_file result (AfterTool):
// root first, once; a second read in pkg/a repeats nothing. The Cursor
// rule for *.go comes once too, the SQL rule not at all.
func TestGeminiNestedRules(t *testing.T) {
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Do(fg.Call{Name: "read_file", Args: map[string]any{"file_path": "pkg/a/x.go"}}),
		fg.Do(fg.Call{Name: "read_file", Args: map[string]any{"file_path": "pkg/a/y.go"}}),
		fg.Text("done"),
	}})
	writeRulesProject(p.hostProject)
	p.writeGeminiHooks()
	p.Run("read the package")

	main := p.Fake.Main()
	if len(main) != 3 {
		t.Fatalf("got %d conversation requests, want 3", len(main))
	}
	for i, r := range main {
		text := geminiText(r)
		if i == 0 {
			if strings.Contains(text, "PKG-RULE-MARK") {
				t.Error("rules before any read")
			}
			continue
		}
		assertOnceInOrder(t, "request "+string(rune('0'+i)), text, "PKG-RULE-MARK", "PKGA-RULE-MARK", "CURSOR-GO-MARK")
		if strings.Contains(text, "SQL-RULE-MARK") {
			t.Errorf("request %d: the SQL rule was injected for a Go file", i)
		}
	}
}

// geminiText is every text and function response of a request, decoded.
func geminiText(r *fg.Request) string {
	var b strings.Builder
	for _, c := range r.Body.Contents {
		for _, part := range c.Parts {
			b.WriteString(part.Text + "\n")
			if part.FunctionResponse != nil {
				raw, _ := json.Marshal(part.FunctionResponse)
				b.WriteString(unescapeJSON(string(raw)) + "\n")
			}
		}
	}
	return b.String()
}

// TestCodexNestedRules: the pinned Codex has no read tool; its model reads
// files with shell commands (`cat`), which atreides takes for reads (the
// shell model's plain readers): the rules of pkg/ and pkg/a and the Cursor
// rule for *.go come with the cat's output, once, parents first. A patch
// sent through exec_command as an `apply_patch` heredoc reaches the hooks
// as a Bash command (this fake provider's model is offered no apply_patch
// tool) and brings nothing more.
func TestCodexNestedRules(t *testing.T) {
	patch := func(file string) fo.Step {
		return fo.Exec("apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: " + file + "\n@@\n-package a\n+package a // edited\n*** End Patch\nEOF\n")
	}
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{
		fo.Exec("cat pkg/a/x.go"),
		patch("pkg/a/x.go"),
		fo.Text("done"),
	}})
	writeRulesProject(p.hostProject)
	p.writeCodexHooks()
	p.Run("edit the package")

	main := p.Fake.Main()
	if len(main) != 3 {
		t.Fatalf("got %d model requests, want 3", len(main))
	}
	if len(main[0].MessagesContaining("developer", sessionMarker)) != 1 {
		t.Fatal("atreides's hooks did not run (no session context)")
	}
	if b := readFile(t, p.Path("pkg/a/x.go")); !strings.Contains(b, "edited") {
		t.Fatalf("the patch did not apply: %q", b)
	}
	if strings.Contains(codexText(main[0]), "PKG-RULE-MARK") {
		t.Error("rules before any read")
	}
	for i, r := range main[1:] {
		text := codexText(r)
		if !strings.Contains(text, "package a") {
			t.Errorf("request %d does not carry the call's output", i+1)
		}
		assertOnceInOrder(t, "request "+string(rune('1'+i)), text, "PKG-RULE-MARK", "PKGA-RULE-MARK", "CURSOR-GO-MARK")
		if strings.Contains(text, "SQL-RULE-MARK") {
			t.Errorf("request %d: the SQL rule was injected for a Go file", i+1)
		}
	}
}

// codexText is the request's input, decoded.
func codexText(r *fo.Request) string {
	var b strings.Builder
	for _, it := range r.Body.Input {
		var s string
		if json.Unmarshal(it.Content, &s) != nil {
			s = string(it.Content)
		}
		b.WriteString(s + "\n" + string(it.Output) + "\n")
	}
	return unescapeJSON(b.String())
}

// unescapeJSON turns the JSON escapes of nested content back into text.
func unescapeJSON(s string) string {
	return strings.NewReplacer(`\n`, "\n", `\"`, `"`, `\u003e`, ">", `\u003c`, "<", `\u0026`, "&").Replace(s)
}

// TestOpenCodeNestedRules: OpenCode's read tool attaches the AGENTS.md of
// each directory above the file itself, so atreides adds them not a second
// time: each is there once; the Cursor rule for *.go, which OpenCode does
// not know, comes from atreides, once.
func TestOpenCodeNestedRules(t *testing.T) {
	t.Parallel()
	var p *ocProject
	p = newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		read := func(id, rel string) fakeopenaichat.Reply {
			args, _ := json.Marshal(map[string]string{"filePath": p.Path(rel)})
			return fakeopenaichat.Reply{Calls: []fakeopenaichat.Call{{ID: id, Name: "read", Arguments: string(args)}}}
		}
		switch countToolResults(r) {
		case 0:
			return read("call_x", "pkg/a/x.go")
		case 1:
			return read("call_y", "pkg/a/y.go")
		}
		return fakeopenaichat.Reply{Text: "Done."}
	})
	writeRulesProject(p.hostProject)
	p.runOC("Read the package.")

	mains := p.Fake.MainRequests()
	if len(mains) < 3 {
		t.Fatalf("%d main requests, want 3:\n%s", len(mains), p.Fake.Summary())
	}
	for i, r := range mains[1:3] {
		text := unescapeJSON(r.Body())
		for _, m := range []string{"PKG-RULE-MARK", "PKGA-RULE-MARK", "CURSOR-GO-MARK"} {
			if c := strings.Count(text, m); c != 1 {
				t.Errorf("request %d: %s appears %d times, want once", i+1, m, c)
			}
		}
		if strings.Contains(text, "pkg/a/AGENTS.md, added by atreides") {
			t.Errorf("request %d: atreides injected what OpenCode attaches itself", i+1)
		}
	}
}
