package install

import (
	"encoding/json"
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
	Created  bool     `json:"created"` // the settings file did not exist before
	Added    []string `json:"added"`   // events that gained our handler
	Updated  []string `json:"updated"` // events whose handler of ours changed
	Removed  []string `json:"removed"` // events that lost our handler
	Backup   string   `json:"backup"`  // copy of the previous content, if any
	Warnings []string `json:"warnings"`
	// Notes are steps the user still has to take, or facts about the host,
	// for the hooks to run (Codex's hook trust, Gemini's trusted folders).
	Notes []string `json:"notes"`
	// what names the change in text: "atreides hooks" when empty.
	what string
}

// MarshalJSON writes every key, lists as [] when empty: the same shape
// whatever happened (docs/json.md).
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report
	p := plain(r)
	emptyNil(&p.Added, &p.Updated, &p.Removed, &p.Warnings, &p.Notes)
	return json.Marshal(p)
}

// emptyNil makes each nil list empty, which JSON writes as [] rather than
// null.
func emptyNil[T any](lists ...*[]T) {
	for _, l := range lists {
		if *l == nil {
			*l = []T{}
		}
	}
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
	Problem string `json:"problem"`
	// Events have at least one handler of ours, in the order of the file.
	Events []string `json:"events"`
	// Missing lists default events without our handler when some others
	// have one: a partial install. Empty when nothing is installed at all.
	Missing []string `json:"missing"`
	// Duplicated lists events with more than one handler of ours; each
	// runs, so atreides would judge the same call twice.
	Duplicated []string `json:"duplicated"`
	// Binaries are the distinct programs our handlers run.
	Binaries []Binary `json:"binaries"`
	// Disabled says why the host will not run our hooks although they are
	// installed (Gemini's hooksConfig.disabled names them, or hooks are
	// switched off); empty when nothing in this file disables them.
	Disabled string `json:"disabled"`
	// Notes are facts worth knowing that are not problems (a part of the
	// file the host skips, comments that keep atreides from editing it).
	Notes []string `json:"notes"`
}

// MarshalJSON writes every key, lists as [] when empty.
func (s Status) MarshalJSON() ([]byte, error) {
	type plain Status
	p := plain(s)
	emptyNil(&p.Events, &p.Missing, &p.Duplicated, &p.Notes)
	emptyNil(&p.Binaries)
	return json.Marshal(p)
}

// MarshalJSON writes every key, lists as [] when empty.
func (b Binary) MarshalJSON() ([]byte, error) {
	type plain Binary
	p := plain(b)
	emptyNil(&p.Events)
	return json.Marshal(p)
}

// Installed reports whether every default event has our handler.
func (s Status) Installed() bool {
	return s.Parses && len(s.Events) > 0 && len(s.Missing) == 0
}

// Binary is one program path found in our handlers' commands.
type Binary struct {
	Command    string   `json:"command"`    // the path as written (unquoted)
	Resolved   string   `json:"resolved"`   // absolute path checked
	Executable bool     `json:"executable"` // exists, regular, executable
	Problem    string   `json:"problem"`    // why not, when not
	Events     []string `json:"events"`
}
