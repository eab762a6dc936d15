package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/spf13/cobra"
)

const doctorAbout = `Check what is installed where: the hook settings of Claude Code, Gemini CLI,
Codex and OpenCode for this project and for the user, whether the binary each hook
runs exists, the configuration, and the health of the state store. Exit 3
when something needs fixing.`

// check is one line of the doctor's report.
type check struct {
	Name   string `json:"name"`
	Status string `json:"status"` // ok | problem | note
	Detail string `json:"detail"`
}

type doctorJSON struct {
	OK       bool             `json:"ok"`
	Version  string           `json:"version"`
	Project  string           `json:"project"`
	Checks   []check          `json:"checks"`
	Claude   []install.Status `json:"claude"`
	Gemini   []install.Status `json:"gemini"`
	Codex    []install.Status `json:"codex"`
	OpenCode []install.Status `json:"opencode"`
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
	doc := doctorJSON{OK: true, Version: Version(), Project: root, Claude: []install.Status{}, Gemini: []install.Status{}, Codex: []install.Status{}, OpenCode: []install.Status{}}
	add := func(c check) {
		doc.Checks = append(doc.Checks, c)
		if c.Status == "problem" {
			doc.OK = false
		}
	}
	hostChecks(io, &doc, root, "", add)
	add(mcpCheck(root))
	add(configCheck(root))
	add(storeCheck(root))
	add(logCheck(root))
	if o.asJSON {
		enc := json.NewEncoder(io.Out)
		enc.SetIndent("", "  ")
		if err := enc.Encode(doc); err != nil {
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

// hostFileSpec is one settings file doctor looks at.
type hostFileSpec struct {
	host, name string // "gemini", "gemini user settings"
	scope      install.Scope
	path       string
	inspect    func(string) (install.Status, error)
	list       *[]install.Status
}

// hostChecks checks the settings files of every host, or only of host
// when it is not "" (the hook's health check at session start).
func hostChecks(io *IO, doc *doctorJSON, root, host string, add func(check)) {
	home, _ := os.UserHomeDir()
	codexHome := install.CodexHome(io.Getenv("CODEX_HOME"), home)
	var files []hostFileSpec
	for _, sc := range []install.Scope{install.ScopeProject, install.ScopeLocal, install.ScopeUser} {
		files = append(files, hostFileSpec{"claude", "claude " + sc.String() + " settings", sc, install.ClaudeSettingsPath(sc, root, home), install.InspectClaude, &doc.Claude})
	}
	for _, sc := range []install.Scope{install.ScopeProject, install.ScopeUser} {
		files = append(files, hostFileSpec{"gemini", "gemini " + sc.String() + " settings", sc, install.GeminiSettingsPath(sc, root, home), install.InspectGemini, &doc.Gemini})
	}
	for _, sc := range []install.Scope{install.ScopeProject, install.ScopeUser} {
		files = append(files, hostFileSpec{"codex", "codex " + sc.String() + " hooks", sc, install.CodexHooksPath(sc, root, codexHome), install.InspectCodex, &doc.Codex})
	}
	ocHome := install.OpenCodeConfigHome(io.Getenv("XDG_CONFIG_HOME"), home)
	for _, sc := range []install.Scope{install.ScopeProject, install.ScopeUser} {
		files = append(files, hostFileSpec{"opencode", "opencode " + sc.String() + " plugin", sc, install.OpenCodePluginPath(install.OpenCodeConfigDir(sc, root, ocHome)), install.InspectOpenCode, &doc.OpenCode})
	}
	installed := map[string]bool{}
	var geminiDisabled []string
	codexProject, codexUser := false, false
	for _, f := range files {
		if host != "" && f.host != host {
			continue
		}
		st, err := f.inspect(f.path)
		if err != nil {
			add(check{f.name, "problem", fmt.Sprintf("%s: %v", f.path, err)})
			continue
		}
		*f.list = append(*f.list, st)
		add(settingsCheck(f.name, f.host, st))
		for _, n := range st.Notes {
			add(check{f.name, "note", st.Path + ": " + n})
		}
		if st.Disabled != "" {
			geminiDisabled = append(geminiDisabled, st.Path+": "+st.Disabled)
		}
		if len(st.Events) > 0 {
			installed[f.host] = true
			codexProject = codexProject || (f.host == "codex" && f.scope == install.ScopeProject)
			codexUser = codexUser || (f.host == "codex" && f.scope == install.ScopeUser)
		}
	}
	if len(geminiDisabled) > 0 {
		// Gemini merges hooksConfig.disabled across its settings files, so
		// a name disabled in one disables our hooks in all of them.
		status := "note"
		if installed["gemini"] {
			status = "problem"
		}
		add(check{"gemini hooks", status, strings.Join(geminiDisabled, "; ")})
	}
	if codexProject && codexUser {
		// Codex runs matching hooks from every file (Gemini deduplicates
		// identical name+command across its layers; Codex does not say so).
		add(check{"codex hooks", "problem", "atreides is in both the user and the project hooks.json: Codex runs both, so every call is judged twice; run 'atreides uninstall codex --project' or '--user'"})
	}
	if installed["codex"] {
		sc := install.ScopeUser
		if codexProject {
			sc = install.ScopeProject
		}
		add(check{"codex trust", "note", "atreides cannot see whether Codex trusts its hooks: " + strings.Join(install.CodexTrustNotes(sc, root), "; ")})
	}
	if len(installed) == 0 {
		add(check{"hooks", "note", "atreides is not installed for any agent host here; run 'atreides install claude' (or gemini, codex)"})
	}
}

// hostDisplay are the hosts' names in doctor's messages.
var hostDisplay = map[string]string{"claude": "Claude Code", "gemini": "Gemini CLI", "codex": "Codex", "opencode": "OpenCode"}

func settingsCheck(name, host string, st install.Status) check {
	switch {
	case !st.Exists:
		return check{name, "ok", st.Path + ": no file"}
	case !st.Parses && host == "claude":
		return check{name, "problem", fmt.Sprintf("%s: %s (Claude Code silently ignores a settings file it cannot parse)", st.Path, st.Problem)}
	case !st.Parses:
		return check{name, "problem", st.Problem}
	case len(st.Events) == 0:
		return check{name, "ok", st.Path + ": no atreides hooks"}
	}
	var problems []string
	if len(st.Missing) > 0 {
		problems = append(problems, "events without atreides: "+strings.Join(st.Missing, ", ")+" (run 'atreides install "+host+"' again)")
	}
	if len(st.Duplicated) > 0 {
		problems = append(problems, "atreides registered twice for: "+strings.Join(st.Duplicated, ", "))
	}
	for _, b := range st.Binaries {
		if !b.Executable {
			problems = append(problems, fmt.Sprintf("hook binary %s: %s (the hooks fail open until it is fixed: %s runs on without them)", b.Command, b.Problem, hostDisplay[host]))
		}
	}
	if len(problems) > 0 {
		return check{name, "problem", st.Path + ": " + strings.Join(problems, "; ")}
	}
	bins := make([]string, 0, len(st.Binaries))
	for _, b := range st.Binaries {
		bins = append(bins, b.Command)
	}
	return check{name, "ok", fmt.Sprintf("%s: %d events, binary %s", st.Path, len(st.Events), strings.Join(bins, ", "))}
}

func mcpCheck(root string) check {
	path := install.ClaudeMCPPath(root)
	reg, problem, err := install.InspectClaudeMCP(path)
	switch {
	case err != nil:
		return check{"claude MCP tools", "problem", fmt.Sprintf("%s: %v", path, err)}
	case problem != "" && reg:
		return check{"claude MCP tools", "problem", fmt.Sprintf("%s: %s (the agent's intent and todo tools cannot start)", path, problem)}
	case problem != "":
		return check{"claude MCP tools", "problem", fmt.Sprintf("%s: %s", path, problem)}
	case !reg:
		msg := path + ": not registered"
		if self, err := os.Executable(); err == nil {
			if p := install.MCPBinaryProblem(self); p != "" {
				msg += "; " + p
			}
		}
		if cfg, err := config.Load(config.DefaultPaths(root)); err == nil && cfg.Governance.Enabled {
			return check{"claude MCP tools", "note", msg + " (governance is enabled: without these tools a Claude agent cannot select an intent, so its writes are blocked; run 'atreides install claude')"}
		}
		return check{"claude MCP tools", "ok", msg}
	}
	return check{"claude MCP tools", "ok", path + ": atreides registered"}
}

func configCheck(root string) check {
	cfg, err := config.Load(config.DefaultPaths(root))
	if err == nil {
		_, err = policy.FromConfig(cfg)
	}
	if err != nil {
		return check{"configuration", "problem", err.Error() + " (tool calls are blocked until it is fixed: the guard fails closed)"}
	}
	return check{"configuration", "ok", "valid"}
}

func storeCheck(root string) check {
	st := store.Open(project.StateDir(root))
	var recovered string
	st.OnRecover = func(msg string) { recovered = msg }
	if _, err := os.Stat(st.Path()); errors.Is(err, os.ErrNotExist) {
		return check{"state store", "ok", st.Path() + ": not created yet (the first hook creates it)"}
	}
	sessions := 0
	err := st.View(context.Background(), func(tx *store.Tx) error {
		return tx.ForEach("sessions", func(string, []byte) error { sessions++; return nil })
	})
	switch {
	case err != nil:
		return check{"state store", "problem", fmt.Sprintf("%s: %v", st.Path(), err)}
	case recovered != "":
		return check{"state store", "problem", recovered}
	}
	return check{"state store", "ok", fmt.Sprintf("%s: readable, %d session(s)", st.Path(), sessions)}
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
