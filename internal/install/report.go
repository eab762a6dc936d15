package install

import (
	"fmt"
	"strings"
)

// Action is what an install or uninstall did to a settings file.
type Action string

// Actions, as printed in text and JSON output.
const (
	ActionInstalled   Action = "installed"     // our hooks were added to a file that had none
	ActionUpdated     Action = "updated"       // existing hooks of ours were changed, completed or pruned
	ActionUnchanged   Action = "unchanged"     // already installed exactly so; file not written
	ActionRemoved     Action = "removed"       // uninstall removed our hooks
	ActionNothingToDo Action = "nothing-to-do" // uninstall found none of our hooks; file not written
)

// Report describes one install or uninstall, for text (String) and --json
// (its JSON tags) output alike.
type Report struct {
	Host     string   `json:"host"`
	Path     string   `json:"path"`
	Action   Action   `json:"action"`
	Created  bool     `json:"created,omitempty"` // the settings file did not exist before
	Added    []string `json:"added,omitempty"`   // events that gained our handler
	Updated  []string `json:"updated,omitempty"` // events whose handler of ours changed
	Removed  []string `json:"removed,omitempty"` // events that lost our handler
	Backup   string   `json:"backup,omitempty"`  // copy of the previous content, if any
	Warnings []string `json:"warnings,omitempty"`
	// Notes are steps the user still has to take, or facts about the host,
	// for the hooks to run (Codex's hook trust, Gemini's trusted folders).
	Notes []string `json:"notes,omitempty"`
	// what names the change in text: "atreides hooks" when empty.
	what string
}

// String renders the report for humans, one fact per line.
func (r Report) String() string {
	var b strings.Builder
	what := r.what
	if what == "" {
		what = "atreides hooks"
	}
	switch r.Action {
	case ActionUnchanged:
		fmt.Fprintf(&b, "%s: %s already installed; nothing changed", r.Path, what)
	case ActionNothingToDo:
		fmt.Fprintf(&b, "%s: no %s found; nothing to do", r.Path, what)
	default:
		fmt.Fprintf(&b, "%s: %s %s", r.Path, r.Action, what)
		if r.Created {
			b.WriteString(" (new file)")
		}
	}
	list := func(label string, evs []string) {
		if len(evs) > 0 {
			fmt.Fprintf(&b, "\n  %s: %s", label, strings.Join(evs, ", "))
		}
	}
	list("added", r.Added)
	list("updated", r.Updated)
	list("removed", r.Removed)
	if r.Backup != "" {
		fmt.Fprintf(&b, "\n  backup of previous content: %s", r.Backup)
	}
	for _, w := range r.Warnings {
		fmt.Fprintf(&b, "\n  warning: %s", w)
	}
	for _, n := range r.Notes {
		fmt.Fprintf(&b, "\n  note: %s", n)
	}
	return b.String()
}

// Status is what doctor needs to know about one settings file.
type Status struct {
	Host   string `json:"host"`
	Path   string `json:"path"`
	Exists bool   `json:"exists"`
	// Parses is false when the file is not valid JSON or not of the
	// expected shape; Problem says why (with line:col for syntax errors).
	Parses  bool   `json:"parses"`
	Problem string `json:"problem,omitempty"`
	// Events have at least one handler of ours, in the order of the file.
	Events []string `json:"events,omitempty"`
	// Missing lists default events without our handler when some others
	// have one: a partial install. Empty when nothing is installed at all.
	Missing []string `json:"missing,omitempty"`
	// Duplicated lists events with more than one handler of ours; each
	// runs, so atreides would judge the same call twice.
	Duplicated []string `json:"duplicated,omitempty"`
	// Binaries are the distinct programs our handlers run.
	Binaries []Binary `json:"binaries,omitempty"`
	// Disabled says why the host will not run our hooks although they are
	// installed (Gemini's hooksConfig.disabled names them, or hooks are
	// switched off); empty when nothing in this file disables them.
	Disabled string `json:"disabled,omitempty"`
	// Notes are facts worth knowing that are not problems (a part of the
	// file the host skips, comments that keep atreides from editing it).
	Notes []string `json:"notes,omitempty"`
}

// Installed reports whether every default event has our handler.
func (s Status) Installed() bool {
	return s.Parses && len(s.Events) > 0 && len(s.Missing) == 0
}

// Binary is one program path found in our handlers' commands.
type Binary struct {
	Command    string   `json:"command"`            // the path as written (unquoted)
	Resolved   string   `json:"resolved,omitempty"` // absolute path checked
	Executable bool     `json:"executable"`         // exists, regular, executable
	Problem    string   `json:"problem,omitempty"`  // why not, when not
	Events     []string `json:"events"`
}
