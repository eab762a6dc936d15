package layering

import (
	"encoding/json"
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"testing"
)

const module = "github.com/atreides-dev/atreides"

// pkg is one package of the module as `go list` describes it; paths are
// relative to the module ("internal/event", "cmd/atreides").
type pkg struct {
	Path    string
	Imports []string // the module's own, direct, relative
	Deps    []string // every dependency, transitive, absolute
	Dir     string
}

// own are the module's own transitive dependencies, relative.
func (p pkg) own() []string {
	var out []string
	for _, d := range p.Deps {
		if rel, ok := strings.CutPrefix(d, module+"/"); ok {
			out = append(out, rel)
		}
	}
	return out
}

var listed = sync.OnceValues(func() (map[string]pkg, error) {
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports,Deps,Dir", module+"/...").Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return nil, errors.New("go list: " + string(ee.Stderr))
		}
		return nil, err
	}
	pkgs := map[string]pkg{}
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for {
		var raw struct {
			ImportPath string
			Imports    []string
			Deps       []string
			Dir        string
		}
		if err := dec.Decode(&raw); err == io.EOF {
			break
		} else if err != nil {
			return nil, err
		}
		rel, ok := strings.CutPrefix(raw.ImportPath, module+"/")
		if !ok {
			continue
		}
		p := pkg{Path: rel, Deps: raw.Deps, Dir: raw.Dir}
		for _, i := range raw.Imports {
			if r, ok := strings.CutPrefix(i, module+"/"); ok {
				p.Imports = append(p.Imports, r)
			}
		}
		pkgs[rel] = p
	}
	return pkgs, nil
})

func packages(t *testing.T) map[string]pkg {
	t.Helper()
	pkgs, err := listed()
	if err != nil {
		t.Fatal(err)
	}
	return pkgs
}

// A set names packages: an exact path, or a path ending in "/..." for the
// folder and everything below it.
type set []string

func (s set) has(path string) bool {
	for _, m := range s {
		if base, ok := strings.CutSuffix(m, "/..."); ok {
			if path == base || strings.HasPrefix(path, base+"/") {
				return true
			}
		} else if m == path {
			return true
		}
	}
	return false
}

// features are the packages that register handlers with the engine.
var features = set{
	"internal/agents", "internal/background", "internal/comments",
	"internal/delegation", "internal/editcheck", "internal/governance",
	"internal/outputs", "internal/policy", "internal/readfirst",
	"internal/rulefiles", "internal/session", "internal/tasks", "internal/ctxtiers",
}

// wiring are the packages that put the product together: the command
// line, the hook runtime, the installer and the hosts. Nothing below them
// may reach them.
var wiring = set{"internal/cli/...", "internal/hook", "internal/install", "internal/host/..."}

// basics are building blocks that know nothing of atreides (a value
// built on first use), like the standard library's: every package may
// use them, and they import nothing of the module.
var basics = set{"internal/lazy"}

// rule: no package of from may depend, directly or not, on one of
// mustNot (a package depends on itself, so a set may meet itself).
type rule struct {
	from, mustNot set
	why           string
}

var rules = []rule{
	{basics, set{"internal/..."},
		"a building block knows nothing of atreides: it imports nothing of the module"},
	{set{"internal/event"}, set{"internal/..."},
		"the event is the vocabulary every package speaks: it imports nothing of the module"},
	{set{"internal/engine", "internal/state"}, append(slices.Clone(features), wiring...),
		"the engine and the state serve every feature; a feature plugs into them, never the reverse"},
	{features, wiring,
		"a feature reads what it needs of the host from the event; the command line and the installer put features together, not the reverse"},
	{set{"internal/shell"}, set{"internal/..."},
		"the shell model is pure: it says what a command does and judges nothing, so it knows no rule, policy or configuration"},
	{set{"internal/shellcall"}, append(slices.Clone(features), "internal/config"),
		"a command's effects need no policy or configuration: a feature learns them from shellcall, never through the guard's handler"},
	{set{"internal/hook"}, set{"internal/cli/..."},
		"the hook runtime serves the commands; it never reaches back into the command line"},
	{set{"internal/..."}, set{"cmd/..."},
		"commands are thin: they call internal packages, never the reverse"},
}

func TestLayers(t *testing.T) {
	pkgs := packages(t)
	for _, r := range rules {
		for _, p := range pkgs {
			if !r.from.has(p.Path) {
				continue
			}
			for _, d := range p.own() {
				if r.mustNot.has(d) && d != p.Path && !basics.has(d) {
					t.Errorf("%s depends on %s: %s", p.Path, d, r.why)
				}
			}
		}
	}
}

// commandShared is the one package under internal/cli/ that the
// command groups beside it may import.
const commandShared = "internal/cli/command"

// TestCommandGroups: a package under internal/cli/ is a group of commands
// that only the command line's root wires in; the groups share what they
// have in common through commandShared alone, so a command's code is
// found in its group and nowhere else.
func TestCommandGroups(t *testing.T) {
	pkgs := packages(t)
	if _, ok := pkgs[commandShared]; !ok {
		t.Fatalf("%s is gone: update the rule", commandShared)
	}
	for _, p := range pkgs {
		for _, d := range p.Imports {
			if !strings.HasPrefix(d, "internal/cli/") {
				continue
			}
			switch {
			case p.Path == "internal/cli":
			case strings.HasPrefix(p.Path, "internal/cli/") && d == commandShared:
			default:
				t.Errorf("%s imports %s: a command group is wired in by internal/cli alone, and groups share only %s", p.Path, d, commandShared)
			}
		}
	}
}

// TestRulesName: every package a rule names exists, so a rename cannot
// quietly switch a rule off.
func TestRulesName(t *testing.T) {
	pkgs := packages(t)
	for _, r := range rules {
		for _, s := range []set{r.from, r.mustNot} {
			for _, m := range s {
				found := false
				for p := range pkgs {
					if (set{m}).has(p) {
						found = true
						break
					}
				}
				if !found {
					t.Errorf("the rules name %s, which matches no package", m)
				}
			}
		}
	}
}
