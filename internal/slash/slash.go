package slash

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

//go:embed text/*.md
var texts embed.FS

// NamePrefix is what every command atreides installs is called by on a
// host: "at-" and the command's name ("/at-plan"). Hosts have built-in
// commands of the plain names (Claude Code's /plan, Gemini CLI's /plan,
// OpenCode's /review...), and a host that finds two commands of one name
// keeps one of them. A flat prefix, not a host's own namespace, because
// it is the one form every host spells alike: Claude Code 2.1.332 shows a
// command of the subfolder atreides/ as /atreides:plan (seen in its init
// message), as Gemini CLI does, but OpenCode and Kilo name it by its path
// (/atreides/plan) and Cline's workflows are named by their file; and
// typing /at lists atreides's commands together in every host's menu.
// Short, because people type it.
const NamePrefix = "at-"

// HostName is the name a host knows the command of a name by, without
// the slash; a name that already carries the prefix is kept.
func HostName(name string) string {
	if strings.HasPrefix(name, NamePrefix) {
		return name
	}
	return NamePrefix + name
}

// Command is one slash command.
type Command struct {
	Name        string // atreides's name, without the slash: "plan" (see HostName)
	Description string // one line, for the host's command list
	// ArgumentHint shows what the command takes ("<task number>"), where
	// the host shows one.
	ArgumentHint string
	text         string
}

// HostName is what the user types after the slash: "at-plan".
func (c Command) HostName() string { return HostName(c.Name) }

// Args is how the texts name the user's arguments; Claude Code and
// OpenCode spell them the same.
const Args = "$ARGUMENTS"

// All is every command, by name. Each text is a
// front matter of description and argument-hint, then the prompt.
func All() ([]Command, error) {
	entries, err := texts.ReadDir("text")
	if err != nil {
		return nil, err
	}
	var out []Command
	for _, e := range entries {
		data, err := texts.ReadFile(path.Join("text", e.Name()))
		if err != nil {
			return nil, err
		}
		c, err := parse(strings.TrimSuffix(e.Name(), ".md"), string(data))
		if err != nil {
			return nil, err
		}
		out = append(out, c)
	}
	return out, nil
}

// parse reads one command's text: a front matter of "key: value" lines
// (description, argument-hint), then the prompt.
func parse(name, data string) (Command, error) {
	c := Command{Name: name}
	rest, ok := strings.CutPrefix(data, "---\n")
	if !ok {
		return c, fmt.Errorf("command %s: no front matter", name)
	}
	head, body, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return c, fmt.Errorf("command %s: front matter not closed", name)
	}
	for line := range strings.SplitSeq(head, "\n") {
		k, v, _ := strings.Cut(line, ":")
		v = strings.TrimSpace(v)
		switch strings.TrimSpace(k) {
		case "description":
			c.Description = v
		case "argument-hint":
			c.ArgumentHint = v
		default:
			return c, fmt.Errorf("command %s: unknown front matter line %q", name, line)
		}
	}
	if c.Description == "" {
		return c, fmt.Errorf("command %s: no description", name)
	}
	c.text = strings.TrimSpace(body) + "\n"
	return c, nil
}

// Body is the command's prompt for one host: args is how the host names
// the user's arguments, tool what it calls one of atreides's tools (nil:
// the bare name).
func (c Command) Body(args string, tool func(string) string) string {
	out := strings.ReplaceAll(c.text, Args, args)
	for {
		i := strings.Index(out, "{{tool:")
		if i < 0 {
			return out
		}
		j := strings.Index(out[i:], "}}")
		if j < 0 {
			return out
		}
		name := out[i+len("{{tool:") : i+j]
		if tool != nil {
			name = tool(name)
		}
		out = out[:i] + name + out[i+j+2:]
	}
}

// ProjectDir is where a project keeps commands of its own (written by
// /meta), relative to its root, in the same form as atreides's texts.
const ProjectDir = ".atreides/commands"

// ForProject is every command installed into the project at root:
// atreides's, then the project's own from ProjectDir, one of the same name
// replacing atreides's. A project command that does not parse is an
// error naming its file: installing it half would hide the mistake.
func ForProject(root string) ([]Command, error) {
	cmds, err := All()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(root, filepath.FromSlash(ProjectDir))
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return cmds, nil
	}
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".md")
		if !ok || !e.Type().IsRegular() || !validName(name) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			return nil, err
		}
		c, err := parse(name, strings.ReplaceAll(string(data), "\r\n", "\n"))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", filepath.Join(dir, e.Name()), err)
		}
		if i := slices.IndexFunc(cmds, func(x Command) bool { return x.Name == name }); i >= 0 {
			cmds[i] = c
		} else {
			cmds = append(cmds, c)
		}
	}
	return cmds, nil
}

// validName is a command name every host takes as a file name and after
// a slash: lower-case letters, digits and dashes.
func validName(s string) bool {
	if s == "" || s[0] == '-' {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
