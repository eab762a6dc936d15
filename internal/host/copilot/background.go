package copilot

import "github.com/atreides-dev/atreides/internal/event"

// headless is how a background task runs `copilot -p` as its agent
// (checked against 1.0.102's --help): without --allow-all-tools a prompt
// run refuses every tool that needs permission (it has no one to ask), so
// a read-only agent reads files only; writes and the shell are denied by
// name as well, which no allow overrides.
var headless = event.Headless{
	ReadOnly:    []string{"--deny-tool=write", "--deny-tool=shell"},
	Full:        []string{"--allow-all-tools"},
	Model:       []string{"--model", "{model}"},
	AutoApprove: []string{"--allow-all-tools", "--allow-all", "--yolo", "--allow-tool write", "--allow-tool shell"},
}
