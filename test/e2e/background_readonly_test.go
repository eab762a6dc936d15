package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/background"
	fg "github.com/atreides-dev/atreides/test/e2e/fakegemini"
	fo "github.com/atreides-dev/atreides/test/e2e/fakeopenai"
)

// TestBackgroundReadOnlyHeadless: a read-only explore task on Gemini CLI
// and Codex runs in the CLI's own read-only mode (Gemini's default
// approval mode, headless, which leaves out the tools that need an
// approval; Codex's read-only sandbox), never with --yolo or
// workspace-write as on main: the child's shell command that writes a
// file does not write it, and the task completes with its answer.
func TestBackgroundReadOnlyHeadless(t *testing.T) {
	const answer = "READONLY-ANSWER-8b1"
	const write = "echo x > written.txt"
	for _, c := range []struct {
		host  string
		setup func(t *testing.T) (dir, home, bin string, env []string)
	}{
		{"gemini", func(t *testing.T) (string, string, string, []string) {
			p := newGeminiProject(t, fg.Script{Steps: []fg.Step{fg.Do(fg.Shell(write)), fg.Text(answer), fg.Do(fg.Shell(write)), fg.Text(answer)}})
			return p.Dir, p.Home, p.bin, []string{"GOOGLE_GEMINI_BASE_URL=" + p.Fake.URL, "GEMINI_API_KEY=fake-key", "GEMINI_CLI_TRUST_WORKSPACE=true"}
		}},
		{"codex", func(t *testing.T) (string, string, string, []string) {
			p := newCodexProject(t, fo.Script{Steps: []fo.Step{fo.Exec(write), fo.Text(answer), fo.Exec(write), fo.Text(answer)}})
			return p.Dir, p.Home, p.bin, []string{"FAKE_OPENAI_KEY=sk-fake"}
		}},
	} {
		t.Run(c.host, func(t *testing.T) {
			dir, home, bin, env := c.setup(t)
			atreides := atreidesFor(t)
			t.Setenv("HOME", home)
			t.Setenv("PATH", strings.Join([]string{filepath.Dir(bin), filepath.Dir(atreides), os.Getenv("PATH")}, string(os.PathListSeparator)))
			for _, kv := range env {
				k, v, _ := strings.Cut(kv, "=")
				t.Setenv(k, v)
			}
			task := runBackgroundTask(t, dir, atreides, c.host)
			out := background.Dir(dir, task.ID)
			argv, _ := os.ReadFile(filepath.Join(out, "argv.json"))
			stderr, _ := os.ReadFile(filepath.Join(out, "stderr"))
			if task.Status != background.Completed || !strings.Contains(task.Result, answer) {
				t.Fatalf("%s: %s %q %q\nargv %s\nstderr:\n%s", task.ID, task.Status, task.Result, task.Error, argv, tail(string(stderr), 3000))
			}
			if strings.Contains(string(argv), "yolo") || strings.Contains(string(argv), "workspace-write") {
				t.Errorf("the read-only task's argv: %s", argv)
			}
			if _, err := os.Stat(filepath.Join(dir, "written.txt")); err == nil {
				t.Errorf("the read-only task wrote a file through the shell\nargv %s\nstderr:\n%s", argv, tail(string(stderr), 2000))
			}
			// The control: the same script as the build agent (full tools)
			// writes the file, so the read-only run's refusal is its mode's.
			full := runTask(t, dir, atreides, background.Request{Parent: "parent-1", Host: c.host, Agent: "build", Description: "control", Prompt: "Give the answer."})
			if _, err := os.Stat(filepath.Join(dir, "written.txt")); err != nil {
				fargv, _ := os.ReadFile(filepath.Join(background.Dir(dir, full.ID), "argv.json"))
				t.Errorf("the full task did not write the file either (%s %q): the read-only check proves nothing\nargv %s", full.Status, full.Error, fargv)
			}
		})
	}
}
