package doctor

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/slash"
)

// staleChecks: an atreides from before the host names (atreides-ID,
// /at-NAME) wrote its agents and commands under bare names, beside the
// hosts' own (plan, explore, review). The next install removes them; until
// then the host shows both. For each host with atreides's hooks in a
// scope, the scope's agent and command directories are looked through for
// files atreides marked under a name without the prefix.
func staleChecks(env host.Env, found []Host) []Check {
	return hookedScopes(found, func(h *host.Host, scope install.Scope) (Check, bool) {
		return staleIn(h, env, scope)
	})
}

// hookedScopes are the checks check finds, called for each scope of each
// registered host in found whose settings file has atreides's hooks.
func hookedScopes(found []Host, check func(*host.Host, install.Scope) (Check, bool)) []Check {
	var out []Check
	for _, fh := range found {
		h, ok := all.ByName(fh.Name)
		if !ok {
			continue
		}
		for i, st := range fh.Files {
			if len(st.Events) == 0 || i >= len(h.Scopes) {
				continue
			}
			if c, bad := check(h, h.Scopes[i]); bad {
				out = append(out, c)
			}
		}
	}
	return out
}

// staleIn is the check of one scope's directories.
func staleIn(h *host.Host, env host.Env, scope install.Scope) (Check, bool) {
	var names []string
	if h.Agents.Dir != nil {
		names = append(names, marked(h.Agents.Dir(env, scope), h.Agents.Form.Ext, agents.NamePrefix, h.Agents.Form.State)...)
	}
	if h.Commands.Dir != nil {
		names = append(names, marked(h.Commands.Dir(env, scope), h.Commands.Form.Ext, slash.NamePrefix, h.Commands.Form.State)...)
	}
	if len(names) == 0 {
		return Check{}, false
	}
	return Check{Name: h.Name + " old names", Status: "note", Detail: fmt.Sprintf(
		"%s: an earlier atreides's files under names the host's own may have; run 'atreides install %s' to remove them",
		strings.Join(names, ", "), h.Name)}, true
}

// marked are the files of dir with extension ext, not named with prefix,
// that state says atreides wrote.
func marked(dir, ext, prefix string, state func([]byte) install.FileState) []string {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []string
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || !strings.HasSuffix(n, ext) || strings.HasPrefix(n, prefix) {
			continue
		}
		data, err := os.ReadFile(filepath.Join(dir, n))
		if err == nil && state(data) != install.UserFile {
			out = append(out, filepath.Join(dir, n))
		}
	}
	return out
}
