package claude

import "github.com/atreides-dev/atreides/internal/event"

// headless is how a background task runs `claude -p` as its agent
// (checked against 2.1.332's --help): plan mode is Claude Code's own
// read-only mode (it reads and searches, edits and commands are refused
// with no one to ask); acceptEdits lets a full agent edit, its commands
// judged by atreides's hooks.
var headless = event.Headless{
	ReadOnly: []string{"--permission-mode", "plan"},
	// Plan mode with the web tools allowed: librarian's fetches.
	ReadWeb:   []string{"--permission-mode", "plan", "--allowed-tools=WebFetch,WebSearch"},
	Full:      []string{"--permission-mode", "acceptEdits"},
	SessionID: []string{"--session-id", "{session}"},
	Model:     []string{"--model", "{model}"},
	AutoApprove: []string{"--dangerously-skip-permissions", "--allow-dangerously-skip-permissions",
		"--permission-mode acceptEdits", "--permission-mode bypassPermissions", "--permission-mode auto"},
}
