package rulefiles

import (
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/project"
)

// maxRuleFile bounds a conditional rules file read to learn its globs; a
// larger one is skipped (logged).
const maxRuleFile = 256 << 10

// found is one rules file that applies to the touched files.
type found struct {
	rel  string // project-relative, slash-separated
	what string // for the agent: which files it governs
	text string // its content; "" when it is over the budget unread
	size int64
	hash string // of the content, part of the entry's id
}

// scope is what one event touched.
type scope struct {
	root  string
	files []string // project-relative, slash-separated
	cwd   string   // project-relative working directory, "" when outside
	host  *event.HostFacts
	// shell is set when the files are what a shell command printed (cat,
	// head, sed…): no host attaches nested rules to those.
	shell bool
}

// touched is the event's scope: the paths of a read, write or edit inside
// the project, or the files a shell command read with a plain reader
// (reads, the shell model's Effects.Reads: `cat pkg/a/x.go` shows the
// agent the file as surely as the read tool, and agents, Codex's above
// all, read files that way). A shell command's writes are left out: its
// effects list what it may change, not what the agent will work on. A
// failed call touched nothing.
func touched(ev *event.Event, reads func() []string) (scope, bool) {
	paths := ev.Tool.Paths
	switch ev.Tool.Name {
	case event.Read, event.Write, event.Edit:
	case event.Shell:
		if ev.Failed {
			return scope{}, false
		}
		paths = reads()
	default:
		return scope{}, false
	}
	root := ev.ProjectDir
	if root == "" {
		root = ev.Cwd
	}
	if ev.Failed || root == "" || len(paths) == 0 {
		return scope{}, false
	}
	s := scope{root: root, host: ev.HostFacts(), cwd: inside(root, ev.Cwd, ""), shell: ev.Tool.Name == event.Shell}
	for _, p := range paths {
		if rel := inside(root, p, ev.Cwd); rel != "" && rel != "." {
			s.files = append(s.files, rel)
		}
	}
	return s, len(s.files) > 0
}

// inside is p relative to root, slash-separated, or "" when p is not below
// root. A relative p is taken from cwd.
func inside(root, p, cwd string) string {
	rel, _ := project.Rel(root, cwd, p)
	return rel
}

// dirRules are the rules files of the directories from the root down to
// each touched file's directory, parents first, each once.
func dirRules(s scope, o Options, sk skip, logf func(string, ...any)) []found {
	var names []string
	if o.File != "" && !isClaudeFile(o.File) {
		names = append(names, o.File)
	}
	if o.Readme {
		names = append(names, readme)
	}
	seen := map[string]bool{}
	var out []found
	for _, f := range s.files {
		for _, dir := range levels(path.Dir(f)) {
			for _, name := range names {
				rel := path.Join(dir, name)
				if seen[rel] || hostHas(sk, s.cwd, dir, name, o.File) {
					continue
				}
				seen[rel] = true
				if r, ok := readRules(s.root, rel, o.Budget, logf); ok {
					r.what = "files under " + dir + "/"
					if dir == "." {
						r.what = "the whole project"
					}
					out = append(out, r)
				}
			}
		}
	}
	return out
}

// hostHas reports whether the host already put dir's name into the
// agent's context; the root's rules file is the session context's.
func hostHas(sk skip, cwd, dir, name, file string) bool {
	if name != file {
		return false
	}
	switch {
	case dir == ".":
		return true
	case sk.nested:
		return true
	case sk.upToCwd && cwd != "" && (cwd == dir || strings.HasPrefix(cwd, dir+"/")):
		return true
	}
	return false
}

// levels are dir and its parents, the root (".") first.
func levels(dir string) []string {
	out := []string{"."}
	if dir == "." {
		return out
	}
	for i := range len(dir) {
		if dir[i] == '/' {
			out = append(out, dir[:i])
		}
	}
	return append(out, dir)
}

// readRules reads one rules file if it is there: one lstat when it is not.
// A file larger than the budget is not read; its note says to read it.
func readRules(root, rel string, budget int, logf func(string, ...any)) (found, bool) {
	fi, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel)))
	switch {
	case err != nil:
		if !errors.Is(err, fs.ErrNotExist) {
			logf("rules: %s skipped: %v", rel, err)
		}
		return found{}, false
	case !fi.Mode().IsRegular():
		logf("rules: %s skipped: not a regular file (%s)", rel, fi.Mode().Type())
		return found{}, false
	case fi.Size() > int64(budget):
		return found{rel: rel, size: fi.Size(), hash: "big" + strconv.FormatInt(fi.Size(), 36)}, true
	}
	data, err := confined.ReadFile(root, filepath.FromSlash(rel), int64(budget))
	if err != nil {
		logf("rules: %s skipped: %v", rel, err)
		return found{}, false
	}
	return found{rel: rel, text: strings.TrimSpace(string(data)), size: int64(len(data)), hash: hashOf(data)}, true
}

// condRules are the conditional rules whose globs match a touched file.
func condRules(s scope, o Options, sk skip, logf func(string, ...any)) []found {
	var out []found
	for _, dir := range o.Dirs {
		dir = path.Clean(filepath.ToSlash(dir))
		if !filepath.IsLocal(dir) || slices.Contains(sk.dirs, dir) {
			continue
		}
		if fi, err := os.Lstat(filepath.Join(s.root, filepath.FromSlash(dir))); err != nil || !fi.IsDir() {
			continue
		}
		out = append(out, condDir(s, dir, o.Budget, logf)...)
	}
	return out
}

// condDir reads one conditional rules directory.
func condDir(s scope, dir string, budget int, logf func(string, ...any)) []found {
	d, err := confined.OpenDir(s.root, filepath.FromSlash(dir))
	if err != nil {
		logf("rules: %s skipped: %v", dir, err)
		return nil
	}
	defer d.Close()
	names, err := d.Names()
	if err != nil {
		logf("rules: %s skipped: %v", dir, err)
		return nil
	}
	var out []found
	for _, name := range names {
		if !strings.HasSuffix(name, ".md") && !strings.HasSuffix(name, ".mdc") {
			continue
		}
		rel := dir + "/" + name
		data, err := d.ReadFile(name, maxRuleFile)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				logf("rules: %s skipped: %v", rel, err)
			}
			continue
		}
		r := parseRule(data)
		if r.body == "" || !r.always && !matchAny(r.globs, s.files) {
			continue
		}
		f := found{rel: rel, size: int64(len(r.body)), hash: hashOf(data), what: "every file"}
		if !r.always {
			f.what = "files matching " + strings.Join(r.globs, ", ")
		}
		if len(r.body) <= budget {
			f.text = r.body
		}
		out = append(out, f)
	}
	return out
}

// matchAny reports whether a glob matches one of the files. A glob without
// a slash matches a file's name in any directory, as Cursor's "*.ts" does.
func matchAny(globs, files []string) bool {
	for _, g := range globs {
		for _, f := range files {
			if doublestar.MatchUnvalidated(g, f) || !strings.Contains(g, "/") && doublestar.MatchUnvalidated(g, path.Base(f)) {
				return true
			}
		}
	}
	return false
}

// hashOf is a short hash of a file's content: an edited file gets a new
// entry id, so the collector delivers it again.
func hashOf(data []byte) string {
	h := fnv.New64a()
	h.Write(data)
	return fmt.Sprintf("%08x", uint32(h.Sum64()))
}
