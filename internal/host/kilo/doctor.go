package kilo

import (
	"os"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/opencode"
	"github.com/atreides-dev/atreides/internal/install"
)

// doctor says when a scope will not load: Kilo skips every project
// config (its .kilo plugin included) under KILO_DISABLE_PROJECT_CONFIG,
// and it loads no .opencode directory, so OpenCode's install does not
// guard Kilo (found is indexed like Entry.Scopes: project, user).
func doctor(env host.Env, found []install.Status) []host.Check {
	var out []host.Check
	installed := func(i int) bool { return i < len(found) && found[i].Installed() }
	if v := env.Getenv("KILO_DISABLE_PROJECT_CONFIG"); v != "" && v != "0" && v != "false" && installed(0) {
		out = append(out, host.Check{Name: Host + " project", Status: host.Problem,
			Detail: "KILO_DISABLE_PROJECT_CONFIG is set: Kilo Code skips the project's .kilo/, so the plugin in it does not load; install with --user"})
	}
	oc := opencode.PluginPath(filepath.Join(env.ProjectDir, ".opencode"))
	if _, err := os.Stat(oc); err == nil && env.ProjectDir != "" && !installed(0) && !installed(1) {
		out = append(out, host.Check{Name: Host + " project", Status: host.Note,
			Detail: oc + " is OpenCode's: Kilo Code does not load .opencode/; run 'atreides install kilo'"})
	}
	return out
}
