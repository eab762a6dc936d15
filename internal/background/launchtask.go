package background

import (
	"errors"
	"fmt"
	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/delegation"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/state"
)

// Request is a task to launch.
type Request struct {
	Parent, ParentAgent, Host string
	// Facts are the host's (nil for a host atreides does not know).
	Facts              *event.HostFacts
	Agent, Description string
	Prompt             string
	Skills             []string
	// Resume is an earlier task whose CLI session this one continues.
	Resume string
	// Path is the chain of background agents the launcher runs under
	// (empty for a session's own agents), from its environment.
	Path []string
	// ParentModel is the launching agent's model on Host ("" unknown),
	// and Operation the operation the launch names ("": the agent's).
	ParentModel, Operation string
	// Model is a model the launcher chose for this task itself (a
	// multi-model review's reviewer), ahead of every other ("": none).
	Model string
	// Plain: the launcher reads the answer in a form of its own (a
	// review's findings), so the task is not asked for the return object.
	Plain bool
}

// MaxPrompt bounds a prompt: it is passed to the CLI as one argument.
const MaxPrompt = 100 << 10

// promptHead is how much of the prompt the registry keeps; the whole
// one is in prompt.md.
const promptHead = 200

// Add validates a request, queues its task and writes its prompt file
// (the agent's role, the skills' text, then the prompt). Call it inside
// [Registry.Update], which starts it when its key has room.
func (r *Registry) Add(p *state.Project, q Request, now time.Time) (*bgtasks.Task, error) {
	// The model knows the roster's agents by the names the host shows
	// (atreides-explore); the task records the roster's id, as a name
	// from before the prefix would be.
	ch, chErr := r.Opts.Choose(q.Host, q.Agent, q.ParentModel, q.Operation)
	q.Agent = ch.Agent
	if q.Model != "" {
		ch.Model, ch.ModelFrom = q.Model, "request"
	}
	// Atreides's plugin inside the host runs the task: no headless
	// command is needed.
	plugin := q.Facts != nil && q.Facts.PluginRunsTasks
	switch {
	case strings.TrimSpace(q.Prompt) == "":
		return nil, errors.New("the prompt is empty: say what the task must do")
	case len(q.Prompt) > MaxPrompt:
		return nil, fmt.Errorf("the prompt is %d bytes, more than %d: put the material in a file and name it in the prompt", len(q.Prompt), MaxPrompt)
	case chErr != nil:
		return nil, chErr
	case plugin:
	case r.Opts.Commands[q.Host] == nil:
		return nil, fmt.Errorf("no headless command is configured for host %q (background.commands)", q.Host)
	}
	if n := pendingCount(bgtasks.Key.Of(p)); n >= bgtasks.Max {
		return nil, fmt.Errorf("the project already has %d pending background tasks, the most it keeps: wait for some (background_output wait) or cancel them", n)
	}
	// A background task is a delegation like any other: the same depth
	// and cycle limits, over the chain of background agents.
	if v, reason := delegation.Check(append([]string{delegation.MainAgent}, q.Path...), q.Agent, &r.Opts.Delegation); v != delegation.Allowed {
		return nil, errors.New(reason)
	}
	role, skills, err := r.brief(q.Agent, q.Skills)
	if err != nil {
		return nil, err
	}
	runner := "process"
	if plugin {
		runner = RunnerOpenCode
	}
	task := bgtasks.Task{
		Parent: q.Parent, ParentAgent: q.ParentAgent, Host: q.Host, Runner: runner,
		Agent: q.Agent, Description: q.Description, Skills: q.Skills,
		Key: r.Opts.KeyOf(q.Facts, q.Host, q.Agent), Path: append(slices.Clone(q.Path), q.Agent), Resume: q.Resume,
		Tools: string(ch.Tools), Model: ch.Model, Operation: ch.Operation,
	}
	var argv, fixup []string
	if !plugin {
		if argv, err = r.command(&task); err != nil {
			return nil, err
		}
		if !q.Plain {
			fixup = r.fixupCommand(&task)
		}
	}
	head := q.Prompt
	if len(head) > promptHead {
		head = head[:promptHead] + "…"
	}
	task.Prompt = head
	t := Add(bgtasks.Key.Of(p), task, now)
	dir := Dir(r.Root, t.ID)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	full := fmt.Sprintf("You are the %s agent, running as atreides background task %s for another agent. Work in this project; when done, answer with your findings or what you changed, as the final message.\n\n%s%s%s", q.Agent, t.ID, role, skills, q.Prompt)
	if r.Opts.Structured && q.Resume == "" && !q.Plain {
		full += "\n\n" + delegation.ReturnInstructions(t.ID)
	}
	if err := os.WriteFile(filepath.Join(dir, "prompt.md"), []byte(full), 0o600); err != nil {
		return nil, err
	}
	if argv != nil {
		if err := writeArgv(dir, argvFile, argv); err != nil {
			return nil, err
		}
	}
	if fixup != nil {
		if err := writeArgv(dir, fixupFile, fixup); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// pendingCount is the project's queued and running tasks: the registry
// never forgets those, so they alone bound what a new task may add.
func pendingCount(b *bgtasks.Background) int {
	n := 0
	for i := range b.Tasks {
		if Pending(&b.Tasks[i]) {
			n++
		}
	}
	return n
}

// brief is what a task's prompt starts with: its roster agent's own
// prompt, then its skills (the agent's configured ones and those the
// launch names), each read once.
func (r *Registry) brief(agent string, named []string) (role, skills string, err error) {
	a, ok := r.Opts.Roster.Get(agent)
	names := named
	if ok {
		role = strings.TrimSpace(a.Prompt) + "\n\n"
		names = append(slices.Clone(a.Skills), named...)
	}
	slices.Sort(names)
	loaded, err := agents.LoadSkills(r.Root, slices.Compact(names), r.Opts.SkillDirs...)
	if err != nil {
		return "", "", err
	}
	var b strings.Builder
	for _, sk := range loaded {
		fmt.Fprintf(&b, "<skill name=%q>\n%s\n</skill>\n\n", sk.Name, sk.Body)
	}
	return role, b.String(), nil
}

// PromptOf is a task's whole prompt, as its runner sends it.
func PromptOf(root, id string) (string, error) {
	b, err := os.ReadFile(filepath.Join(Dir(root, id), "prompt.md"))
	return string(b), err
}

// QueuePosition is a queued task's place in its key's queue (1: next),
// 0 when it is not queued.
func QueuePosition(b *bgtasks.Background, id string) int {
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
