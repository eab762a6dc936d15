package initplan

import (
	"cmp"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/tasks"
)

// Plan is what init is to do: the preset, and the hosts with the scope
// of each.
type Plan struct {
	Preset config.Preset
	Hosts  []*host.Host
	Scopes []install.Scope
	// Binary is what the hooks of a scope run (see host.BinaryFor).
	Binary func(install.Scope) (string, error)
}

// Applied is what one run of the plan did.
type Applied struct {
	Reports []install.Report
	Trust   TrustResult
}

// Apply writes the preset into the project file of paths, records the
// user's trust in it, and installs into each host as 'atreides install'
// does, leaving out what the preset does not install. It runs twice: in
// the scratch copy (env and paths there), then for real.
func (pl *Plan) Apply(env host.Env, paths config.Paths, now time.Time) (Applied, error) {
	var a Applied
	was := trustedBefore(paths)
	if err := WritePreset(paths.Project, pl.Preset); err != nil {
		return a, err
	}
	var err error
	if a.Trust, err = trustAfter(paths, was, now); err != nil {
		return a, err
	}
	c, err := config.Load(paths)
	if err != nil {
		return a, err
	}
	roster, err := agents.FromConfig(c.Agents)
	if err != nil {
		return a, fmt.Errorf("the agent roster: %w", err)
	}
	skip := Skip(pl.Preset, c.Governance.Enabled)
	for i, h := range pl.Hosts {
		bin, err := pl.Binary(pl.Scopes[i])
		if err != nil {
			return a, err
		}
		rep, err := h.Install(env, host.Options{Scope: pl.Scopes[i], Binary: bin, TimeoutSeconds: c.Hooks.TimeoutSeconds, Roster: roster, SkillDirs: all.SkillDirs(), Skip: skip})
		if err != nil {
			return a, fmt.Errorf("%s: %w", h.Name, err)
		}
		a.Reports = append(a.Reports, rep)
	}
	return a, nil
}

// seeds are the real paths the plan may touch or read, for the scratch
// copy: the configuration files, the project's own commands and skills,
// and for each host its files of every scope (HookFiles), those of the
// chosen scope, its agent and command folders and its backups.
func (pl *Plan) seeds(env host.Env, paths config.Paths) []string {
	out := []string{paths.Project, paths.User, paths.Trust,
		filepath.Join(env.ProjectDir, ".atreides", "commands"), filepath.Join(env.ProjectDir, filepath.FromSlash(agents.SkillsDir))}
	for _, d := range all.SkillDirs() {
		if !filepath.IsAbs(d) {
			d = filepath.Join(env.ProjectDir, filepath.FromSlash(d))
		}
		out = append(out, d)
	}
	for i, h := range pl.Hosts {
		sc := pl.Scopes[i]
		out = append(out, h.HookFiles(env)...)
		out = append(out, h.Path(env, sc))
		if h.Agents.Dir != nil {
			out = append(out, h.Agents.Dir(env, sc))
		}
		if h.Commands.Dir != nil {
			out = append(out, h.Commands.Dir(env, sc))
		}
	}
	var clean []string
	for _, p := range out {
		if p != "" {
			clean = append(clean, filepath.Clean(strings.TrimSuffix(p, "/")))
		}
	}
	return clean
}

// Change is one file the plan creates, changes or removes.
type Change struct {
	Path   string `json:"path"`   // the real path
	Action string `json:"action"` // create, change or remove
	Old    string `json:"-"`
	New    string `json:"-"`
}

// Preview runs the plan in a scratch copy and returns what it changes. A
// file the run creates there but that exists for real was not copied:
// it is added and the run made again from a fresh copy.
func (pl *Plan) Preview(env host.Env, paths config.Paths, now time.Time) ([]Change, error) {
	seeds := pl.seeds(env, paths)
	for range 4 {
		changes, missed, err := pl.previewOnce(env, paths, seeds, now)
		if err != nil || len(missed) == 0 {
			return changes, err
		}
		seeds = append(seeds, missed...)
	}
	return nil, errors.New("init: could not copy what install touches; run 'atreides install' instead")
}

