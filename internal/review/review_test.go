package review

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/config/configtest"
	"github.com/atreides-dev/atreides/internal/state"
)

// TestMain lets the test binary be the tasks' supervisor (atreides bg
// run): Launch starts it again with the task id when superviseEnv is set.
func TestMain(m *testing.M) {
	if os.Getenv(superviseEnv) == "1" {
		root, _ := os.Getwd()
		o := background.LoadOptions(root)
		o.Exe = testExe()
		if err := background.Open(root, o).Supervise(context.Background(), os.Args[len(os.Args)-1]); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

const superviseEnv = "ATREIDES_TEST_SUPERVISE"

func testExe() []string {
	exe, _ := os.Executable()
	return []string{"env", superviseEnv + "=1", exe, "-test.run=^$", "--"}
}

// answers are what each stand-in reviewer prints: one finding both
// alpha and beta report (in their own words and lines), one of each.
var answers = map[string]string{
	"alpha": "I looked at the diff.\n```json\n" + `{"findings": [
 {"file": "store.go", "line": 10, "severity": "low", "title": "Unchecked error from Close", "detail": "Close can fail after a write."},
 {"file": "auth.go", "line": 3, "severity": "critical", "title": "Token compared with ==", "detail": "Use a constant-time compare."}
]}` + "\n```\n",
	"beta": `Findings follow. {"findings": [{"file": "./store.go", "line": "11-12", "severity": "medium", "title": "unchecked errors from close()"}, {"file": "cache.go", "line": 40, "severity": "high", "title": "Race on the hit counter"}]} Done.`,
	"mute": "Looks good to me.",
	// A plain-text answer whose last line is the findings object alone.
	"plain": "Reviewed.\n" + `{"findings": [{"file": "cache.go", "line": 41, "severity": "low", "title": "Data race on the hit counter"}]}` + "\n",
}

// reviewProject is a project whose hosts alpha, beta and mute print their
// answer, broken fails and slow outlives any test deadline.
func reviewProject(t *testing.T) (string, *background.Registry) {
	t.Helper()
	configtest.Home(t)
	root := t.TempDir()
	var cmds strings.Builder
	for host, a := range answers {
		// alpha answers as Claude Code's JSON does; the others in plain
		// text, which a CLI without JSON output prints.
		if host == "alpha" {
			b, _ := json.Marshal(map[string]any{"type": "result", "result": a, "session_id": "s-alpha"})
			a = string(b)
		}
		f := filepath.Join(root, host+".txt")
		if err := os.WriteFile(f, []byte(a), 0o600); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&cmds, "    %s: [cat, %q]\n", host, f)
	}
	// The stand-in hosts have no read-only mode atreides knows, so the
	// reviewers run as a full agent here (background.Command refuses a
	// read-only one); what runs them is not what these tests are about.
	cfg := "review:\n  agent: build\nbackground:\n  commands:\n" + cmds.String() + "    broken: [sh, -c, 'echo boom >&2; exit 3']\n    slow: [sleep, '60']\n"
	if err := os.MkdirAll(filepath.Join(root, ".atreides"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, ".atreides", "config.yaml"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	configtest.Trust(t, root)
	o := background.LoadOptions(root)
	o.Exe = testExe()
	return root, background.Open(root, o)
}

// TestReview runs a review on seven reviewers: two that agree on one
// finding, a third (answering in plain text) that agrees with one of
// theirs, one that answers without findings JSON, one whose CLI fails,
// one still running at the deadline and one host with no command. The
// report ranks the shared findings first and names every reviewer that
// did not answer, and why.
func TestReview(t *testing.T) {
	root, reg := reviewProject(t)
	o := LoadOptions(root)
	o.Timeout = 4 * time.Second
	ctx := context.Background()
	run, err := Start(ctx, reg, o, Request{Focus: "the store", Hosts: []string{"alpha", "beta", "mute", "broken", "slow", "nohost", "plain"}, Parent: "cli"})
	if err != nil {
		t.Fatal(err)
	}
	rep, done, err := Collect(ctx, reg, run, 30*time.Second, 50*time.Millisecond)
	if err != nil || !done {
		t.Fatalf("collect: done %v, %v", done, err)
	}
	if len(rep.Findings) != 3 {
		t.Fatalf("%d findings, want 3: %+v", len(rep.Findings), rep.Findings)
	}
	// Two findings have two reviewers each: the more severe first.
	if f := rep.Findings[0]; f.Title != "Race on the hit counter" || f.Agreement != 2 || f.Severity != "high" || strings.Join(f.Reviewers, ",") != "beta,plain" {
		t.Errorf("first finding: %+v", f)
	}
	first := rep.Findings[1]
	if first.File != "store.go" || first.Agreement != 2 || strings.Join(first.Reviewers, ",") != "alpha,beta" || first.Severity != "medium" || first.Line != 10 || first.EndLine != 12 {
		t.Errorf("second finding: %+v", first)
	}
	if rep.Findings[2].Title != "Token compared with ==" || rep.Findings[2].Agreement != 1 {
		t.Errorf("the single finding is not last though critical: %+v", rep.Findings[2])
	}
	want := map[string]string{"alpha": Answered, "beta": Answered, "plain": Answered, "mute": NoJSON, "broken": Failed, "slow": TimedOut, "nohost": Failed}
	for _, s := range rep.Reviewers {
		if s.Outcome != want[s.Host] {
			t.Errorf("%s: %s (%s), want %s", s.Host, s.Outcome, s.Error, want[s.Host])
		}
		if s.Outcome != Answered && s.Error == "" {
			t.Errorf("%s did not answer but the report says not why", s.Host)
		}
	}
	md, js := rep.Paths()
	text, err := os.ReadFile(filepath.Join(root, md))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"3 of 7 answered", "2. **[medium] Unchecked error from Close** — `store.go:10-12` — 2/3: alpha, beta", "| slow | bg-", "timed out: still running", "| nohost |"} {
		if !strings.Contains(string(text), w) {
			t.Errorf("report lacks %q:\n%s", w, text)
		}
	}
	// The report is what the caller reads: no notification repeats it.
	err = reg.View(ctx, func(p *state.Project) error {
		for _, s := range run.Slots {
			if t := bgtasks.Key.Of(p).Task(s.TaskID); t != nil && !t.Notified {
				return fmt.Errorf("%s (%s) is left to notify", s.TaskID, s.Host)
			}
		}
		return nil
	})
	if err != nil {
		t.Error(err)
	}
	var back Report
	if b, err := os.ReadFile(filepath.Join(root, js)); err != nil || json.Unmarshal(b, &back) != nil || len(back.Findings) != 3 {
		t.Errorf("JSON report: %v %+v", err, back)
	}
}

// TestCollectLater: a collect that runs out of wait before the reviewers
// end says so and writes nothing; a later one finishes the report.
func TestCollectLater(t *testing.T) {
	root, reg := reviewProject(t)
	o := LoadOptions(root)
	o.Timeout = 3 * time.Second
	ctx := context.Background()
	run, err := Start(ctx, reg, o, Request{Hosts: []string{"alpha", "slow"}, Parent: "cli"})
	if err != nil {
		t.Fatal(err)
	}
	rep, done, err := Collect(ctx, reg, run, 0, 50*time.Millisecond)
	if err != nil || done {
		t.Fatalf("first collect: done %v, %v", done, err)
	}
	md, _ := rep.Paths()
	if _, err := os.Stat(filepath.Join(root, md)); err == nil {
		t.Error("an unfinished review wrote its report")
	}
	again, err := Load(root, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	if rep, done, err = Collect(ctx, reg, again, 30*time.Second, 50*time.Millisecond); err != nil || !done || rep.Answered() != 1 {
		t.Fatalf("second collect: done %v, %v, %+v", done, err, rep)
	}
}

func TestResolveDefaultsToHostsOnPath(t *testing.T) {
	o := Options{Commands: map[string][]string{"a": {"here"}, "b": {"gone"}, "c": {"here"}}, LookPath: func(p string) (string, error) {
		if p == "here" {
			return "/bin/here", nil
		}
		return "", os.ErrNotExist
	}}
	if got := o.Resolve(nil); len(got) != 2 || got[0].Host != "a" || got[1].Host != "c" {
		t.Errorf("default reviewers %+v", got)
	}
	o.Reviewers = []Reviewer{{Host: "b", Model: "m1"}}
	if got := o.Resolve(nil); len(got) != 1 || got[0].Label() != "b/m1" {
		t.Errorf("configured reviewers %+v", got)
	}
	if got := o.Resolve([]string{"b", "c"}); len(got) != 2 || got[0].Label() != "b/m1" || got[1].Label() != "c" {
		t.Errorf("named reviewers %+v", got)
	}
}

func TestLoadRefusesPaths(t *testing.T) {
	for _, id := range []string{"../x", "review-../../a", "review-+1", "x"} {
		if _, err := Load(t.TempDir(), id); err == nil || !strings.Contains(err.Error(), "not a review id") {
			t.Errorf("Load(%q): %v", id, err)
		}
	}
}

// TestReportRefusesLinks: a reviews directory the repository committed as
// a link (here to a directory outside the project) is refused, never
// written through.
func TestReportRefusesLinks(t *testing.T) {
	root, reg := reviewProject(t)
	outside := t.TempDir()
	if err := os.Symlink(outside, filepath.Join(root, ".atreides", "reviews")); err != nil {
		t.Fatal(err)
	}
	o := LoadOptions(root)
	if _, err := Start(context.Background(), reg, o, Request{Hosts: []string{"nohost"}, Parent: "cli"}); err == nil {
		t.Error("a review started with .atreides/reviews a link")
	}
	if names, _ := os.ReadDir(outside); len(names) != 0 {
		t.Errorf("written through the link: %v", names)
	}
}

// TestFinalReportIsTheRecords: once a review is final, collecting it again
// gives the report kept in its record under .atreides, not the copy in the
// task's directory, which may be outside .atreides (tasks.dir) where the
// agent writes: a forged copy there changes nothing the user is shown.
func TestFinalReportIsTheRecords(t *testing.T) {
	root, reg := reviewProject(t)
	o := LoadOptions(root)
	ctx := context.Background()
	run, err := Start(ctx, reg, o, Request{Hosts: []string{"alpha"}, Dir: filepath.Join("specs", "1_x", "reviews"), Parent: "cli"})
	if err != nil {
		t.Fatal(err)
	}
	if _, done, err := Collect(ctx, reg, run, 30*time.Second, 50*time.Millisecond); err != nil || !done {
		t.Fatalf("collect: done %v, %v", done, err)
	}
	_, js := (&Report{ID: run.ID, Dir: run.Dir}).Paths()
	forged := `{"id":"` + run.ID + `","reviewers":[{"host":"alpha","outcome":"answered"}],"findings":[]}`
	if err := os.WriteFile(filepath.Join(root, js), []byte(forged), 0o600); err != nil {
		t.Fatal(err)
	}
	again, err := Load(root, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	rep, done, err := Collect(ctx, reg, again, 0, 50*time.Millisecond)
	if err != nil || !done || len(rep.Findings) != 2 {
		t.Fatalf("collect again: done %v, %v, findings %+v", done, err, rep)
	}
}

// TestLateReviewerThatFinished: a reviewer found running at the deadline
// that finished before the cancel reached it was not cancelled: its
// findings count and it is not reported as timed out.
func TestLateReviewerThatFinished(t *testing.T) {
	now := time.Unix(1000, 0)
	run := &Run{ID: "review-1", Started: now.Add(-time.Minute), Deadline: now, Slots: []Slot{{Reviewer: Reviewer{Host: "alpha"}, TaskID: "bg-1"}}}
	tasks := map[string]bgtasks.Task{"bg-1": {ID: "bg-1", Status: background.Completed, Result: `{"findings":[{"file":"a.go","line":1,"title":"x"}]}`}}
	rep := build(t.TempDir(), run, tasks, []string{"bg-1"}, now)
	if s := rep.Reviewers[0]; s.Outcome != Answered || s.Findings != 1 {
		t.Errorf("reviewer %+v, want answered with 1 finding", s)
	}
}
