package agents

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/config"
)

// Tools is an agent's tool permission, in words every host can spell.
type Tools string

// Tool permissions.
const (
	ReadOnly  Tools = "read-only"  // read and search the project
	ReadWeb   Tools = "read-web"   // read-only, and fetch and search the web
	PlansOnly Tools = "plans-only" // read-only, and write plan files
	Full      Tools = "full"       // every tool the host has
)

// Writes reports whether the permission lets the agent write files.
func (t Tools) Writes() bool { return t == PlansOnly || t == Full }

// PlanFiles are the files a plans-only agent writes, as globs relative
// to the root: a task's plans and research reports under the default
// specs directory (package tasks); 'atreides plan new|research N' makes
// them and the agent fills them in.
var PlanFiles = []string{".atreides/specs/*/plans/*", ".atreides/specs/*/reports/*"}

// PlanCommands are the shell commands a plans-only agent may run, as
// globs: the plan commands that make and read plan files.
var PlanCommands = []string{"atreides plan *", "atreides task show *"}

// Mode is whether an agent leads a session or is delegated to.
type Mode string

// Modes.
const (
	Primary  Mode = "primary"
	Subagent Mode = "subagent"
)

// Agent is one agent of the roster.
type Agent struct {
	ID          string // the roster's id: "stilgar" (hosts know it by HostName)
	Name        string // for people and context: "Stilgar"
	Role        string // orchestrator, oracle, explore, librarian, build, plan or other
	Mode        Mode
	Description string
	Prompt      string
	Tools       Tools
	Model       map[string]string // by host name; absent: the host's default
	// Variant is the model variant of the first message of a main session
	// the agent leads (OpenCode; "" for none).
	Variant string
	Skills  []string
}

// ModelFor is the agent's model on the named host, "" for the host's own
// choice.
func (a Agent) ModelFor(host string) string { return a.Model[host] }

// Roster is the enabled agents, primary agents first, then by id.
type Roster []Agent

// ValidName reports whether every host accepts s as an agent's or a
// skill's name and a file name: Gemini CLI's rule is the narrowest
// (lowercase letters, digits, - and _), and a leading letter keeps it
// from being read as a flag or a hidden file.
func ValidName(s string) bool {
	if len(s) == 0 || len(s) > 64 || s[0] < 'a' || s[0] > 'z' {
		return false
	}
	for _, c := range []byte(s) {
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// FromConfig builds the roster from the agents section. An enabled agent
// without a description or a prompt, or with an id no host accepts, is an
// error naming every such agent; the rest of the roster is still returned,
// so a hook can go on with it and log the error.
func FromConfig(section map[string]config.Agent) (Roster, error) {
	var r Roster
	var errs []error
	for id, c := range section {
		if !c.Enabled {
			continue
		}
		a := Agent{
			ID: id, Name: cmp.Or(c.Name, id), Role: cmp.Or(string(c.Role), "other"),
			Mode: Mode(cmp.Or(string(c.Mode), string(Subagent))), Description: strings.TrimSpace(c.Description),
			Prompt: strings.TrimSpace(c.Prompt), Tools: Tools(cmp.Or(string(c.Tools), string(ReadOnly))),
			Model: c.Model, Variant: strings.TrimSpace(c.Variant), Skills: c.Skills,
		}
		var missing []string
		// The host sees the prefixed name, which must be valid too (at most
		// 64 bytes with the prefix).
		if !ValidName(id) || !ValidName(HostName(id)) {
			missing = append(missing, fmt.Sprintf("an id of lowercase letters, digits, - and _ starting with a letter, at most %d bytes", 64-len(NamePrefix)))
		}
		if a.Description == "" {
			missing = append(missing, "a description")
		}
		if a.Prompt == "" {
			missing = append(missing, "a prompt")
		}
		if len(missing) > 0 {
			errs = append(errs, fmt.Errorf("agents.%s needs %s (or enabled: false)", id, strings.Join(missing, " and ")))
			continue
		}
		r = append(r, a)
	}
	slices.SortFunc(r, func(a, b Agent) int {
		if (a.Mode == Primary) != (b.Mode == Primary) {
			if a.Mode == Primary {
				return -1
			}
			return 1
		}
		return strings.Compare(a.ID, b.ID)
	})
	slices.SortFunc(errs, func(a, b error) int { return strings.Compare(a.Error(), b.Error()) })
	return r, errors.Join(errs...)
}

// Get finds an agent by its roster id or by the name a host knows it by
// (HostName): names come back from hosts in events and tool calls, ids
// from the configuration. An exact id wins, so a project agent whose id
// carries the prefix is found as itself.
func (r Roster) Get(name string) (Agent, bool) {
	for _, id := range []string{name, IDOf(name)} {
		if i := slices.IndexFunc(r, func(a Agent) bool { return a.ID == id }); i >= 0 {
			return r[i], true
		}
	}
	return Agent{}, false
}

// Oracle is the agent repeated failures are escalated to: the first
// subagent of role oracle.
func (r Roster) Oracle() (Agent, bool) {
	for _, a := range r {
		if a.Role == "oracle" && a.Mode == Subagent {
			return a, true
		}
	}
	return Agent{}, false
}

// Subagents are the agents a lead agent delegates to.
func (r Roster) Subagents() Roster {
	var out Roster
	for _, a := range r {
		if a.Mode == Subagent {
			out = append(out, a)
		}
	}
	return out
}

// Prompt is the agent's prompt with its skills appended, for hosts that
// have no event to inject skills on when the agent runs: the skills are
// then part of the agent as installed.
func Prompt(a Agent, skills []Skill) string {
	if len(skills) == 0 {
		return a.Prompt
	}
	var b strings.Builder
	b.WriteString(a.Prompt)
	for _, s := range skills {
		b.WriteString("\n\n")
		b.WriteString(s.Context())
	}
	return b.String()
}
