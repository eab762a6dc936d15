package qwen

import "github.com/atreides-dev/atreides/internal/event"

// headless is how a background task runs `qwen -p` as its agent (checked
// against 0.24.4's --help): plan is Qwen Code's "analyze only, do not
// modify files or execute commands" mode; yolo approves every tool, each
// judged by atreides's hooks.
var headless = event.Headless{
	ReadOnly: []string{"--approval-mode", "plan"},
	Full:     []string{"--approval-mode", "yolo"},
	Model:    []string{"--model", "{model}"},
	AutoApprove: []string{"--yolo", "-y", "--approval-mode yolo", "--approval-mode auto-edit",
		"--approval-mode auto"},
}
