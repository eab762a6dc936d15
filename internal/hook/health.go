package hook

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/doctor"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/sanitize"
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

// configProblems reports the retired keys the files still set: they are
// skipped, and the user can clean them up. A configuration the guard
// cannot be built from as written is configNote's to tell.
func (s *Settings) configProblems(*engine.Call) []string {
	if s.builtin() {
		return nil
	}
	if _, err := s.policy(); err != nil {
		return nil // configNote tells it (confignote.go)
	}
	cfg, err := s.cfg.Get()
	if err != nil {
		return nil
	}
	var out []string
	for _, n := range cfg.Notes() {
		out = append(out, "configuration: "+n.Error())
	}
	return out
}

// brokenConfig logs every problem of a configuration that could not be
// read whole and returns the one line for the session: how many, the
// first with its file:line, and what the guard does meanwhile.
func (s *Settings) brokenConfig(c *engine.Call, err error) string {
	// Validate has the guard's unknown names and the form errors in one
	// pass, where the load stops at the form errors; a session start
	// can afford the second read.
	if _, verr := config.Validate(config.DefaultPaths(s.root), policy.NameErrors); verr != nil {
		err = verr
	}
	problems := configErrors(err)
	for _, p := range problems {
		c.Env.Logf("configuration: %s", p)
	}
	first := s.oneLine(problems[0])
	n := ""
	if len(problems) > 1 {
		n = fmt.Sprintf(" (and %d more)", len(problems)-1)
	}
	return "the configuration has a problem: " + first + n +
		"; until it is fixed the guard uses its built-in policy, tightened by the settings that could be read (`atreides config validate` lists every problem)"
}

// firstProblem is err's first problem as one short line.
func (s *Settings) firstProblem(err error) string { return s.oneLine(configErrors(err)[0]) }

// oneLine is a problem on one line, with short paths and its secrets
// masked: a problem quotes the value it found, and a value in the wrong
// place may be a token (otel.headers written as one string) that the
// model must not read.
func (s *Settings) oneLine(msg string) string {
	return sanitize.String(strings.Join(strings.Fields(shortPath(msg, s.root)), " "), 0)
}

// shortPath writes the project's files relative to its root and the
// user's under ~, for the one line the agent reads.
func shortPath(msg, root string) string {
	msg = strings.ReplaceAll(msg, root+string(filepath.Separator), "")
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		msg = strings.ReplaceAll(msg, home+string(filepath.Separator), "~"+string(filepath.Separator))
	}
	return msg
}

// configErrors are the problems err holds, one string each: every field
// error of a validation error, else err's own text.
func configErrors(err error) []string {
	var verr *config.ValidationError
	if errors.As(err, &verr) && len(verr.Errs) > 0 {
		out := make([]string, len(verr.Errs))
		for i, fe := range verr.Errs {
			out[i] = fe.Error()
		}
		return out
	}
	return []string{err.Error()}
}

// installProblems reports what doctor finds wrong with the installation
// for the event's host ([doctor.InstallProblems]).
func (s *Settings) installProblems(c *engine.Call) []string {
	if s.proc == nil {
		return nil // not a hook's runtime: no host's installation to judge
	}
	return doctor.InstallProblems(s.root, c.Event.Host)
}
