// Package purge removes everything atreides keeps for a project, for
// 'atreides uninstall --purge': atreides's entries in every host's files
// of every scope, the managed section of AGENTS.md, the project's
// .atreides/, install's backups of user files, and the project's entries
// in the user's projects registry and trust record. It keeps the user's
// own configuration and other projects' entries. Asking first is the
// command line's job; Run removes.
package purge

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/view"
)

// Result is what a purge did ('uninstall --purge --json').
type Result struct {
	// Held is what .atreides/ held before it was removed.
	Held []Holding `json:"held"`
	// Uninstalled are the hosts' files atreides was taken out of.
	Uninstalled []install.Report `json:"uninstalled"`
	// Removed are the files and directories removed whole.
	Removed []string `json:"removed"`
	// Changed are shared files this project's entry was taken out of.
	Changed []string `json:"changed"`
	// Kept is what stays on purpose (the user's own configuration).
	Kept []string `json:"kept"`
	// Warnings are what could not be removed from files shared with other
	// projects (a damaged registry or trust record): the purge goes on.
	Warnings []string `json:"warnings"`
}

// Dir is the project's .atreides.
func Dir(env host.Env) string { return filepath.Join(env.ProjectDir, ".atreides") }

// Run purges the project of env; held is its Inventory, taken before the
// user was asked. The first failure to uninstall stops it before anything
// else is removed.
func Run(env host.Env, held []Holding) (Result, error) {
	res := Result{Held: view.List(held), Uninstalled: []install.Report{}, Removed: []string{}, Changed: []string{}, Kept: []string{}, Warnings: []string{}}
	var err error
	if res.Uninstalled, err = uninstallEverywhere(env); err != nil {
		return res, err
	}
	dir := Dir(env)
	if err := os.RemoveAll(dir); err != nil {
		return res, fmt.Errorf("remove %s: %w", dir, err)
	}
	if held != nil {
		res.Removed = append(res.Removed, dir)
	}
	return res, purgeUser(env, &res)
}

// stopped ends the error of an uninstall that failed.
const stopped = "; the purge stopped there and kept .atreides and the user backups, which uninstall needs: fix this and run it again"

// SectionFiles are the files the managed section may be in.
func SectionFiles(env host.Env) []string {
	files := []string{filepath.Join(env.ProjectDir, "AGENTS.md")}
	for _, h := range all.All() {
		// InstructionsFile picks among AGENTS.md and these.
		for _, name := range h.Facts.Instructions {
			if f := filepath.Join(env.ProjectDir, filepath.FromSlash(name)); !slices.Contains(files, f) {
				files = append(files, f)
			}
		}
	}
	return files
}

// uninstallEverywhere takes atreides out of every host's file of every
// scope, then the managed section, whose backup still sits in .atreides.
// A host's scopes go in reverse, the default last: it is usually the one
// installed first, and its undo record then holds the directories (such as
// .claude) that only it can remove, once the others have emptied them.
// The first failure stops the purge before anything else is removed: the
// backups it needs to finish are still there for another try.
func uninstallEverywhere(env host.Env) ([]install.Report, error) {
	reps := []install.Report{}
	for _, h := range all.All() {
		for _, sc := range slices.Backward(h.Scopes) {
			rep, err := h.Uninstall(env, sc)
			if err != nil {
				return reps, fmt.Errorf("%s (%s scope): %w%s", h.Name, sc, err, stopped)
			}
			if rep.Action != install.ActionNothingToDo {
				reps = append(reps, rep)
			}
		}
	}
	for _, path := range SectionFiles(env) {
		rep, err := install.RemoveSection(path, env.BackupDir(install.ScopeProject))
		if err != nil {
			return reps, fmt.Errorf("%w%s", err, stopped)
		}
		if rep.Action != install.ActionNothingToDo {
			reps = append(reps, rep)
		}
	}
	return reps, nil
}

