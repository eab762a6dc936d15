package hook

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/doctor"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/session"
)

// healthChecks are the set-up checks a hook runs at session start (see
// [session.Health]) besides the state: the configuration, and this host's
// installation as doctor sees it. They are doctor's own checks, reduced to
// the problems of the host the session runs in.
func healthChecks(s *Settings) []session.Check {
	return []session.Check{s.configProblems, s.trustProblems, s.installProblems}
}

// trustProblems tells, once at session start, what an untrusted project
// configuration was not allowed to do, and that a config in a
// subdirectory does not count: both are the user's to act on, and the
// agent should know why a setting it reads in the file is not in force.
func (s *Settings) trustProblems(c *engine.Call) []string {
	var out []string
	if !s.builtin() {
		if cfg, err := s.cfg.Get(); err == nil {
			if t := cfg.Trust(); t.Untrusted() && len(t.Ignored) > 0 {
				out = append(out, untrustedNote(t))
			}
		}
	}
	if stray := project.StrayConfig(s.root, c.Event.Cwd); stray != "" {
		rel, _ := filepath.Rel(s.root, stray)
		out = append(out, rel+" is ignored: only the project root's .atreides/config.yaml counts")
	}
	return out
}

// untrustedNote is one sentence on what an untrusted project
// configuration lost: at most three keys named.
func untrustedNote(t config.Trust) string {
	keys := t.IgnoredKeys()
	named := strings.Join(keys[:min(len(keys), 3)], ", ")
	if len(keys) > 3 {
		named += fmt.Sprintf(" and %d more", len(keys)-3)
	}
	return fmt.Sprintf("the project config .atreides/config.yaml is not trusted, so its settings that loosen the guard or run programs are ignored (%s); the user can review and trust it with `atreides trust`", named)
}

// configProblems reports a configuration the guard cannot be built from:
// then every tool call is blocked (the guard fails closed), and the user
// should learn why before the first one. Retired keys the files still set
// are reported too: they are skipped, and the user can clean them up.
func (s *Settings) configProblems(*engine.Call) []string {
	if s.builtin() {
		return nil
	}
	if _, err := s.policy(); err != nil {
		msg, _, _ := strings.Cut(err.Error(), "\n")
		return []string{"the configuration is invalid, so every tool call is blocked until it is fixed (" + msg + ")"}
	}
	c, err := s.cfg.Get()
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range c.Notes() {
		out = append(out, "configuration: "+n.Error())
	}
	return out
}

// installProblems reports what doctor finds wrong with the installation
// for the event's host ([doctor.InstallProblems]).
func (s *Settings) installProblems(c *engine.Call) []string {
	if s.proc == nil {
		return nil // not a hook's runtime: no host's installation to judge
	}
	return doctor.InstallProblems(s.root, c.Event.Host)
}
