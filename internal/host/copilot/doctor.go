package copilot

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// copilotDoctor says when installed hooks may not run: settings.json's
// disableAllHooks is described as switching every hook off, and a
// project's hooks alone do not guard copilot -p (see repoHooksNote); and
// whether the MCP server is registered. found is indexed like Scopes
// (user, project).
func copilotDoctor(env host.Env, found []install.Status) []host.Check {
	var user, project bool
	for i, st := range found {
		if i < len(scopes) && len(st.Events) > 0 {
			user = user || scopes[i] == install.ScopeUser
			project = project || scopes[i] == install.ScopeProject
		}
	}
	var out []host.Check
	if env.Home != "" {
		settings := filepath.Join(UserDir(env.Home, env.Var("COPILOT_HOME")), "settings.json")
		if hooksOff(settings) {
			out = append(out, host.Check{Name: Host + " hooks", Status: host.Note,
				Detail: settings + ": disableAllHooks is true: Copilot's settings schema says it switches every hook off, atreides's included (1.0.102 in -p still ran them, verified; another version may not)"})
		}
	}
	if project && !user {
		out = append(out, host.Check{Name: Host + " project hooks", Status: host.Note, Detail: repoHooksNote})
	}
	if env.Home != "" {
		path := mcpPath(env)
		reg, problem, err := InspectMCP(path)
		out = append(out, host.MCPCheck(Host, path, reg, problem, err, env.Governance))
	}
	return out
}

// hooksOff reports whether a Copilot settings file sets disableAllHooks.
// Copilot writes // comment lines at the top of its files, which are read
// past; a file that cannot be read says nothing.
func hooksOff(path string) bool {
	data, err := os.ReadFile(path)
	if err != nil {
		return false
	}
	var lines []string
	for _, l := range strings.Split(string(data), "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "//") {
			lines = append(lines, l)
		}
	}
	var s struct {
		DisableAllHooks bool `json:"disableAllHooks"`
	}
	return json.Unmarshal([]byte(strings.Join(lines, "\n")), &s) == nil && s.DisableAllHooks
}
