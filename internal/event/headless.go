package event

import "context"

// Headless is how atreides runs a host's headless CLI as a background
// task's agent: the flags of each tool permission and of a model, so a
// task runs as its agent (a read-only explore task in the CLI's read-only
// mode, never with an auto-approve flag). Each host's package describes
// its own (internal/host/NAME/background.go); the argv templates of
// background.commands place them with {mode} and {model}.
type Headless struct {
	// ReadOnly and Full are the flags of an agent that only reads and of
	// one with every tool (agents.Tools read-only and full). ReadWeb and
	// PlansOnly are those of read-web and plans-only; nil runs them as
	// ReadOnly, the narrower mode (a plans-only agent's plan files are
	// then its answer).
	ReadOnly, ReadWeb, PlansOnly, Full []string
	// ResumeReadOnly and ResumeFull replace ReadOnly and Full on a resume
	// when the CLI's resume takes other flags (Codex's exec resume has no
	// --sandbox); nil: the same.
	ResumeReadOnly, ResumeFull []string
	// SessionID is the flags that give a new session its id, "{session}"
	// standing for it: a task killed at its deadline, before the CLI
	// reported its session, can still be resumed. Empty: the CLI chooses.
	SessionID []string
	// Model is the flags that choose a model, "{model}" standing for it;
	// empty: the CLI cannot be given one.
	Model []string
	// Guarded, when set, checks before a task starts that the CLI (cli,
	// as background.commands names it) will run atreides's hooks for the
	// project at root: an error refuses the task, saying why and how to
	// fix it (Codex's exec skips untrusted hooks without a word). Not in
	// an event's JSON (the outbox's): a function has none.
	Guarded func(ctx context.Context, cli, root string) error `json:"-"`
	// AutoApprove are the flags (or their prefixes ending in "=") that
	// approve the agent's tools without asking: a task not given full
	// tools whose argv holds one is refused, whatever the template says.
	AutoApprove []string
}

// ModeFlags are the flags of a tool permission ("read-only", "read-web",
// "plans-only", "full"); resume picks the resume forms.
func (h *Headless) ModeFlags(tools string, resume bool) []string {
	ro, full := h.ReadOnly, h.Full
	if resume && h.ResumeReadOnly != nil {
		ro = h.ResumeReadOnly
	}
	if resume && h.ResumeFull != nil {
		full = h.ResumeFull
	}
	switch tools {
	case "full":
		return full
	case "read-web":
		if h.ReadWeb != nil && !resume {
			return h.ReadWeb
		}
	case "plans-only":
		if h.PlansOnly != nil && !resume {
			return h.PlansOnly
		}
	}
	return ro
}
