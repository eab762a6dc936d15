package doctor

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
)

// Check is one line of the doctor's report; a host's own are
// host.Check, the same shape less the group.
type Check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok | problem | note
	Detail string `json:"detail"`
	// Group is the part of the report the line belongs to (the Group
	// constants), which the text report prints under one heading.
	Group string `json:"group"`
}

// The groups of the report, in the order it prints them.
const (
	GroupHosts  = "hosts"  // what is installed where, and whether it would run
	GroupFired  = "hooks"  // whether the hooks did run: events that reached atreides
	GroupConfig = "config" // the configuration and its trust
	GroupState  = "state"  // the state store, task files and log
)

// Groups are the groups in the order the report prints them.
func Groups() []string { return []string{GroupHosts, GroupFired, GroupConfig, GroupState} }

func fromHost(c host.Check) Check {
	return Check{Name: c.Name, Status: c.Status, Detail: c.Detail}
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
// it, each of its settings files (in the order of its scopes), and when
// each event its hooks are installed for last reached atreides.
type Host struct {
	Name     string           `json:"name"`
	Display  string           `json:"display"`
	Seen     bool             `json:"seen"`
	Files    []install.Status `json:"files"`
	LastSeen []EventSeen      `json:"last_seen"`
}

// Run is doctor's report on the machine and the project env names, as
// atreides version sees them from the working directory wd.
func Run(env host.Env, wd, version string) *Report {
	root := env.ProjectDir
	doc := &Report{OK: true, Version: version, Project: root}
	group := GroupHosts
	add := func(c Check) {
		c.Group = group
		doc.Checks = append(doc.Checks, c)
		if c.Status == "problem" {
			doc.OK = false
		}
	}
	paths := config.DefaultPaths(root)
	cfg, cfgErr := config.Load(paths)
	if cfgErr == nil {
		env.Governance = cfg.Governance.Enabled
	}
	doc.Hosts = hostChecks(env, "", add)
	for _, c := range oracleChecks(env, usable(cfg, cfgErr, paths), doc.Hosts) {
		add(c)
	}
	for _, c := range staleChecks(env, doc.Hosts) {
		add(c)
	}
	group = GroupFired
	for _, c := range seenChecks(doc.Hosts, readTrail(root), time.Now()) {
		add(c)
	}
	group = GroupConfig
	for _, c := range configChecks(paths, cfg, cfgErr) {
		add(c)
	}
	for _, c := range trustChecks(cfg, root, wd) {
		add(c)
	}
	if c := routingCheck(cfg); c != nil {
		add(*c)
	}
	group = GroupState
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
	for i := range doc.Hosts {
		if doc.Hosts[i].LastSeen == nil {
			doc.Hosts[i].LastSeen = []EventSeen{}
		}
	}
	return doc
}

// usable is the configuration the hooks go on with: the files', or the
// fallback when they cannot be read whole.
func usable(cfg *config.Config, err error, p config.Paths) *config.Config {
	if err != nil {
		return config.Fallback(p)
	}
	return cfg
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
				add(Check{Name: h.Name + " " + sc.String(), Status: "problem", Detail: fmt.Sprintf("%s: %v", path, err)})
				st = install.Status{Host: h.Name, Path: path}
			}
			dh.Files = append(dh.Files, st)
			add(fromHost(h.FileCheck(sc, st)))
			for _, n := range st.Notes {
				add(Check{Name: h.Name + " " + sc.String(), Status: "note", Detail: st.Path + ": " + n})
			}
			installed = installed || len(st.Events) > 0
		}
		for _, c := range h.Doctor(env, dh.Files) {
			add(fromHost(c))
		}
		found = append(found, dh)
	}
	if host != "" {
		return found
	}
	add(pathCheck(env))
	if !installed {
		add(Check{Name: "hooks", Status: "note", Detail: "atreides is not installed for any agent host here; run 'atreides install' to see the hosts on this machine"})
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
		return Check{Name: "PATH", Status: "note", Detail: "atreides is not on PATH: hooks in committed project settings name it without a path, so agent hosts cannot run them on this machine (install it, e.g. 'go install ./cmd/...', and put its directory on PATH)"}
	}
	return Check{Name: "PATH", Status: "ok", Detail: "atreides on PATH: " + p}
}

// configChecks: the configuration loaded (cfg, or err) and the guard
// policy builds from it; otherwise one line per problem, each at its
// file:line, found in one pass (config.Validate: form and the guard's
// names together), and what the guard does meanwhile.
func configChecks(p config.Paths, cfg *config.Config, err error) []Check {
	if err == nil {
		_, err = policy.FromConfig(cfg)
	}
	if err == nil {
		return []Check{{Name: "configuration", Status: "ok", Detail: "valid"}}
	}
	var problems []string
	var verr *config.ValidationError
	if _, vErr := config.Validate(p, policy.NameErrors); errors.As(vErr, &verr) {
		for _, fe := range verr.Errs {
			problems = append(problems, fe.Error())
		}
	} else {
		problems = []string{err.Error()}
	}
	out := make([]Check, 0, len(problems)+1)
	for _, msg := range problems {
		out = append(out, Check{Name: "configuration", Status: "problem", Detail: msg})
	}
	return append(out, Check{Name: "guard", Status: "note", Detail: "until the configuration is fixed the guard uses its built-in policy, tightened by the settings that could be read; nothing in the files loosens it"})
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
			out = append(out, Check{Name: "trust", Status: "problem", Detail: fmt.Sprintf("%s is not trusted: %d of its settings are ignored (%s); review and trust it with 'atreides trust'",
				t.File, len(t.Ignored), strings.Join(t.IgnoredKeys(), ", "))})
		case t.Untrusted():
			out = append(out, Check{Name: "trust", Status: "ok", Detail: t.File + " is not trusted; nothing in it needs trust"})
		case t.Trusted:
			out = append(out, Check{Name: "trust", Status: "ok", Detail: t.File + " is trusted (sha256 " + config.ShortDigest(t.Digest) + ")"})
		}
		if !cfg.Guard.Enabled {
			out = append(out, Check{Name: "guard", Status: "note", Detail: "switched off at " + cfg.Pos("guard", "enabled").String() + ": commands and file access are not checked"})
		}
	}
	if stray := project.StrayConfig(root, wd); stray != "" {
		out = append(out, Check{Name: "trust", Status: "note", Detail: stray + " is ignored: only the project root's .atreides/config.yaml counts"})
	}
	return out
}

func logCheck(root string) Check {
	log := project.NewLog(project.StateDir(root))
	path := log.Path()
	fi, err := log.Stat()
	if errors.Is(err, confined.ErrRefused) {
		return Check{Name: "log", Status: "problem", Detail: err.Error() + " (hooks log nothing until it is removed)"}
	}
	if err != nil {
		return Check{Name: "log", Status: "ok", Detail: path + ": empty"}
	}
	return Check{Name: "log", Status: "note", Detail: fmt.Sprintf("%s: %d bytes; what atreides blocked and every failure it skipped are here", path, fi.Size())}
}
