package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
	fo "github.com/atreides-dev/atreides/test/e2e/fakeopenai"
	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// bigGrepTarget writes a file of ~5 MB whose every line matches "match",
// and returns its content: what `grep -n match big.txt` prints, less the
// line numbers.
func bigGrepTarget(t *testing.T, write func(rel, content string)) string {
	t.Helper()
	var b strings.Builder
	for i := 0; b.Len() < 5<<20; i++ {
		fmt.Fprintf(&b, "match line %d with some padding to make the output large\n", i)
	}
	write("big.txt", b.String())
	return b.String()
}

// savedOutputRE finds the saved output's path in atreides's note.
var savedOutputRE = regexp.MustCompile(`The output before this cut is in (\S+\.txt):`)

// checkCutOutput checks what the model received of a 5 MB grep: its first
// whole lines, the note with the counts, and a saved file in the project's
// .atreides/outputs holding the whole output.
func checkCutOutput(t *testing.T, projectDir, got, whole string) {
	t.Helper()
	if len(got) > 20000 {
		t.Errorf("the model received %d bytes of the grep output, want it cut to the shell limit", len(got))
	}
	if !strings.HasPrefix(got, "1:match line 0 with") {
		t.Errorf("the output does not start with the grep's first line: %q", tail(got, 300))
	}
	if !strings.Contains(got, "[atreides: output cut to fit the context: the first ") || !strings.Contains(got, " lines (") {
		t.Errorf("no cut note with counts: %q", tail(got, 600))
	}
	m := savedOutputRE.FindStringSubmatch(got)
	if m == nil {
		t.Fatalf("no saved path in the note: %q", tail(got, 600))
	}
	if !strings.HasPrefix(m[1], filepath.Join(projectDir, ".atreides", "outputs")+string(filepath.Separator)) {
		t.Errorf("saved at %s, want under the project's .atreides/outputs", m[1])
	}
	saved, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	// The saved file is grep's whole output: every line, numbered.
	if n, want := strings.Count(string(saved), "\n"), strings.Count(whole, "\n"); n != want || !strings.HasSuffix(string(saved), fmt.Sprintf("%d:%s", want, whole[strings.LastIndex(whole[:len(whole)-1], "\n")+1:])) {
		t.Errorf("saved file has %d lines (%d bytes), want all %d of grep's", n, len(saved), want)
	}
	if fi, err := os.Stat(m[1]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("saved file mode: %v %v", fi.Mode(), err)
	}
}

// TestClaudeOutputCut: a ~5 MB grep through Bash reaches the model as its
// first lines with atreides's note, not as Claude Code's own 2 KB preview
// of its tool-results file, and the whole output is in .atreides/outputs.
func TestClaudeOutputCut(t *testing.T) {
	requireAtreides(t)
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(fa.Bash("grep -n match big.txt")),
		fa.Text("done"),
	}})
	whole := bigGrepTarget(t, func(rel, content string) { p.WriteFile(rel, content, 0o644) })
	p.InstallAtreides()
	p.RunClaude("search", RunOpts{})
	tr := p.toolResult(fa.ToolID("main", 0, 0))
	if tr.IsError {
		t.Fatalf("tool result is an error: %q", tail(tr.Text, 500))
	}
	if strings.Contains(tr.Text, "<persisted-output>") {
		t.Errorf("the model got Claude Code's own preview, not atreides's cut: %q", tail(tr.Text, 500))
	}
	checkCutOutput(t, p.Dir, tr.Text, whole)
	t.Logf("the model received %d bytes, ending: %s", len(tr.Text), tail(tr.Text, 400))
	if ig, err := os.ReadFile(p.Path(".atreides/.gitignore")); err != nil || !strings.Contains(string(ig), "\noutputs/\n") {
		t.Errorf(".atreides/.gitignore does not ignore outputs/: %v\n%s", err, ig)
	}
}

// TestOpenCodeOutputCut: the same 5 MB grep on OpenCode, which truncates
// the output itself and saves it to a file of its own; the plugin's
// tool.execute.after puts atreides's cut in its place, made from that
// file, so the saved copy is whole.
func TestOpenCodeOutputCut(t *testing.T) {
	t.Parallel()
	p := newOCProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		if countToolResults(r) == 0 {
			return fakeopenaichat.Bash("call_grep", "grep -n match big.txt")
		}
		return fakeopenaichat.Reply{Text: "Done."}
	})
	whole := bigGrepTarget(t, p.WriteFile)
	p.runOC("Search the big file.")
	got := p.toolResult("call_grep")
	t.Logf("the model received %d bytes, ending: %s", len(got), tail(got, 400))
	checkCutOutput(t, p.Dir, got, whole)
	if strings.Contains(got, "output truncated") {
		t.Errorf("OpenCode's own truncation note is still there: %q", tail(got, 400))
	}
}

