package actor

import (
	"strings"
	"testing"
)

// marks are the hosts' marks as the registry has them (all.AgentVars,
// which this package cannot import: the hosts link it).
var marks = []string{"CLAUDECODE", "CLAUDE_CODE_SESSION_ID", "GEMINI_CLI", "OPENCODE", "CODEX_SANDBOX*", "CODEX_SANDBOX_NETWORK_DISABLED", "CODEX_THREAD_ID"}

// sessions are the hosts' session variables as the registry has them
// (all.SessionVars).
var sessions = []string{"CLAUDE_CODE_SESSION_ID"}

func env(m map[string]string, terminal bool) Env {
	return Env{Getenv: func(k string) string { return m[k] }, Terminal: terminal, Marks: marks, Sessions: sessions}
}

func TestOwn(t *testing.T) {
	for _, tc := range []struct {
		name     string
		env      map[string]string
		sessions []string
		want     string
	}{
		{"the host's variable", map[string]string{"CLAUDE_CODE_SESSION_ID": " s-a "}, sessions, "s-a"},
		{"unset", map[string]string{"CLAUDECODE": "1"}, sessions, ""},
		{"blank", map[string]string{"CLAUDE_CODE_SESSION_ID": "  "}, sessions, ""},
		{"the first set wins", map[string]string{"B": "s-b", "C": "s-c"}, []string{"A", "B", "C"}, "s-b"},
		// Only the hosts' variables name a session: the user's own
		// ATREIDES_SESSION_ID does not make a command its session's.
		{"not a host's variable", map[string]string{"ATREIDES_SESSION_ID": "s-a"}, sessions, ""},
		{"no host names one", map[string]string{"CLAUDE_CODE_SESSION_ID": "s-a"}, nil, ""},
	} {
		e := Env{Getenv: func(k string) string { return tc.env[k] }, Sessions: tc.sessions}
		if got := e.Own(); got != tc.want {
			t.Errorf("%s: Own() = %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestMayRelease(t *testing.T) {
	claude := map[string]string{"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": "s-a"}
	for _, tc := range []struct {
		name     string
		env      map[string]string
		terminal bool
		session  string
		err      string
	}{
		{"person at a terminal, any session", nil, true, "s-b", ""},
		{"agent, its own session", claude, false, "s-a", ""},
		{"agent, another session", claude, false, "s-b", "session s-a cannot release session s-b's lease"},
		{"agent with a pseudo-terminal", claude, true, "s-b", "cannot release session s-b's lease"},
		{"gemini agent, session unknown", map[string]string{"GEMINI_CLI": "1"}, false, "s-b", "not run by a person"},
		{"codex agent at a pty", map[string]string{"CODEX_SANDBOX": "seatbelt"}, true, "s-b", "not run by a person"},
		{"opencode agent", map[string]string{"OPENCODE": "1"}, false, "s-b", "not run by a person"},
		{"no terminal, no marks (a stripped environment)", nil, false, "s-b", "not run by a person"},
		{"user config variables are not marks", map[string]string{"CODEX_HOME": "/h", "OPENCODE_CONFIG": "/c"}, true, "s-b", ""},
	} {
		err := MayRelease(tc.session, env(tc.env, tc.terminal))
		if tc.err == "" && err != nil || tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.err)
		}
	}
}

func TestActAs(t *testing.T) {
	claude := map[string]string{"CLAUDECODE": "1", "CLAUDE_CODE_SESSION_ID": "s-a"}
	for _, tc := range []struct {
		name     string
		env      map[string]string
		terminal bool
		session  string
		ok       bool
	}{
		{"own session", claude, false, "s-a", true},
		{"another session", claude, false, "s-b", false},
		{"another session at a pty", claude, true, "s-b", false},
		{"a person", nil, true, "s-b", true},
		{"a script naming a session (no host names one)", nil, false, "s1", true},
		{"no session named", claude, false, "", true},
		{"an agent whose host names no session", map[string]string{"GEMINI_CLI": "1"}, false, "s1", false},
	} {
		if err := ActAs(tc.session, env(tc.env, tc.terminal)); (err == nil) != tc.ok {
			t.Errorf("%s: %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}