// purgeUser removes what atreides keeps of this project in the user's
// directories: install's backups of user files (every user scope is
// uninstalled by now, so none is needed), the project's registry and
// trust entries; then atreides's own directories left empty. The user's
// config.yaml and other projects' entries stay. A link where atreides
// keeps its own directory or file is refused: nothing is removed through
// it, the rest goes on, and the refusals are the error at the end.
func purgeUser(env host.Env, res *Result) error {
	stateHome := env.Var("XDG_STATE_HOME")
	state := project.UserStateDir(env.Home, stateHome)
	var refused []error
	if err := removeBackups(state, res); err != nil {
		refused = append(refused, err)
	} else {
		forgot, err := project.Forget(env.ProjectDir)
		refused = appendRefusal(refused, splitChanged(res, forgot, err))
	}
	paths := config.DefaultPaths(env.ProjectDir)
	forgot, err := config.ForgetTrust(paths)
	refused = appendRefusal(refused, splitChanged(res, forgot, err))
	if _, err := os.Lstat(paths.User); err == nil {
		res.Kept = append(res.Kept, paths.User)
	}
	if len(refused) == 0 {
		res.Removed = append(res.Removed, removeEmpty(state, xdgDefault(env.Home, stateHome, ".local/state"))...)
	}
	if paths.User != "" {
		res.Removed = append(res.Removed, removeEmpty(filepath.Dir(paths.User), xdgDefault(env.Home, env.Var("XDG_CONFIG_HOME"), ".config"))...)
	}
	if len(refused) > 0 {
		return fmt.Errorf("%w; nothing was removed through it, the rest of the purge was done", errors.Join(refused...))
	}
	return nil
}

func appendRefusal(refused []error, err error) []error {
	if err != nil {
		return append(refused, err)
	}
	return refused
}

// removeBackups removes install's backups in state, atreides's state
// directory. Both are opened without following a link first: a state
// directory that is a link may lead to the user's own files (a backups
// directory of theirs), which must never go. A refusal is returned and
// nothing in state is removed. The removal itself does not follow links
// below backups.
func removeBackups(state string, res *Result) error {
	base, name := filepath.Dir(state), filepath.Base(state)
	d, err := confined.OpenDir(base, filepath.Join(name, "backups"))
	if errors.Is(err, fs.ErrNotExist) {
		// No backups: the state directory itself is still checked, as
		// the registry and the empty-directory clean-up use it.
		if d, err = confined.OpenDir(base, name); errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return refusedErr(err)
		}
		return d.Close()
	}
	if err != nil {
		return refusedErr(err)
	}
	backups := d.Path(".")
	_ = d.Close()
	if err := os.RemoveAll(backups); err != nil {
		return fmt.Errorf("remove %s: %w", backups, err)
	}
	res.Removed = append(res.Removed, backups)
	return nil
}

// refusedErr is err when it is a refusal (a link or other thing where
// atreides's directory belongs); any other error too, wrapped, as
// nothing can be removed from a directory that cannot be opened.
func refusedErr(err error) error {
	if errors.Is(err, confined.ErrRefused) {
		return err
	}
	return fmt.Errorf("atreides's state directory: %w", err)
}

// splitChanged files the paths a forget returned: those still there were
// changed, the others removed. Its error is a warning: the registry and
// the trust record are shared with other projects, and a damaged one is
// no reason to keep the rest. A refusal (a link where the record or its
// directory belongs) is returned instead, to fail the purge at the end.
func splitChanged(res *Result, paths []string, err error) error {
	for _, p := range paths {
		if _, serr := os.Lstat(p); serr == nil {
			res.Changed = append(res.Changed, p)
		} else {
			res.Removed = append(res.Removed, p)
		}
	}
	if errors.Is(err, confined.ErrRefused) {
		return err
	}
	if err != nil {
		res.Warnings = append(res.Warnings, "this project's entry could not be removed: "+err.Error())
	}
	return nil
}

// xdgDefault lists the directories of an XDG base directory that atreides
// may remove when empty: the default one under home (rel: ".local/state")
// and its parents below home, since atreides made them when the user had
// none. A base directory the user set ($XDG_STATE_HOME) is the user's and
// stays.
func xdgDefault(home, xdg, rel string) []string {
	if filepath.IsAbs(xdg) || home == "" {
		return nil
	}
	var dirs []string
	for d := filepath.Join(home, rel); d != home && d != filepath.Dir(d); d = filepath.Dir(d) {
		dirs = append(dirs, d)
	}
	return dirs
}

// removeEmpty removes dir, atreides's own, when it is an empty directory,
// then each of parents in turn while each is. Nothing when dir is not
// there: then atreides made none of them.
func removeEmpty(dir string, parents []string) []string {
	var removed []string
	for _, d := range append([]string{dir}, parents...) {
		if fi, err := os.Lstat(d); err != nil || !fi.IsDir() || os.Remove(d) != nil {
			break
		}
		removed = append(removed, d)
	}
	return removed
}
