package doctor

import (
	"fmt"
	"os"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// oracleChecks: after repeated failures the strikes tell the agent to
// consult the roster's oracle agent by the name the host calls it, when
// the host has it, else a fallback agent of the host's own
// (host.Host.EscalationAgent); the check names that fallback. For each host with atreides's hooks in a scope whose agents
// go into files, the oracle's file must be in that scope's directory. A
// missing file is a problem when other agent files of the roster are
// there (it was deleted), a note when none is (agents were left out of
// the install on purpose). The roster exists in the full preset only.
func oracleChecks(env host.Env, cfg *config.Config, found []Host) []Check {
	if cfg == nil || !cfg.Preset.Runs(config.PresetFull) {
		return nil
	}
	roster, err := agents.FromConfig(cfg.Agents)
	if err != nil {
		return nil // the configuration check says why
	}
	oracle, ok := roster.Oracle()
	if !ok {
		return nil
	}
	return hookedScopes(found, func(h *host.Host, scope install.Scope) (Check, bool) {
		if h.Agents.Dir == nil || host.IsBuiltin(h.Agents.Builtin, oracle.HostName()) {
			return Check{}, false
		}
		return oracleFile(h, env, scope, oracle, roster)
	})
}

// oracleFile checks one scope's agent directory for the oracle's file.
func oracleFile(h *host.Host, env host.Env, scope install.Scope, oracle agents.Agent, roster agents.Roster) (Check, bool) {
	dir := h.Agents.Dir(env, scope)
	ext := h.Agents.Form.Ext
	if h.HasAgent(env, oracle.HostName()) {
		return Check{}, false // in this scope or another: the escalation finds it
	}
	name := h.Name + " agents"
	others := false
	for _, a := range roster.Subagents() {
		others = others || a.ID != oracle.ID && exists(install.MarkedFile(dir, a.HostName(), ext))
	}
	msg := fmt.Sprintf("%s: no file for %s (%s), the agent repeated failures are escalated to; ", dir, oracle.HostName(), oracle.Name)
	meanwhile := fallbackWords(h, env, oracle.HostName())
	if others {
		return Check{Name: name, Status: "problem", Detail: msg + "it was removed: run 'atreides install " + h.Name + "' again to restore it; " + meanwhile + " until then"}, true
	}
	return Check{Name: name, Status: "note", Detail: msg + "the roster's agents are not installed for " + h.Display + ", so " + meanwhile}, true
}

// fallbackWords says where the escalation goes without the oracle: the
// agent host.Host.EscalationAgent falls back to, the same the hook
// names, or none.
func fallbackWords(h *host.Host, env host.Env, oracle string) string {
	if to, _ := h.EscalationAgent(env, oracle); to != "" && to != oracle {
		return "escalations go to " + to + " (the host's own agent)"
	}
	return "escalations name no agent (the agent is told to diagnose and ask the user)"
}

func exists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