// TestCodexOutputCut: Codex 0.169.0 sends PostToolUse the text it gives
// the model, already cut by Codex to about 10 KB (its head and tail, with
// "... N bytes omitted ..."), and keeps no whole copy, so with the default
// limits atreides has nothing to cut there. With a lower shell limit (as
// half the context room left would give), the block reason atreides
// answers with replaces what the model sees, and the saved file holds
// what Codex sent.
func TestCodexOutputCut(t *testing.T) {
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{
		fo.Exec("grep -n match big.txt"),
		fo.Text("Done."),
	}})
	bigGrepTarget(t, p.WriteFile)
	p.WriteFile(".atreides/config.yaml", "version: 1\ncontext:\n  output:\n    shell: 3000\n")
	p.writeCodexHooks()
	p.Run("search the big file")
	got := p.callOutput(0)
	t.Logf("the model received %d bytes: %s", len(got), got)
	if len(got) > 3000 || !strings.Contains(got, "[atreides: output cut to fit the context: the first ") {
		t.Fatalf("the model did not get atreides's cut")
	}
	m := savedOutputRE.FindStringSubmatch(got)
	if m == nil {
		t.Fatal("no saved path in the note")
	}
	saved, err := os.ReadFile(m[1])
	if err != nil {
		t.Fatal(err)
	}
	kept := got[:strings.Index(got, "[atreides: output cut")]
	if !strings.HasPrefix(string(saved), strings.TrimRight(kept, "\n")) || !strings.Contains(string(saved), "bytes omitted") || len(saved) > 20000 {
		t.Errorf("saved %d bytes, want Codex's own cut of the output, of which the model got the start", len(saved))
	}
}

// TestGeminiOutputNotReplaced: Gemini CLI 0.61.0 reads no replacement of
// a tool's output from an AfterTool hook, so atreides leaves it alone and
// saves nothing; Gemini cuts a large shell output itself (to at most
// 40,000 characters, or the context room left, saving it to a file of its
// own), which is what the model gets.
func TestGeminiOutputNotReplaced(t *testing.T) {
	p := newGeminiProject(t, fg.Script{Steps: []fg.Step{
		fg.Do(fg.Shell("grep -n match big.txt")),
		fg.Text("Done."),
	}})
	bigGrepTarget(t, p.WriteFile)
	p.writeGeminiHooks()
	p.Run("search the big file")
	frs := p.Fake.FunctionResponses()
	if len(frs) == 0 {
		t.Fatal("the model was sent no function response")
	}
	got := frs[0].Text()
	t.Logf("the model received %d bytes: %s … %s", len(got), got[:min(len(got), 400)], tail(got, 400))
	if len(got) > 60000 || strings.Contains(got, "[atreides: output cut") {
		t.Errorf("want Gemini's own cut, not atreides's, %d bytes", len(got))
	}
	if _, err := os.Stat(p.Path(".atreides/outputs")); err == nil {
		t.Error("atreides saved an output it could not replace")
	}
}

// TestClaudeMCPOutputCut: a 72,000-byte MCP result (under Claude Code's
// own MCP output limit) reaches the model cut by atreides, through
// updatedMCPToolOutput.
func TestClaudeMCPOutputCut(t *testing.T) {
	requireAtreides(t)
	server := filepath.Join(t.TempDir(), "mcpdump")
	if out, err := exec.Command("go", "build", "-o", server, "./testdata/mcpdump").CombinedOutput(); err != nil {
		t.Fatalf("build the MCP server: %v\n%s", err, out)
	}
	p := NewProject(t, fa.Script{Steps: []fa.Step{
		fa.Call(fa.ToolUse{Name: "mcp__dump__dump", Input: map[string]any{}}),
		fa.Text("done"),
	}})
	p.WriteFile("mcp.json", `{"mcpServers":{"dump":{"type":"stdio","command":"`+server+`"}}}`, 0o644)
	p.InstallAtreides()
	p.RunClaude("dump", RunOpts{Args: []string{"--mcp-config", p.Path("mcp.json")}})
	tr := p.toolResult(fa.ToolID("main", 0, 0))
	t.Logf("the model received %d bytes, ending: %s", len(tr.Text), tail(tr.Text, 400))
	if tr.IsError || !strings.HasPrefix(tr.Text, "record 00000 of the dump") || len(tr.Text) > 20000 || !strings.Contains(tr.Text, "[atreides: output cut to fit the context") {
		t.Fatalf("the MCP result was not cut by atreides")
	}
	m := savedOutputRE.FindStringSubmatch(tr.Text)
	if m == nil {
		t.Fatal("no saved path")
	}
	if saved, err := os.ReadFile(m[1]); err != nil || strings.Count(string(saved), "\n") != 1500 || !strings.HasSuffix(string(saved), "record 01499 of the dump with some padding text\n") {
		t.Errorf("saved file is not the whole result: %d bytes, %v", len(saved), err)
	}
}
