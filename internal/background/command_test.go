package background

import (
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/event"
)

// TestCommandRefusesAutoApproveForReadOnly: a template written before
// {mode} (the old default, or a user's) that approves every tool cannot
// run a read-only agent; a full agent runs it as written; a host with no
// known read-only mode runs no read-only agent.
func TestCommandRefusesAutoApproveForReadOnly(t *testing.T) {
	h := &event.Headless{ReadOnly: []string{"--permission-mode", "plan"}, Full: []string{"--permission-mode", "acceptEdits"},
		Model: []string{"--model", "{model}"}, AutoApprove: []string{"--permission-mode acceptEdits", "--dangerously-skip-permissions"}}
	o := Options{Commands: map[string][]string{
		"claude": {"claude", "-p", "{prompt}", "--permission-mode=acceptEdits"},
		"plain":  {"cli", "{mode}", "{prompt}"},
	}, Headless: map[string]*event.Headless{"claude": h}}
	_, _, err := o.Command(&bgtasks.Task{Host: "claude", Agent: "explore", Tools: "read-only"}, "p", "d", "")
	if err == nil || !strings.Contains(err.Error(), "approves its tools (--permission-mode acceptEdits)") {
		t.Errorf("read-only under acceptEdits: %v", err)
	}
	argv, _, err := o.Command(&bgtasks.Task{Host: "claude", Agent: "build", Tools: "full", Model: "m1"}, "p", "d", "")
	if err != nil || strings.Join(argv, " ") != "claude -p p --permission-mode=acceptEdits" {
		t.Errorf("full: %q %v", argv, err)
	}
	if _, _, err := o.Command(&bgtasks.Task{Host: "plain", Agent: "explore", Tools: "read-only"}, "p", "d", ""); err == nil {
		t.Error("a host without a known read-only mode ran a read-only agent")
	}
	o.Commands["claude"] = []string{"claude", "-p", "{prompt}", "{mode}", "{model}"}
	argv, _, err = o.Command(&bgtasks.Task{Host: "claude", Agent: "explore", Tools: "read-web", Model: "m2"}, "a prompt --dangerously-skip-permissions", "d", "")
	if err != nil || strings.Join(argv, "|") != "claude|-p|a prompt --dangerously-skip-permissions|--permission-mode|plan|--model|m2" {
		t.Errorf("read-web (as read-only), a prompt naming a flag: %q %v", argv, err)
	}
}

// TestCommandRefusesAModelThatIsAFlag: a model from a project's config or
// a category is put after the CLI's model flag; one that reads as a flag
// of its own ("--yolo", "x --dangerously-skip-permissions") never reaches
// the command line.
func TestCommandRefusesAModelThatIsAFlag(t *testing.T) {
	h := &event.Headless{ReadOnly: []string{"--approval-mode", "default"}, Model: []string{"-m", "{model}"}}
	o := Options{Commands: map[string][]string{"gemini": {"gemini", "-p", "{prompt}", "{mode}", "{model}"}},
		Headless: map[string]*event.Headless{"gemini": h}}
	for _, m := range []string{"--yolo", "-y", "x --yolo", "x\n--yolo", ""} {
		argv, _, err := o.Command(&bgtasks.Task{Host: "gemini", Agent: "explore", Tools: "read-only", Model: m}, "p", "d", "")
		if m == "" {
			if err != nil || strings.Join(argv, " ") != "gemini -p p --approval-mode default" {
				t.Errorf("no model: %q %v", argv, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "is not a model name") {
			t.Errorf("model %q: %q %v", m, argv, err)
		}
	}
	argv, _, err := o.Command(&bgtasks.Task{Host: "gemini", Agent: "explore", Tools: "read-only", Model: "gemini-2.5-pro"}, "p", "d", "")
	if err != nil || strings.Join(argv, " ") != "gemini -p p --approval-mode default -m gemini-2.5-pro" {
		t.Errorf("a model: %q %v", argv, err)
	}
}
