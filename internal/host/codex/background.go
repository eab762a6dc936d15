package codex

import "github.com/atreides-dev/atreides/internal/event"

// headless is how a background task runs `codex exec` as its agent
// (checked against 0.171.0's --help): the read-only sandbox for an agent
// that reads, workspace-write for one that edits. `codex exec resume` has
// no --sandbox, so a resume sets the same through -c sandbox_mode.
var headless = event.Headless{
	ReadOnly:       []string{"--sandbox", "read-only"},
	Full:           []string{"--sandbox", "workspace-write"},
	ResumeReadOnly: []string{"-c", "sandbox_mode=read-only"},
	ResumeFull:     []string{"-c", "sandbox_mode=workspace-write"},
	Model:          []string{"--model", "{model}"},
	AutoApprove: []string{"--dangerously-bypass-approvals-and-sandbox", "--full-auto", "--approve-for-me",
		"-s workspace-write", "--sandbox workspace-write", "-s danger-full-access", "--sandbox danger-full-access",
		"-c sandbox_mode=workspace-write", "-c sandbox_mode=danger-full-access"},
}
