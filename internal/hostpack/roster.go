package hostpack

import (
	"fmt"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/slash"
)

// roster is the built-in configuration's roster: a package serves every
// project, so no project's configuration is read.
func roster() (agents.Roster, error) {
	r, err := agents.FromConfig(config.Builtin().Agents)
	if err != nil {
		return nil, fmt.Errorf("the built-in roster: %w", err)
	}
	return r, nil
}

// agentFiles writes the roster's agent files into dir as install renders
// them for the host (f), without install's marker line: the marker tells
// `atreides uninstall` which files are its own, and a package is removed
// whole by the host's uninstall.
func agentFiles(t tree, dir string, f host.AgentFacts) error {
	r, err := roster()
	if err != nil {
		return err
	}
	for _, a := range r {
		if host.IsBuiltin(f.Builtin, a.HostName()) || f.Form.Installs != nil && !f.Form.Installs(a) {
			continue
		}
		if len(a.Skills) > 0 {
			// install reads skills from the project; a package has none.
			return fmt.Errorf("agent %s: the built-in roster names skills, which a package cannot carry", a.ID)
		}
		if err := t.file(dir+"/"+a.HostName()+f.Form.Ext, []byte(f.Form.Render(a, a.Prompt)), 0o644); err != nil {
			return err
		}
	}
	return nil
}

// commandFiles writes every slash command into dir as install renders
// them for a user install (all of atreides's commands, no project's own),
// with toolPrefix before the names of atreides's tools, without install's
// marker line (see agentFiles).
func commandFiles(t tree, dir string, f host.CommandFacts, toolPrefix string) error {
	cmds, err := slash.All()
	if err != nil {
		return fmt.Errorf("the slash commands: %w", err)
	}
	tool := func(name string) string { return toolPrefix + name }
	for _, c := range cmds {
		if host.IsBuiltin(f.Builtin, c.HostName()) {
			continue
		}
		if err := t.file(dir+"/"+c.HostName()+f.Form.Ext, []byte(f.Form.Render(c, c.Body(f.Form.Args, tool))), 0o644); err != nil {
			return err
		}
	}
	return nil
}
