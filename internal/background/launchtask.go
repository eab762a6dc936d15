package background

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
)

// Request is a task to launch.
type Request struct {
	Parent, ParentAgent, Host string
	Agent, Description        string
	Prompt                    string
	Skills                    []string
	// Resume is an earlier task whose CLI session this one continues.
	Resume string
	// Depth is the launcher's own nesting (0 for the lead agent).
	Depth int
}

// MaxPrompt bounds a prompt: it is passed to the CLI as one argument.
const MaxPrompt = 100 << 10

// promptHead is how much of the prompt the registry keeps; the whole
// one is in prompt.md.
const promptHead = 200

// Roster is the agents a task may run as until the roster's lookup is
// merged: the seeds' agents and the delegation categories.
var Roster = []string{"explore", "librarian", "build", "plan", "stilgar", "quick", "deep", "writing", "general"}

var nameRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[a-z][a-z0-9_-]{0,39}$`) })

// Add validates a request, queues its task and writes its prompt file
// (the agent's role, the skills' text, then the prompt). Call it inside
// [Registry.Update], which starts it when its key has room.
func (r *Registry) Add(p *state.Project, q Request, now time.Time) (*state.BgTask, error) {
	q.Agent = strings.ToLower(strings.TrimSpace(q.Agent))
	switch {
	case strings.TrimSpace(q.Prompt) == "":
		return nil, errors.New("the prompt is empty: say what the task must do")
	case len(q.Prompt) > MaxPrompt:
		return nil, fmt.Errorf("the prompt is %d bytes, more than %d: put the material in a file and name it in the prompt", len(q.Prompt), MaxPrompt)
	case !nameRE().MatchString(q.Agent) || !knownAgent(q.Agent):
		return nil, fmt.Errorf("unknown agent %q: use one of %s", q.Agent, strings.Join(Roster, ", "))
	case q.Host == "opencode":
	case r.Opts.Commands[q.Host] == nil:
		return nil, fmt.Errorf("no headless command is configured for host %q (background.commands)", q.Host)
	}
	if n := pendingCount(&p.Background); n >= state.MaxBackground {
		return nil, fmt.Errorf("the project already has %d pending background tasks, the most it keeps: wait for some (background_output wait) or cancel them", n)
	}
	if q.Depth >= r.Opts.MaxDepth {
		return nil, fmt.Errorf("background tasks nest at most %d deep (background.max_depth): this task is at depth %d; do the work here", r.Opts.MaxDepth, q.Depth)
	}
	skills, err := loadSkills(r.Root, q.Skills)
	if err != nil {
		return nil, err
	}
	runner := "process"
	if q.Host == "opencode" {
		runner = "opencode"
	}
	head := q.Prompt
	if len(head) > promptHead {
		head = head[:promptHead] + "…"
	}
	t := Add(&p.Background, state.BgTask{
		Parent: q.Parent, ParentAgent: q.ParentAgent, Host: q.Host, Runner: runner,
		Agent: q.Agent, Description: q.Description, Prompt: head, Skills: q.Skills,
		Key: r.Opts.KeyOf(q.Host, q.Agent), Depth: q.Depth + 1, Resume: q.Resume,
	}, now)
	dir := Dir(r.Root, t.ID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	full := fmt.Sprintf("You are the %s agent, running as atreides background task %s for another agent. Work in this project; when done, answer with your findings or what you changed, as the final message.\n\n%s%s", q.Agent, t.ID, skills, q.Prompt)
	if err := os.WriteFile(filepath.Join(dir, "prompt.md"), []byte(full), 0o600); err != nil {
		return nil, err
	}
	return t, nil
}

// pendingCount is the project's queued and running tasks: the registry
// never forgets those, so they alone bound what a new task may add.
func pendingCount(b *state.Background) int {
	n := 0
	for i := range b.Tasks {
		if Pending(&b.Tasks[i]) {
			n++
		}
	}
	return n
}

func knownAgent(name string) bool {
	for _, a := range Roster {
		if a == name {
			return true
		}
	}
	return false
}

// loadSkills reads the named skills (.atreides/skills/<name>/SKILL.md)
// into one block; it stands in for the roster's skill lookup.
func loadSkills(root string, names []string) (string, error) {
	var b strings.Builder
	for _, n := range names {
		if !nameRE().MatchString(n) {
			return "", fmt.Errorf("invalid skill name %q", n)
		}
		data, err := os.ReadFile(filepath.Join(root, ".atreides", "skills", n, "SKILL.md"))
		if err != nil {
			return "", fmt.Errorf("skill %q: %w (skills live in .atreides/skills/<name>/SKILL.md)", n, err)
		}
		fmt.Fprintf(&b, "<skill name=%q>\n%s\n</skill>\n\n", n, strings.TrimSpace(string(data)))
	}
	return b.String(), nil
}

// PromptOf is a task's whole prompt, as its runner sends it.
func PromptOf(root, id string) (string, error) {
	b, err := os.ReadFile(filepath.Join(Dir(root, id), "prompt.md"))
	return string(b), err
}

// QueuePosition is a queued task's place in its key's queue (1: next),
// 0 when it is not queued.
func QueuePosition(b *state.Background, id string) int {
	t := b.Task(id)
	if t == nil || t.Status != Queued {
		return 0
	}
	n := 0
	for i := range b.Tasks {
		u := &b.Tasks[i]
		if u.Status == Queued && u.Key == t.Key {
			n++
		}
		if u.ID == id {
			return n
		}
	}
	return 0
}
