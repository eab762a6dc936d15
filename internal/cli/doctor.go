package cli

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/spf13/cobra"
)

const doctorAbout = `Check what is installed where: the hook settings of Claude Code, Gemini CLI,
Codex and OpenCode for this project and for the user, whether the binary each hook
runs exists, the configuration, and the health of the state store. Exit 3
when something needs fixing.`

// check is one line of the doctor's report; a host's own are
// all.Check, the same shape.
type check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok | problem | note
	Detail string `json:"detail"`
}

type doctorJSON struct {
	OK      bool         `json:"ok"`
	Version string       `json:"version"`
	Project string       `json:"project"`
	Checks  []check      `json:"checks"`
	Hosts   []doctorHost `json:"hosts"`
}

// doctorHost is what doctor found of one host: whether this machine has
// it, and each of its settings files (in the order of its scopes).
type doctorHost struct {
	Name    string           `json:"name"`
	Display string           `json:"display"`
	Seen    bool             `json:"seen"`
	Files   []install.Status `json:"files"`
}

// doctorOptions are the flags of 'atreides doctor'.
type doctorOptions struct {
	asJSON bool
}

func newDoctorCmd(io *IO) *cobra.Command {
	o := &doctorOptions{}
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "check installation, binary paths and the state store",
		Long:  doctorAbout,
		Args:  noArgs,
		RunE:  func(*cobra.Command, []string) error { return o.run(io) },
	}
	cmd.Flags().BoolVar(&o.asJSON, "json", false, "print the report as JSON")
	return cmd
}

func (o *doctorOptions) run(io *IO) error {
	root, err := cwdRoot(io)
	if err != nil {
		return err
	}
	doc := doctorJSON{OK: true, Version: hook.Version(), Project: root}
	add := func(c check) {
		doc.Checks = append(doc.Checks, c)
		if c.Status == "problem" {
			doc.OK = false
		}
	}
	env := hostEnvAt(io.Getenv, root)
	cfg, cfgErr := config.Load(config.DefaultPaths(root))
	if cfgErr == nil {
		env.Governance = cfg.Governance.Enabled
	}
	doc.Hosts = hostChecks(env, "", add)
	add(configCheck(cfg, cfgErr))
	wd, _ := io.Getwd()
	for _, c := range trustChecks(cfg, root, wd) {
		add(c)
	}
	if c := routingCheck(root); c != nil {
		add(*c)
	}
	for _, c := range stateChecks(root) {
		add(c)
	}
	for _, c := range taskFileChecks(root) {
		add(c)
	}
	add(logCheck(root))
	if o.asJSON {
		if err := printJSON(io, doc); err != nil {
			return err
		}
	} else {
		printDoctor(io, &doc)
	}
	if !doc.OK {
		return &problemsError{}
	}
	return nil
}

// hostChecks inspects every registered host's settings files, adds the
// hosts' own checks, says whether atreides is on PATH, and returns what it
// found of each host; with host set, only that host's files and checks
// (the hook's health check at session start, which wants problems only and
// so skips what yields notes).
func hostChecks(env all.Env, host string, add func(check)) []doctorHost {
	found := make([]doctorHost, 0, len(all.All()))
	installed := false
	for _, h := range all.All() {
		if host != "" && h.Name != host {
			continue
		}
		dh := doctorHost{Name: h.Name, Display: h.Display, Files: []install.Status{}}
		if host == "" {
			dh.Seen = h.Seen(env)
		}
		for _, sc := range h.Scopes {
			path := h.Path(env, sc)
			st, err := h.Inspect(path)
			if err != nil {
				add(check{h.Name + " " + sc.String(), "problem", fmt.Sprintf("%s: %v", path, err)})
				st = install.Status{Host: h.Name, Path: path}
			}
			dh.Files = append(dh.Files, st)
			add(check(h.FileCheck(sc, st)))
			for _, n := range st.Notes {
				add(check{h.Name + " " + sc.String(), "note", st.Path + ": " + n})
			}
			installed = installed || len(st.Events) > 0
		}
		for _, c := range h.Doctor(env, dh.Files) {
			add(check(c))
		}
		found = append(found, dh)
	}
	if host != "" {
		return found
	}
	add(pathCheck(env))
	if !installed {
		add(check{"hooks", "note", "atreides is not installed for any agent host here; run 'atreides install' to see the hosts on this machine"})
	}
	return found
}

