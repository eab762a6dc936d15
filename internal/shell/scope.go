package shell

import (
	"maps"
	"path"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Scope is the shell state the analysis tracks through a script:
// variables, functions, the working directory, positional parameters.
type Scope struct {
	Vars    map[string]Word
	Funcs   map[string]*syntax.Stmt
	Calling map[string]bool
	Cwd     string
	CwdOK   bool
	// Host is the machine the command runs on when it is not this one
	// (the host of `ssh host cmd`), "" here.
	Host string
	// OldPwd is $OLDPWD once the command changed directory (cd -, ~-).
	OldPwd    string
	OldOK     bool
	IFSOK     bool
	IFS       string          // field separators when known
	Downloads map[string]bool // the files downloaded so far (NoteDownload)
	Pos       []Word          // $1... for sh -c '...' _ args and function calls
	HasPos    bool
	// FindDir is set for the command of find -execdir/-okdir: it runs in
	// the directory of each match, somewhere under this start point, so
	// a relative path there is as unknown as find's {}.
	FindDir string
	// FindClean is set for find's -delete and -exec commands when its
	// filters select only build outputs and caches.
	FindClean bool
}

// NewScope is the state at the start of a command run in cwd ("" when
// unknown). Its tables are made by the first write (SetVar, setFunc,
// setCalling, NoteDownload): most commands define nothing, and a hook
// walks a scope per command of a pipeline.
func NewScope(cwd string) *Scope {
	return &Scope{
		Cwd:   cwd,
		CwdOK: cwd != "",
		IFSOK: true,
		IFS:   " \t\n",
	}
}

// Clone is a copy for a subshell: changes to it do not reach s.
func (s *Scope) Clone() *Scope {
	c := *s
	c.Vars = cloneMap(s.Vars)
	c.Funcs = cloneMap(s.Funcs)
	c.Calling = cloneMap(s.Calling)
	c.Downloads = cloneMap(s.Downloads)
	return &c
}

// cloneMap is a copy of m, nil when m is empty: a scope makes its tables
// on the first write.
func cloneMap[K comparable, V any](m map[K]V) map[K]V {
	if len(m) == 0 {
		return nil
	}
	return maps.Clone(m)
}

// SetVar sets the variable name to w.
func (sc *Scope) SetVar(name string, w Word) {
	if sc.Vars == nil {
		sc.Vars = map[string]Word{}
	}
	sc.Vars[name] = w
}

// setFunc defines the function name.
func (sc *Scope) setFunc(name string, body *syntax.Stmt) {
	if sc.Funcs == nil {
		sc.Funcs = map[string]*syntax.Stmt{}
	}
	sc.Funcs[name] = body
}

// setCalling marks the function name as running.
func (sc *Scope) setCalling(name string) {
	if sc.Calling == nil {
		sc.Calling = map[string]bool{}
	}
	sc.Calling[name] = true
}

// downloadKey is how a downloaded path is remembered: absolute when the
// working directory is known, else the relative name as written.
func downloadKey(sc *Scope, p string) string {
	if path.IsAbs(p) {
		return path.Clean(p)
	}
	if sc.CwdOK && sc.Cwd != "" {
		return CleanJoin(sc.Cwd, p)
	}
	return "?/" + path.Clean(p)
}

// Downloaded reports whether p names a file downloaded earlier in the
// command. With an unknown working directory a relative name matches any
// download of that name.
func (sc *Scope) Downloaded(p string) bool {
	if len(sc.Downloads) == 0 || p == "" {
		return false
	}
	if sc.Downloads[downloadKey(sc, p)] {
		return true
	}
	if path.IsAbs(p) || sc.CwdOK {
		return false
	}
	suffix := "/" + path.Clean(p)
	for k := range sc.Downloads {
		if strings.HasSuffix(k, suffix) {
			return true
		}
	}
	return false
}

// CwdIf is the working directory when it is known, else "".
func (sc *Scope) CwdIf() string {
	if sc.CwdOK {
		return sc.Cwd
	}
	return ""
}

// NoteDownload records that the command downloads to p (curl -o p): a
// later command that runs p runs the download.
func (sc *Scope) NoteDownload(p string) {
	if sc.Downloads == nil {
		sc.Downloads = map[string]bool{}
	}
	sc.Downloads[downloadKey(sc, p)] = true
}

// Chdir changes sc's working directory as cd w would (the home when w
// is empty or ~, the previous one for -), keeping the one it leaves as
// $OLDPWD, and returns sc. An unknown w leaves the directory unknown.
func (sc *Scope) Chdir(w Word, home string) *Scope {
	prev, prevOK := sc.Cwd, sc.CwdOK
	defer func() {
		if sc.Cwd != prev || sc.CwdOK != prevOK {
			sc.OldPwd, sc.OldOK = prev, prevOK
		}
	}()
	if w.Dyn {
		sc.CwdOK = false
		return sc
	}
	p := w.Text
	if p == "" || p == "~" {
		p = home
	}
	if p == "-" {
		if sc.OldOK {
			sc.Cwd, sc.CwdOK = sc.OldPwd, true
			return sc
		}
		sc.CwdOK = false
		return sc
	}
	if !sc.CwdOK && !strings.HasPrefix(p, "/") {
		return sc
	}
	if strings.HasPrefix(p, "/") {
		sc.FindDir = ""
	}
	sc.Cwd = CleanJoin(sc.Cwd, p)
	sc.CwdOK = sc.Cwd != ""
	return sc
}
