package e2e

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
)

// reviewFinding is a finding as the review prompt asks for it.
func reviewFinding(file string, line int, severity, title string) map[string]any {
	return map[string]any{"file": file, "line": line, "severity": severity, "title": title, "detail": "seen by the fake model"}
}

// reviewAnswer is a reviewer's final answer: prose, then the findings
// JSON the review prompt asks for.
func reviewAnswer(t *testing.T, findings ...map[string]any) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"findings": findings})
	if err != nil {
		t.Fatal(err)
	}
	return "I reviewed the uncommitted changes.\n\n" + string(b)
}

// TestReviewMultiModel is the multi-model review end to end with two real
// hosts' CLIs: `atreides review run --host <claude>,<gemini> --task 1`
// starts the pinned Claude Code and Gemini CLI headless, each through
// atreides's own background supervisor, against fake model servers that
// answer the review with different findings (one both report, in their
// own words and lines, and one each). The merged report, written under
// the task's directory, ranks the finding both found first, though each
// of the others is more severe, and names both reviewers as answered.
func TestReviewMultiModel(t *testing.T) {
	requireAtreides(t)
	gemini := geminiCLI.require(t)
	shared := reviewFinding("store.go", 12, "medium", "File handle leaked when the write fails")
	p := NewProject(t, fa.Script{Steps: []fa.Step{fa.Text(reviewAnswer(t,
		shared, reviewFinding("auth.go", 3, "critical", "Token compared with a non-constant-time equality")))}})
	gfake := fg.Start(t, fg.Script{Steps: []fg.Step{fg.Text(reviewAnswer(t,
		reviewFinding("./store.go", 13, "low", "file handles leak when write fails"), reviewFinding("cache.go", 40, "high", "Data race on the hit counter")))}})
	p.WriteFile("store.go", "package store\n", 0o644)
	p.WriteFile("../home/.gemini/settings.json", `{"security":{"auth":{"selectedType":"gemini-api-key"}},"privacy":{"usageStatisticsEnabled":false},"telemetry":{"enabled":false}}`, 0o644)
	p.Atreides("task", "add", "harden the store")

	// The reviewers are hosts by name: their default headless commands
	// (background.commands) run the pinned CLIs found on PATH.
	const claude, gem = "claude", "gemini"
	cmd := boundedCommand(t, atreidesBin, "review", "run", "--host", claude+","+gem, "--task", "1", "--wait", "3m", "--json")
	cmd.Dir = p.Dir
	path := strings.Join([]string{filepath.Dir(atreidesBin), filepath.Dir(claudeBin), filepath.Dir(gemini), os.Getenv("PATH")}, string(os.PathListSeparator))
	cmd.Env = append(p.env(), "PATH="+path, "GOOGLE_GEMINI_BASE_URL="+gfake.URL, "GEMINI_API_KEY=fake-key", "GEMINI_CLI_TRUST_WORKSPACE=true")
	out, err := cmd.Output()
	t.Cleanup(func() {
		if t.Failed() {
			for _, id := range []string{"bg-1", "bg-2"} {
				for _, f := range []string{"supervisor.log", "stdout", "stderr"} {
					b, _ := os.ReadFile(p.Path(".atreides/background/" + id + "/" + f))
					t.Logf("%s %s:\n%s", id, f, tail(string(b), 2000))
				}
			}
		}
	})
	if err != nil {
		t.Fatalf("atreides review run: %v\n%s", err, out)
	}
	var rep struct {
		Done      bool
		Reviewers []struct{ Host, Outcome, Error string }
		Findings  []struct {
			File, Title, Severity string
			Line                  int
			EndLine               int `json:"end_line"`
			Reviewers             []string
			Agreement             int
		}
	}
	if err := json.Unmarshal(out, &rep); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if !rep.Done || len(rep.Reviewers) != 2 {
		t.Fatalf("report: %s", out)
	}
	for _, r := range rep.Reviewers {
		if r.Outcome != "answered" {
			t.Errorf("reviewer %s: %s (%s)", r.Host, r.Outcome, r.Error)
		}
	}
	if len(rep.Findings) != 3 {
		t.Fatalf("%d findings, want 3:\n%s", len(rep.Findings), out)
	}
	first := rep.Findings[0]
	if first.File != "store.go" || first.Agreement != 2 || strings.Join(first.Reviewers, ",") != claude+","+gem || first.Line != 12 || first.EndLine != 13 {
		t.Errorf("the finding both found is not first: %+v\n%s", first, out)
	}
	if rep.Findings[1].Severity != "critical" || rep.Findings[2].Severity != "high" {
		t.Errorf("the single findings are not ranked by severity: %+v", rep.Findings[1:])
	}
	// Each fake answered the review prompt itself, not some other request.
	if n := len(p.Fake.Main()); n == 0 || !p.Fake.Main()[0].Contains("atreides multi-model review") {
		t.Errorf("Claude Code never sent the review prompt (%d main requests)", n)
	}
	if main := gfake.RequestsOf(fg.KindMain); len(main) == 0 || !main[0].Contains("atreides multi-model review") {
		t.Errorf("Gemini CLI never sent the review prompt (%d main requests)", len(main))
	}
	md, err := os.ReadFile(p.Path(".atreides/specs/1_harden-the-store/reviews/review-1.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "1. **[medium] File handle leaked when the write fails** — `store.go:12-13` — 2/2: " + claude + ", " + gem; !strings.Contains(string(md), want) {
		t.Errorf("review-1.md lacks %q:\n%s", want, md)
	}
}

// TestReviewToolClaude is the review as an agent's tool: the real Claude
// Code calls review_models over atreides's MCP server, which starts a
// headless Claude Code reviewer through the background runner against the
// same fake model (which knows the reviewer by the review prompt); the
// tool's result, which the parent reads, carries the merged report, and
// the report names its reviewer as answered.
func TestReviewToolClaude(t *testing.T) {
	requireAtreides(t)
	p := NewProject(t, fa.Script{
		Steps: []fa.Step{
			fa.Call(fa.ToolUse{Name: "mcp__atreides__review_models", Input: map[string]any{"focus": "store.go", "hosts": []string{"claude"}, "wait": 120}}),
			fa.Text("The review is done."),
		},
		Agents: []fa.AgentScript{{
			Name:  "reviewer",
			Match: fa.FirstUserMatches(`atreides multi-model review`),
			Steps: []fa.Step{fa.Text(reviewAnswer(t, reviewFinding("store.go", 1, "high", "Package has no tests")))},
		}},
	})
	p.WriteFile("store.go", "package store\n", 0o644)
	p.InstallAtreides()
	path := strings.Join([]string{filepath.Dir(claudeBin), filepath.Dir(atreidesBin), os.Getenv("PATH")}, string(os.PathListSeparator))
	p.RunClaude("review store.go with several models", RunOpts{Env: []string{"PATH=" + path}})

	tr := p.toolResult(fa.ToolID("main", 0, 0))
	if tr.IsError || !strings.Contains(tr.Text, "1 of 1 answered") || !strings.Contains(tr.Text, "**[high] Package has no tests** — `store.go:1` — 1/1: claude") {
		t.Fatalf("review_models: error=%v %q", tr.IsError, tr.Text)
	}
	if len(p.Fake.RequestsOf(fa.KindAgent)) == 0 {
		t.Fatal("the headless reviewer never reached the fake model")
	}
	if !p.Exists(".atreides/reviews/review-1.md") || !p.Exists(".atreides/reviews/review-1.json") {
		t.Error("the report was not written under .atreides/reviews")
	}
}
