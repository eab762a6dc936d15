package codex

import (
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// hooksOff says why the config.toml at path switches Codex's hooks off,
// "" when it does not: `[features] hooks = false`, or the older key
// codex_hooks = false [docs]. A file that cannot be read or parsed says
// nothing here (the MCP check reports it).
func hooksOff(path string) string {
	// Read as every Codex file is (a FIFO there is refused, not waited on).
	src, exists, err := mcpFile(path, "").Read()
	if err != nil || !exists {
		return ""
	}
	doc, err := decodeTOML(path, src)
	if err != nil {
		return ""
	}
	features, _ := doc["features"].(map[string]any)
	for _, key := range []string{"hooks", "codex_hooks"} {
		if on, ok := features[key].(bool); ok && !on {
			return "[features] " + key + " = false: Codex runs no hooks, atreides's included (remove the key, or set it to true)"
		}
	}
	return ""
}

// featuresDoctor is doctor's line on the config.toml files of the user
// and the project that switch the hooks off (host.DisabledCheck: a
// problem when atreides's hooks are installed).
func featuresDoctor(env host.Env, found []install.Status) []host.Check {
	var off []install.Status
	for _, scope := range []install.Scope{install.ScopeProject, install.ScopeUser} {
		path := configPath(scope, env.ProjectDir, codexHome(env))
		if path == "" {
			continue
		}
		if why := hooksOff(path); why != "" {
			off = append(off, install.Status{Path: path, Disabled: why})
		}
	}
	if len(off) == 0 {
		return nil
	}
	return host.DisabledCheck(Host, append(off, found...))
}