// installProblems are doctor's problems with the host's installation for
// the project at root: a settings file the host cannot parse (Claude Code
// then ignores it silently), events without atreides, a hook binary that
// does not run, atreides registered twice, a broken MCP registration. The
// hook tells them to the agent at session start ([hook.Process]).
func installProblems(root, host string) []string {
	var problems []string
	hostChecks(hostEnvAt(os.Getenv, root), host, func(ch check) {
		if ch.Status == "problem" {
			problems = append(problems, ch.Detail)
		}
	})
	return problems
}

// pathCheck says plainly whether atreides is on PATH: project settings
// name it without a path, so a host finds it there or not at all.
func pathCheck(env all.Env) check {
	p, err := env.LookPath(install.PortableBinary)
	if err != nil {
		return check{"PATH", "note", "atreides is not on PATH: hooks in committed project settings name it without a path, so agent hosts cannot run them on this machine (install it, e.g. 'go install ./cmd/...', and put its directory on PATH)"}
	}
	return check{"PATH", "ok", "atreides on PATH: " + p}
}

// configCheck: the configuration loaded (cfg, or err) and the guard
// policy builds from it.
func configCheck(cfg *config.Config, err error) check {
	if err == nil {
		_, err = policy.FromConfig(cfg)
	}
	if err != nil {
		return check{"configuration", "problem", err.Error() + " (tool calls are blocked until it is fixed: the guard fails closed)"}
	}
	return check{"configuration", "ok", "valid"}
}

// trustChecks say what the project configuration's trust leaves out, a
// guard switched off by a trusted file, and a config that does not count
// (cfg nil: the configuration did not load, configCheck says so).
func trustChecks(cfg *config.Config, root, wd string) []check {
	var out []check
	if cfg != nil {
		t := cfg.Trust()
		switch {
		case t.Untrusted() && len(t.Ignored) > 0:
			out = append(out, check{"trust", "problem", fmt.Sprintf("%s is not trusted: %d of its settings are ignored (%s); review and trust it with 'atreides trust'",
				t.File, len(t.Ignored), strings.Join(t.IgnoredKeys(), ", "))})
		case t.Untrusted():
			out = append(out, check{"trust", "ok", t.File + " is not trusted; nothing in it needs trust"})
		case t.Trusted:
			out = append(out, check{"trust", "ok", t.File + " is trusted (sha256 " + short(t.Digest) + ")"})
		}
		if !cfg.Guard.Enabled {
			out = append(out, check{"guard", "note", "switched off at " + cfg.Pos("guard", "enabled").String() + ": commands and file access are not checked"})
		}
	}
	if stray := project.StrayConfig(root, wd); stray != "" {
		out = append(out, check{"trust", "note", stray + " is ignored: only the project root's .atreides/config.yaml counts"})
	}
	return out
}

func logCheck(root string) check {
	log := project.NewLog(project.StateDir(root))
	path := log.Path()
	fi, err := log.Stat()
	if errors.Is(err, confined.ErrRefused) {
		return check{"log", "problem", err.Error() + " (hooks log nothing until it is removed)"}
	}
	if err != nil {
		return check{"log", "ok", path + ": empty"}
	}
	return check{"log", "note", fmt.Sprintf("%s: %d bytes; what atreides blocked and every failure it skipped are here", path, fi.Size())}
}

func printDoctor(io *IO, doc *doctorJSON) {
	fmt.Fprintf(io.Out, "atreides %s, project %s\n", doc.Version, doc.Project)
	for _, c := range doc.Checks {
		mark := map[string]string{"ok": "ok     ", "problem": "PROBLEM", "note": "note   "}[c.Status]
		fmt.Fprintf(io.Out, "%s  %-24s %s\n", mark, c.Name, c.Detail)
	}
	if doc.OK {
		fmt.Fprintln(io.Out, "no problems found")
	}
}
