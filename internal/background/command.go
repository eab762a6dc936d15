package background

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/bgtasks"
)

// Command is the argv that runs the task on its host's CLI: the host's
// command (or resume) template with the host's flags for the task's tools
// ({mode}) and model ({model}). A task without full tools is refused when
// the argv would hold one of the host's auto-approve flags (a template
// written before {mode}, or a user's): a read-only agent never runs with
// its tools approved. note says what was left out (a model the CLI cannot
// be given).
func (o Options) Command(t *bgtasks.Task, prompt, dir, session string) (argv []string, note string, err error) {
	resume := t.Resume != ""
	tmpl := o.Commands[t.Host]
	if resume {
		tmpl = o.Resume[t.Host]
	}
	if len(tmpl) == 0 {
		return nil, "", fmt.Errorf("no headless command is configured for host %s", t.Host)
	}
	tools := cmpTools(t.Tools)
	h := o.Headless[t.Host]
	var mode, model []string
	switch {
	case h != nil:
		mode = h.ModeFlags(string(tools), resume)
		if t.Model != "" && len(h.Model) == 0 {
			note = fmt.Sprintf("%s's CLI takes no model flag: model %s not applied", t.Host, t.Model)
		} else if t.Model != "" {
			if !modelName(t.Model) {
				return nil, "", fmt.Errorf("model %q is not a model name: a model is one word that does not start with '-'", t.Model)
			}
			model = slices.Clone(h.Model)
			for i, a := range model {
				model[i] = strings.ReplaceAll(a, "{model}", t.Model)
			}
		}
	case tools != agents.Full:
		return nil, "", fmt.Errorf("atreides knows no read-only mode of %s's CLI, so a %s agent cannot run there as a background task", t.Host, tools)
	}
	if tools != agents.Full && h != nil {
		if f := autoApproved(Argv(tmpl, "{prompt}", dir, "{session}", mode, model), h.AutoApprove); f != "" {
			return nil, "", fmt.Errorf("refused: the %s agent is %s, but background.commands.%s approves its tools (%s); put \"{mode}\" in the command instead of permission flags", t.Agent, tools, t.Host, f)
		}
	}
	return Argv(tmpl, prompt, dir, session, mode, model), note, nil
}

// modelName reports whether m can be put after a CLI's model flag: one
// word of printable characters that cannot be read as a flag of its own
// ("--yolo" from a project's config would otherwise approve every tool).
func modelName(m string) bool {
	if m == "" || m[0] == '-' || len(m) > 200 {
		return false
	}
	for _, r := range m {
		if r <= ' ' || r == 0x7f {
			return false
		}
	}
	return true
}

// cmpTools is a task's tools; a task recorded before they were is run
// with full tools, as it was launched.
func cmpTools(s string) agents.Tools {
	if s == "" {
		return agents.Full
	}
	return agents.Tools(s)
}

// autoApproved is the first of flags in argv ("" when none): a flag is
// one word or two ("--permission-mode acceptEdits"), "--x=v" is read as
// "--x v".
func autoApproved(argv, flags []string) string {
	var words []string
	for _, a := range argv {
		if k, v, ok := strings.Cut(a, "="); ok && strings.HasPrefix(k, "-") {
			words = append(words, k, v)
			continue
		}
		words = append(words, a)
	}
	for _, f := range flags {
		want := strings.Fields(f)
		for i := 0; i+len(want) <= len(words); i++ {
			if slices.Equal(words[i:i+len(want)], want) {
				return f
			}
		}
	}
	return ""
}

// command is the argv template a new task will run, decided at launch
// where the host registry is known (the supervisor, 'atreides bg run',
// links no host): [Options.Command] with {prompt}, {dir} and {session}
// left for the supervisor, and a new session's id chosen now where the
// CLI takes one, recorded as the task's session so that a task stopped
// at its deadline before its CLI reported one can be resumed.
func (r *Registry) command(t *bgtasks.Task) ([]string, error) {
	argv, note, err := r.Opts.Command(t, "{prompt}", "{dir}", "{session}")
	if err != nil {
		return nil, err
	}
	if note != "" && r.Logf != nil {
		r.Logf("background task for %s: %s", t.Agent, note)
	}
	if h := r.Opts.Headless[t.Host]; h != nil && t.Resume == "" && len(h.SessionID) > 0 {
		if id := newUUID(); id != "" {
			for _, f := range h.SessionID {
				argv = append(argv, strings.ReplaceAll(f, "{session}", id))
			}
			t.Child = id
		}
	}
	return argv, nil
}

// argvFile is the task's decided command, in its directory, and
// fixupFile the one that resumes it to fix an invalid return object.
const (
	argvFile  = "argv.json"
	fixupFile = "argv-fixup.json"
)

func writeArgv(dir, file string, argv []string) error {
	b, err := json.Marshal(argv)
	if err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, file), b, 0o600)
}

// fixupCommand is the command that resumes the task's own session with a
// fix-up prompt, when returns are structured and the host's CLI can
// resume (nil otherwise: an invalid return is reported as it is).
func (r *Registry) fixupCommand(t *bgtasks.Task) []string {
	if !r.Opts.Structured || r.Opts.Resume[t.Host] == nil || t.Resume != "" {
		return nil
	}
	u := *t
	u.Resume = "self"
	argv, _, err := r.Opts.Command(&u, "{prompt}", "{dir}", "{session}")
	if err != nil {
		return nil
	}
	return argv
}

// taskArgv is the argv the supervisor runs: the one decided at launch
// with the prompt, the directory and the resumed session filled in; a
// task launched by an atreides from before has none, and runs the
// template as [Options.Command] makes it here.
func (o Options) taskArgv(t *bgtasks.Task, file, prompt, dir, session string) ([]string, string, error) {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil && file == argvFile {
		return o.Command(t, prompt, dir, session)
	}
	if err != nil {
		return nil, "", fmt.Errorf("the task's command (%s) is missing: %v", file, err)
	}
	var tmpl []string
	if err := json.Unmarshal(b, &tmpl); err != nil || len(tmpl) == 0 {
		return nil, "", fmt.Errorf("the task's command (%s) is unreadable: %v", argvFile, err)
	}
	return Argv(tmpl, prompt, dir, session, nil, nil), "", nil
}

// newUUID is a random (version 4) UUID, "" if the system has no
// randomness to give.
func newUUID() string {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return ""
	}
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:])
}