func (pl *Plan) previewOnce(env host.Env, paths config.Paths, seeds []string, now time.Time) (changes []Change, missed []string, err error) {
	dir, err := os.MkdirTemp("", "atreides-init-")
	if err != nil {
		return nil, nil, fmt.Errorf("init: %w", err)
	}
	defer os.RemoveAll(dir)
	s := &scratch{dir: dir, real: env}
	s.trust = s.paths(paths).Trust
	if err := s.copyBackups(pl); err != nil {
		return nil, nil, err
	}
	for _, p := range seeds {
		if err := s.copyIn(p); err != nil {
			return nil, nil, err
		}
	}
	before, err := s.snapshot()
	if err != nil {
		return nil, nil, err
	}
	if _, err := pl.Apply(s.env(), s.paths(paths), now); err != nil {
		return nil, nil, err
	}
	after, err := s.snapshot()
	if err != nil {
		return nil, nil, err
	}
	changes = s.changes(before, after)
	for _, c := range changes {
		if _, err := os.Lstat(c.Path); c.Action == "create" && err == nil && !s.has(c.Path) {
			missed = append(missed, c.Path)
		}
	}
	return changes, missed, nil
}

// changes are the files that differ between two snapshots of s, by real
// path, sorted; contents name the real places, not the scratch copy's.
func (s *scratch) changes(before, after map[string]string) []Change {
	var out []Change
	real := func(text string) string {
		text = strings.ReplaceAll(text, filepath.Join(s.dir, "project"), s.real.ProjectDir)
		text = strings.ReplaceAll(text, filepath.Join(s.dir, "home"), s.real.Home)
		return strings.ReplaceAll(text, filepath.Join(s.dir, "root"), "")
	}
	for p, b := range after {
		a, ok := before[p]
		if p == s.trust {
			a, b = s.trustAs(a), s.trustAs(b)
		}
		switch {
		case !ok:
			out = append(out, Change{Path: s.from(p), Action: "create", New: real(b)})
		case a != b:
			out = append(out, Change{Path: s.from(p), Action: "change", Old: real(a), New: real(b)})
		}
	}
	for p, a := range before {
		if _, ok := after[p]; !ok {
			out = append(out, Change{Path: s.from(p), Action: "remove", Old: real(a)})
		}
	}
	slices.SortFunc(out, func(x, y Change) int {
		return cmp.Or(cmp.Compare(s.area(x.Path), s.area(y.Path)), strings.Compare(x.Path, y.Path))
	})
	return out
}

// area orders the changes: the project's files, then the home's, then
// any other.
func (s *scratch) area(p string) int {
	switch {
	case within(s.real.ProjectDir, p):
		return 0
	case within(s.real.Home, p):
		return 1
	}
	return 2
}

// Shown is how a path is shown: relative to the project, ~/ for the
// home, else as it is.
// (A home inside the project, as in tests, is the home: the deeper base
// wins.)
func Shown(env host.Env, p string) string {
	bases := []struct{ base, prefix string }{{env.ProjectDir, ""}, {env.Home, "~/"}}
	if len(env.Home) > len(env.ProjectDir) {
		bases[0], bases[1] = bases[1], bases[0]
	}
	for _, b := range bases {
		if within(b.base, p) {
			rel, _ := filepath.Rel(b.base, p)
			return b.prefix + filepath.ToSlash(rel)
		}
	}
	return p
}

// Diff is the unified diff of one change, with the paths as shown.
func Diff(env host.Env, c Change) string {
	a, b := "a/"+Shown(env, c.Path), "b/"+Shown(env, c.Path)
	switch c.Action {
	case "create":
		a = "/dev/null"
	case "remove":
		b = "/dev/null"
	}
	return tasks.UnifiedDiff(a, b, c.Old, c.New, 2000)
}
