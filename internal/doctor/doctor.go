package doctor

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
)

// Check is one line of the doctor's report; a host's own are
// host.Check, the same shape.
type Check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok | problem | note
	Detail string `json:"detail"`
}

// Report is the doctor's report, and the JSON of 'atreides doctor --json'.
type Report struct {
	OK      bool    `json:"ok"`
	Version string  `json:"version"`
	Project string  `json:"project"`
	Checks  []Check `json:"checks"`
	Hosts   []Host  `json:"hosts"`
}

// Host is what doctor found of one host: whether this machine has
// it, and each of its settings files (in the order of its scopes).
type Host struct {
	Name    string           `json:"name"`
	Display string           `json:"display"`
	Seen    bool             `json:"seen"`
	Files   []install.Status `json:"files"`
}

// Run is doctor's report on the machine and the project env names, as
// atreides version sees them from the working directory wd.
func Run(env host.Env, wd, version string) *Report {
	root := env.ProjectDir
	doc := &Report{OK: true, Version: version, Project: root}
	add := func(c Check) {
		doc.Checks = append(doc.Checks, c)
		if c.Status == "problem" {
			doc.OK = false
		}
	}
	cfg, cfgErr := config.Load(config.DefaultPaths(root))
	if cfgErr == nil {
		env.Governance = cfg.Governance.Enabled
	}
	doc.Hosts = hostChecks(env, "", add)
	add(configCheck(cfg, cfgErr))
	for _, c := range trustChecks(cfg, root, wd) {
		add(c)
	}
	if c := routingCheck(cfg); c != nil {
		add(*c)
	}
	for _, c := range stateChecks(root) {
		add(c)
	}
	// The task board reads the configuration as tasks.LoadOptions does:
	// the built-in one when the files cannot be read.
	tcfg := cfg
	if cfgErr != nil {
		tcfg = config.Builtin()
	}
	for _, c := range taskFileChecks(root, tcfg) {
		add(c)
	}
	add(logCheck(root))
	return doc
}

// hostChecks inspects every registered host's settings files, adds the
// hosts' own checks, says whether atreides is on PATH, and returns what it
// found of each host; with host set, only that host's files and checks
// (the hook's health check at session start, which wants problems only and
// so skips what yields notes).
func hostChecks(env host.Env, host string, add func(Check)) []Host {
	found := make([]Host, 0, len(all.All()))
	installed := false
	for _, h := range all.All() {
		if host != "" && h.Name != host {
			continue
		}
		dh := Host{Name: h.Name, Display: h.Display, Files: []install.Status{}}
		if host == "" {
			dh.Seen = h.Seen(env)
		}
		for _, sc := range h.Scopes {
			path := h.Path(env, sc)
			st, err := h.Inspect(path)
			if err != nil {
				add(Check{h.Name + " " + sc.String(), "problem", fmt.Sprintf("%s: %v", path, err)})
				st = install.Status{Host: h.Name, Path: path}
			}
			dh.Files = append(dh.Files, st)
			add(Check(h.FileCheck(sc, st)))
			for _, n := range st.Notes {
				add(Check{h.Name + " " + sc.String(), "note", st.Path + ": " + n})
			}
			installed = installed || len(st.Events) > 0
		}
		for _, c := range h.Doctor(env, dh.Files) {
			add(Check(c))
		}
		found = append(found, dh)
	}
	if host != "" {
		return found
	}
	add(pathCheck(env))
	if !installed {
		add(Check{"hooks", "note", "atreides is not installed for any agent host here; run 'atreides install' to see the hosts on this machine"})
	}
	return found
}

// InstallProblems are doctor's problems with the host's installation for
// the project at root: a settings file the host cannot parse (Claude Code
// then ignores it silently), events without atreides, a hook binary that
// does not run, atreides registered twice, a broken MCP registration. The
// hook tells them to the agent at session start.
func InstallProblems(root, name string) []string {
	var problems []string
	hostChecks(host.EnvAt(os.Getenv, root), name, func(ch Check) {
		if ch.Status == "problem" {
			problems = append(problems, ch.Detail)
		}
	})
	return problems
}

// pathCheck says plainly whether atreides is on PATH: project settings
// name it without a path, so a host finds it there or not at all.
func pathCheck(env host.Env) Check {
	p, err := env.LookPath(install.PortableBinary)
	if err != nil {
		return Check{"PATH", "note", "atreides is not on PATH: hooks in committed project settings name it without a path, so agent hosts cannot run them on this machine (install it, e.g. 'go install ./cmd/...', and put its directory on PATH)"}
	}
	return Check{"PATH", "ok", "atreides on PATH: " + p}
}

// configCheck: the configuration loaded (cfg, or err) and the guard
// policy builds from it.
func configCheck(cfg *config.Config, err error) Check {
	if err == nil {
		_, err = policy.FromConfig(cfg)
	}
	if err != nil {
		return Check{"configuration", "problem", err.Error() + " (tool calls are blocked until it is fixed: the guard fails closed)"}
	}
	return Check{"configuration", "ok", "valid"}
}

// trustChecks say what the project configuration's trust leaves out, a
// guard switched off by a trusted file, and a config that does not count
// (cfg nil: the configuration did not load, configCheck says so).
func trustChecks(cfg *config.Config, root, wd string) []Check {
	var out []Check
	if cfg != nil {
		t := cfg.Trust()
		switch {
		case t.Untrusted() && len(t.Ignored) > 0:
			out = append(out, Check{"trust", "problem", fmt.Sprintf("%s is not trusted: %d of its settings are ignored (%s); review and trust it with 'atreides trust'",
				t.File, len(t.Ignored), strings.Join(t.IgnoredKeys(), ", "))})
		case t.Untrusted():
			out = append(out, Check{"trust", "ok", t.File + " is not trusted; nothing in it needs trust"})
		case t.Trusted:
			out = append(out, Check{"trust", "ok", t.File + " is trusted (sha256 " + config.ShortDigest(t.Digest) + ")"})
		}
		if !cfg.Guard.Enabled {
			out = append(out, Check{"guard", "note", "switched off at " + cfg.Pos("guard", "enabled").String() + ": commands and file access are not checked"})
		}
	}
	if stray := project.StrayConfig(root, wd); stray != "" {
		out = append(out, Check{"trust", "note", stray + " is ignored: only the project root's .atreides/config.yaml counts"})
	}
	return out
}

func logCheck(root string) Check {
	log := project.NewLog(project.StateDir(root))
	path := log.Path()
	fi, err := log.Stat()
	if errors.Is(err, confined.ErrRefused) {
		return Check{"log", "problem", err.Error() + " (hooks log nothing until it is removed)"}
	}
	if err != nil {
		return Check{"log", "ok", path + ": empty"}
	}
	return Check{"log", "note", fmt.Sprintf("%s: %d bytes; what atreides blocked and every failure it skipped are here", path, fi.Size())}
}
