package host

import (
	"os"
	"path/filepath"
)

// HasAgent reports whether the host can start the agent it knows as name
// (agents.HostName) in the project of env: one of the host's own agents,
// or an agent file in the agent directory of one of its scopes. A host
// whose agents go into no files (a plugin adds the roster in memory, or
// the call carries the prompt) has every agent it is asked for. The
// strikes' escalation names only an agent this holds for, and doctor
// reports the one it falls back to (package session, doctor).
func (h *Host) HasAgent(env Env, name string) bool {
	if name == "" {
		return false
	}
	if IsBuiltin(h.Agents.Builtin, name) || h.Agents.Dir == nil {
		return true
	}
	for _, s := range h.Scopes {
		if dir := h.Agents.Dir(env, s); dir != "" {
			if fi, err := os.Stat(filepath.Join(dir, name+h.Agents.Form.Ext)); err == nil && fi.Mode().IsRegular() {
				return true
			}
		}
	}
	return false
}

// EscalationAgent is the agent the strikes' escalation sends the agent to
// on this host: the roster's oracle (its host name) when the host has it,
// else the host's default agent when that is one of its own (Claude
// Code's general-purpose), else "" (the agent is told to diagnose and ask
// the user). fallback says the oracle was missing.
func (h *Host) EscalationAgent(env Env, oracle string) (name string, fallback bool) {
	if h.Facts == nil || h.Facts.AgentCall == "" {
		return "", false // the host starts no named agents
	}
	if h.HasAgent(env, oracle) {
		return oracle, false
	}
	if d := h.Facts.DefaultAgent; d != "" && IsBuiltin(h.Agents.Builtin, d) {
		return d, oracle != ""
	}
	return "", oracle != ""
}
