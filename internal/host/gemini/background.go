package gemini

import "github.com/atreides-dev/atreides/internal/event"

// headless is how a background task runs `gemini -p` as its agent
// (checked against 0.61.0's --help): in the default approval mode a
// headless run has no one to approve a write or a command, so Gemini CLI
// leaves those tools out and the agent reads and searches only; yolo
// approves every tool, each judged by atreides's hooks.
var headless = event.Headless{
	ReadOnly:    []string{"--approval-mode", "default"},
	Full:        []string{"--approval-mode", "yolo"},
	SessionID:   []string{"--session-id", "{session}"},
	Model:       []string{"--model", "{model}"},
	AutoApprove: []string{"--yolo", "-y", "--approval-mode yolo", "--approval-mode auto_edit"},
}
