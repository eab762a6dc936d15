package cline

import "github.com/atreides-dev/atreides/internal/event"

// headless is how a background task runs `cline` as its agent (checked
// against 3.0.65's --help): plan mode is Cline's mode that reads and
// answers without editing files; a prompt run is in act mode with
// auto-approve on by default, which a full agent keeps (its commands and
// edits judged by atreides's hooks).
var headless = event.Headless{
	ReadOnly:    []string{"--plan"},
	Full:        []string{},
	Model:       []string{"--model", "{model}"},
	AutoApprove: []string{"--auto-approve true"},
}
