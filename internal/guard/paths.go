package guard

import (
	"errors"
	"path"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

type pathClass int

const (
	pcUnknown pathClass = iota // cannot be resolved statically
	pcRoot                     // "/"
	pcHome                     // a home directory itself (or all of it)
	pcSystem                   // under an operating-system directory
	pcTemp                     // under a temp dir, after ".." is resolved
	pcProject                  // the project root, the cwd, or one of their ancestors
	pcInside                   // inside the project or cwd
	pcOutside                  // anything else
)

// target is a classified path argument.
type target struct {
	class     pathClass
	abs       string // canonical path ("" when unknown)
	glob      bool   // the argument expands to the children of abs
	stream    bool   // the argument is supplied at run time under abs
	git       bool   // inside a .git directory or is one
	homeFile  bool   // a dotfile or dot-directory directly under a home
	underHome bool   // somewhere inside a user's home directory
	fromFind  bool   // a run-time path under a find root
	envDep    bool   // resolved through an assumed environment value ($TMPDIR)
	dotGlob   bool   // a glob of hidden entries (.*), which matches .git
	// allChildren: the argument is `*` in a directory (./*, dir/*),
	// every entry of abs but the hidden ones.
	allChildren bool
}

func (req *Request) underHome(p string) bool {
	for _, h := range req.homes() {
		if strings.HasPrefix(p, h+"/") {
			return true
		}
	}
	for _, hp := range homeParents {
		if strings.HasPrefix(p, hp+"/") {
			return true
		}
	}
	return false
}

func (t target) critical() bool {
	return t.class == pcRoot || t.class == pcHome || t.class == pcSystem || t.homeFile
}

var systemDirs = []string{
	"/etc", "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot", "/dev", "/proc",
	"/sys", "/var", "/opt", "/srv", "/root", "/System", "/Library", "/Applications", "/private",
	"/snap", "/nix", "/run", "/cores", "/Volumes", "/mnt", "/media",
}

// homeParents hold users' home directories.
var homeParents = []string{"/home", "/Users"}

func under(p, dir string) bool {
	return p == dir || dir == "/" || strings.HasPrefix(p, dir+"/")
}

var errPathTooLong = errors.New("path longer than the system resolves")

// memoResolve wraps the request's resolver in a memo for the whole
// command: a path named again (a repeated argument, the secret check
// after the classification, a heredoc judged twice) costs no system
// call. Each new path is charged to the work budget by its length,
// which is what resolving it grows with.
func (a pathJudge) memoResolve(resolve func(string) (string, error)) func(string) (string, error) {
	type answer struct {
		p   string
		err error
	}
	var memo map[string]answer
	return func(p string) (string, error) {
		if v, ok := memo[p]; ok {
			return v.p, v.err
		}
		if memo == nil {
			memo = map[string]answer{}
		}
		v := answer{err: errPathTooLong}
		if len(p) <= shell.MaxPathLen {
			a.spend(1 + len(p)/workBytes)
			v.p, v.err = resolve(p)
		}
		memo[p] = v
		return v.p, v.err
	}
}

// pathMemo keeps, for one request, the paths canon and classify have
// worked out: the rules of one command ask about the same argument many
// times (every rm rule classifies every operand), and a long list often
// repeats its directories.
type pathMemo struct {
	// names canonicalises path arguments and knows the links the command
	// creates (selfeffect.go); a new link clears targets too.
	names   shell.Paths
	targets map[targetKey]target
	// made are the files the command writes, for a script or binary
	// run from disk after it was written (selfeffect.go).
	made map[string]madeFile
	// copies are the copies the command makes of an installed atreides
	// program: running one is running atreides.
	copies map[string]bool
}

// canonKey is everything canon reads: the argument and the directory it
// is relative to (the home and resolver are the request's).
type canonKey struct {
	s, cwd string
	cwdOK  bool
}

// targetKey is everything classify reads of its word and scope.
type targetKey struct {
	canonKey
	findDir                   string
	dyn, glob, stream, envDep bool
}

// classify places a path argument relative to root, home, system dirs,
// temp dirs and the project.
func (a pathJudge) classify(w shell.Word, sc *shell.Scope) target {
	k := targetKey{canonKey: canonKey{s: w.Text, cwd: sc.Cwd, cwdOK: sc.CwdOK}, findDir: sc.FindDir,
		dyn: w.Dyn, glob: w.Glob, stream: w.Stream, envDep: w.EnvDep}
	if t, ok := a.paths.targets[k]; ok {
		return t
	}
	t := a.classifyOnce(w, sc)
	if a.paths.targets == nil {
		a.paths.targets = map[targetKey]target{}
	}
	a.paths.targets[k] = t
	return t
}

func (a pathJudge) classifyOnce(w shell.Word, sc *shell.Scope) target {
	w = underFindDir(w, sc)
	s := w.Text
	t := target{glob: w.Glob, stream: w.Stream, envDep: w.EnvDep}
	t.dotGlob = w.Glob && !w.Dyn && strings.HasPrefix(path.Base(s), ".") && shell.HasGlob(path.Base(s))
	t.allChildren = w.Glob && !w.Dyn && path.Base(s) == "*"
	if w.Dyn {
		t.fromFind = w.Stream && strings.HasSuffix(s[:strings.IndexByte(s, 0)], "/")
		prefix, ok := knownPrefix(w, sc)
		if !ok {
			return t
		}
		s = prefix
		t.glob = true
	}
	if s == "" {
		return t
	}
	if t.glob || shell.HasGlob(s) {
		t.glob = true
		s = globBase(s)
	}
	p, ok := a.canon(s, sc)
	if !ok {
		t.class = pcOutside
		return t
	}
	t.abs = p
	t.git = strings.Contains(p+"/", "/.git/")
	t.class = a.req.classAbs(p, sc)
	if t.glob && t.class == pcProject && (p == sc.CwdIf() || p == a.req.projectRoot(sc)) {
		// ./build-* or ./*: the children of the project, not the project.
		t.class = pcInside
	}
	t.underHome = a.req.underHome(p)
	if t.class == pcOutside || t.class == pcInside {
		for _, h := range a.req.homes() {
			if path.Dir(p) == h && strings.HasPrefix(path.Base(p), ".") {
				t.homeFile = true
			}
		}
	}
	return t
}

// underFindDir: a relative path in the command of find -execdir is
// relative to each match's directory, somewhere under find's start point.
func underFindDir(w shell.Word, sc *shell.Scope) shell.Word {
	if sc.FindDir != "" && !w.Dyn && w.Text != "" && !strings.HasPrefix(w.Text, "/") && !strings.HasPrefix(w.Text, "~") && !strings.Contains(w.Text, "{}") {
		w.Text = sc.FindDir + "\x00/" + w.Text
		w.Dyn, w.Stream = true, true
	}
	return w
}

// knownPrefix is the directory a computed path certainly lies under: the
// known text before its unknown part, up to a slash; "." for a stream
// word in a known directory; ok is false when nothing is known.
func knownPrefix(w shell.Word, sc *shell.Scope) (string, bool) {
	i := strings.IndexByte(w.Text, 0)
	prefix := w.Text[:i]
	if prefix != "" && strings.HasSuffix(prefix, "/") {
		return prefix, true
	}
	if prefix != "" && i > 0 {
		prefix = path.Dir(prefix)
		if prefix == "." {
			prefix = ""
		}
	}
	if prefix == "" {
		if w.Stream && sc.CwdOK {
			return ".", true
		}
		return "", false
	}
	return prefix, true
}

// globBase strips the glob components: /home/u/*.md -> /home/u.
func globBase(s string) string {
	parts := strings.Split(s, "/")
	for i, p := range parts {
		if shell.HasGlob(p) {
			b := strings.Join(parts[:i], "/")
			if b == "" && strings.HasPrefix(s, "/") {
				return "/"
			}
			if b == "" {
				return "."
			}
			return b
		}
	}
	return s
}

func (req *Request) homes() []string {
	if req.Home != "" {
		return []string{path.Clean(req.Home)}
	}
	return nil
}

func (req *Request) classAbs(p string, sc *shell.Scope) pathClass {
	if p == "/" {
		return pcRoot
	}
	for _, h := range req.homes() {
		if p == h {
			return pcHome
		}
	}
	for _, hp := range homeParents {
		if p == hp || path.Dir(p) == hp {
			if !req.inProject(p, sc) {
				return pcHome
			}
		}
	}
	// The project root (and the cwd, and their parents) and the home
	// directory are never scratch space, even when they live under a
	// temp dir (HOME=/tmp in containers, a checkout in /tmp): decide them
	// before the temp exemption, like `..`.
	proj := req.projectRoot(sc)
	for _, base := range []string{proj, sc.CwdIf()} {
		if base == "" {
			continue
		}
		if p == base || under(base, p) {
			return pcProject
		}
	}
	// Inside the project before the temp exemption: a checkout under /tmp
	// keeps its .git and .atreides protected.
	if req.inProject(p, sc) {
		return pcInside
	}
	if req.isTemp(p) && !req.inTempHome(p) && !keptInTemp(p) {
		return pcTemp
	}
	if req.userCache(p) {
		return pcTemp // regenerable like scratch space (userCaches)
	}
	for _, d := range systemDirs {
		if under(p, d) {
			return pcSystem
		}
	}
	return pcOutside
}

// userCaches are the regenerable download and build caches of package
// managers and build tools, relative to a home directory: deleting them
// costs a re-download or a rebuild, so they count as scratch space. An
// entry ending in "/" names the entries below it (~/.cache/pip, not
// ~/.cache as a whole); the others name the directory itself too. The
// tools' config and credentials beside them (~/.m2/settings.xml,
// ~/.cargo/credentials.toml, ~/.npmrc, ~/.pub-cache/credentials.json) are
// not caches.
var userCaches = []string{
	".cache/", "Library/Caches/", "Library/Developer/Xcode/DerivedData",
	".npm/_cacache", ".npm/_npx", ".npm/_logs", ".yarn/cache", ".pnpm-store", ".local/share/pnpm/store", ".bun/install/cache",
	".cargo/registry", ".cargo/git", ".rustup/downloads", ".rustup/tmp",
	".m2/repository", ".gradle/caches", ".gradle/wrapper/dists", ".gradle/daemon", ".ivy2/cache", ".ivy2/local", ".sbt/boot", ".coursier/cache",
	".nuget/packages", ".local/share/NuGet/http-cache", ".local/share/NuGet/v3-cache", ".cabal/packages", ".julia/compiled", ".pub-cache/hosted", ".pub-cache/git", "go/pkg/mod", "go/pkg/sumdb",
	".conda/pkgs", "miniconda3/pkgs", "anaconda3/pkgs", "miniforge3/pkgs", ".composer/cache",
	".android/cache", ".android/build-cache", ".terraform.d/plugin-cache", ".expo/cache", ".node-gyp",
}

// userCache: p is in one of a home's userCaches.
func (req *Request) userCache(p string) bool {
	for _, rel := range req.homeRels(p) {
		for _, f := range userCaches {
			if strings.HasSuffix(f, "/") && strings.HasPrefix(rel, f) && len(rel) > len(f) || under(rel, f) {
				return true
			}
		}
	}
	return false
}

// inTempHome: p is inside a home directory that itself lies in a temp
// dir; the home's contents are the user's files, not scratch.
func (req *Request) inTempHome(p string) bool {
	for _, h := range req.homes() {
		if h != "/" && under(p, h) && req.isTemp(h) {
			return true
		}
	}
	return false
}

// keptInTemp: a repository's .git and atreides's own .atreides directory
// are not scratch space even under a temp dir.
func keptInTemp(p string) bool {
	return strings.Contains(p+"/", "/.git/") || strings.Contains(p+"/", "/.atreides/")
}

// isTemp: p is in a temp dir of the request or a well-known one.
func (req *Request) isTemp(p string) bool {
	for _, t := range req.TempDirs {
		if t != "" && under(p, path.Clean(t)) {
			return true
		}
	}
	return under(p, "/tmp") || under(p, "/var/tmp") || under(p, "/private/tmp") || under(p, "/private/var/folders") || under(p, "/var/folders")
}

func (req *Request) projectRoot(sc *shell.Scope) string {
	if req.ProjectRoot != "" {
		return path.Clean(req.ProjectRoot)
	}
	return path.Clean(req.Cwd)
}

func (req *Request) inProject(p string, sc *shell.Scope) bool {
	proj := req.projectRoot(sc)
	if req.ProjectRoot == "" && req.Cwd == "" {
		proj = ""
	}
	if proj != "" && proj != "/" && proj != "." && strings.HasPrefix(p, proj+"/") {
		return true
	}
	cwd := sc.CwdIf()
	if cwd != "" && cwd != "/" && strings.HasPrefix(p, cwd+"/") {
		return cwdIsSafe(cwd, req)
	}
	return false
}

// cwdIsSafe: a cwd that is the home directory or a system directory does
// not make its subtree "the project".
func cwdIsSafe(cwd string, req *Request) bool {
	for _, h := range req.homes() {
		if cwd == h {
			return false
		}
	}
	for _, d := range systemDirs {
		if under(cwd, d) {
			return false
		}
	}
	return true
}

// criticalFiles are single files whose removal or overwrite breaks the
// system or the user's login.
var criticalFiles = []string{
	"/etc/passwd", "/etc/shadow", "/etc/sudoers", "/etc/group", "/etc/gshadow", "/etc/fstab",
	"/etc/hosts", "/etc/crontab", "/etc/pam.d", "/etc/sudoers.d", "/etc/ssh/sshd_config", "/boot",
	"/etc/resolv.conf", "/etc/security", "/etc/master.passwd",
}

func isCriticalFile(p string) bool {
	for _, f := range criticalFiles {
		if under(p, f) {
			return true
		}
	}
	return false
}

// startupFiles run code at login or at a scheduled time, relative to a
// home directory; a trailing "/" names a directory whose every file
// counts. Writing them is persistence (fs.write-startup).
var startupFiles = []string{".bashrc", ".bash_profile", ".profile", ".zshrc", ".zprofile", ".zshenv", ".zlogin",
	".zlogout", ".bash_login", ".bash_logout", ".bash_aliases", ".kshrc", ".mkshrc", ".cshrc", ".tcshrc", ".login",
	".xprofile", ".xinitrc", ".xsession", ".xsessionrc", ".pam_environment", ".config/fish/config.fish",
	".config/fish/conf.d/", ".config/fish/functions/", ".config/autostart/", ".config/systemd/user/",
	".local/share/systemd/user/", ".config/environment.d/", "Library/LaunchAgents/", ".ssh/authorized_keys",
	".ssh/authorized_keys2", ".ssh/rc", ".gitconfig", ".config/git/config", ".config/git/attributes"}

// systemStartup are the machine-wide equivalents (absolute; "/" suffix =
// directory).
var systemStartup = []string{"/etc/profile", "/etc/profile.d/", "/etc/bash.bashrc", "/etc/bashrc", "/etc/zshrc",
	"/etc/zshenv", "/etc/zprofile", "/etc/zlogin", "/etc/zsh/", "/etc/fish/", "/etc/environment", "/etc/rc.local",
	"/etc/cron.d/", "/etc/cron.hourly/", "/etc/cron.daily/", "/etc/cron.weekly/", "/etc/cron.monthly/",
	"/etc/anacrontab", "/var/spool/cron/", "/var/spool/cron/crontabs/", "/etc/systemd/system/", "/etc/systemd/user/",
	"/etc/xdg/autostart/", "/etc/ld.so.preload", "/etc/update-motd.d/", "/Library/LaunchAgents/",
	"/Library/LaunchDaemons/", "/etc/gitconfig"}

// matchEntry: rel is the entry f itself or, for a directory entry, a path
// under it.
func matchEntry(rel, f string) bool {
	if strings.HasSuffix(f, "/") {
		return strings.HasPrefix(rel, f) && len(rel) > len(f) || rel == strings.TrimSuffix(f, "/")
	}
	return rel == f
}

func (req *Request) isStartupFile(p string) bool {
	for _, f := range systemStartup {
		if matchEntry(p, f) {
			return true
		}
	}
	for _, rel := range req.homeRels(p) {
		for _, f := range startupFiles {
			if matchEntry(rel, f) {
				return true
			}
		}
	}
	return false
}

// homeRels returns p relative to the request's home and to any user's home
// under /home or /Users (a path may be both).
func (req *Request) homeRels(p string) []string {
	var out []string
	for _, h := range req.homes() {
		if strings.HasPrefix(p, h+"/") {
			out = append(out, p[len(h)+1:])
		}
	}
	for _, hp := range homeParents {
		if strings.HasPrefix(p, hp+"/") {
			rest := strings.SplitN(strings.TrimPrefix(p, hp+"/"), "/", 2)
			if len(rest) == 2 {
				out = append(out, rest[1])
			}
		}
	}
	return out
}

// sensitive: secret files plus system files that are worth stealing.
func (a pathJudge) sensitive(s string, sc *shell.Scope) bool {
	if _, ok := a.secretPath(s, sc); ok {
		return true
	}
	p, ok := a.canon(s, sc)
	if !ok {
		return false
	}
	return oneOf(p, "/etc/passwd|/etc/shadow|/etc/sudoers") || strings.HasSuffix(p, "_history")
}

// secretPath asks the secret checker about one path argument.
func (a pathJudge) secretPath(s string, sc *shell.Scope) (string, bool) {
	if s == "" || strings.ContainsRune(s, 0) {
		return "", false
	}
	if a.req.Command != "" && a.publicKeyRead(s, sc) {
		return "", false
	}
	env := secretEnv{Cwd: sc.CwdIf(), Home: a.req.Home, ProjectRoot: a.req.ProjectRoot, Resolve: a.req.Resolve}
	if env.Cwd == "" {
		env.Cwd = a.req.Cwd
	}
	// Shell words arrive expanded: a `$` left in them is literal text.
	env.Literal = a.req.Command != ""
	reason, ok := a.checkSecret(s, env)
	if !ok {
		return "", false
	}
	// The secrets package writes a complete instruction; the rule id is
	// in the Result already, so the path plus that text is the reason.
	return s + ": " + reason, true
}

// metadataOnly commands use a path without reading its contents (or use a
// key for its purpose), so a secret argument is not a read.
func metadataOnly(name string) bool {
	switch name {
	case "echo", "printf", "test", "[", "[[", "ls", "stat", "file",
		"du", "touch", "mkdir", "which", "type", "command", "basename", "dirname",
		"realpath", "readlink", "chmod", "chown", "chgrp", "ssh", "ssh-add", "ssh-keygen",
		"scp", "sftp", "git", "export", "local", "declare", "cd", "pushd",
		"find", "sudo", "env", "xargs", "parallel", "time", "timeout", "nice",
		"nohup", "exec", "builtin", "doas", "watch", "busybox", "trap", "eval",
		"alias", "unalias":
		return true
	}
	return false
}

// secretArgs flags commands that read, copy or send a secret file named in
// their arguments (including `@file` and `--opt=file` forms).
func (a pathJudge) secretArgs(c *Cmd) {
	if templateSources(c) || keyUsedForPurpose(c) {
		// Templates: the destination is a write. A key used for its
		// purpose is not read (secrets.go).
		return
	}
	if metadataOnly(c.Name) || isShell(c.Name) || shell.IsInterpreter(c.Name) && c.Name != "source" {
		if oneOf(c.Name, "ssh|scp|git") {
			return
		}
		if !isShell(c.Name) && !shell.IsInterpreter(c.Name) {
			a.secretMetadata(c)
			return
		}
	}
	if c.Name == "tee" {
		return // tee writes its operands (secret.write in produce)
	}
	args := c.Args
	if grepLike(c.Name) {
		args = grepFiles(c)
	}
	if c.Name == "dd" {
		for _, w := range c.Args {
			if strings.HasPrefix(w.Text, "if=") && !w.Dyn {
				if m, ok := a.secretPath(w.Text[3:], c.Scope); ok {
					a.fire(ruleSecretRead, c, m)
					return
				}
			}
		}
	}
	for _, w := range args {
		s0, ok := argPathText(w)
		if !ok {
			continue
		}
		if w.Glob && !w.Dyn {
			// The shell expands it: judge the names it can match.
			if m, ok := a.exfil().secretGlob(w, c.Scope); ok {
				a.fire(ruleSecretRead, c, m)
				return
			}
			continue
		}
		var buf [3]string
		for _, s := range pathCandidates(&buf, s0) {
			if m, ok := a.secretPath(s, c.Scope); ok {
				a.fire(ruleSecretRead, c, m)
				return
			}
		}
	}
}

// argPathText is the text of an argument that may name a file: its own,
// or the guess of a computed one; ok is false for a computed argument
// without a guess and for text that is no path (blanks, a URL).
func argPathText(w shell.Word) (string, bool) {
	if w.Dyn && !w.HasGuess {
		return "", false
	}
	s := w.Text
	if w.Dyn {
		s = w.Guess
	}
	return s, !strings.ContainsAny(s, " \t\n") && !strings.Contains(s, "://")
}

// pathCandidates are the paths an argument may name: itself, a file
// given as @file, an option's value (--data=@file). They are kept in buf,
// so that judging every argument of every command allocates nothing.
func pathCandidates(buf *[3]string, s string) []string {
	cands := append(buf[:0], s)
	if strings.HasPrefix(s, "@") {
		cands = append(cands, s[1:])
	}
	if i := strings.IndexByte(s, '='); i > 0 && strings.HasPrefix(s, "-") {
		cands = append(cands, strings.TrimPrefix(s[i+1:], "@"))
	}
	return cands
}

func grepLike(n string) bool { return oneOf(n, "grep|egrep|fgrep|rg|ag|ack|git-grep") }

// grepValued are grep/rg options that take a separate value.
var grepValued = &lazy[map[string]bool]{src: func() map[string]bool {
	return map[string]bool{"-A": true, "-B": true, "-C": true, "-m": true, "-e": true, "-f": true,
		"--regexp": true, "--file": true, "-g": true, "--glob": true, "-t": true, "--type": true, "-T": true,
		"--type-not": true, "--max-count": true, "--context": true, "--after-context": true, "--before-context": true,
		"-d": true, "-D": true, "--include": true, "--exclude": true, "--exclude-dir": true, "-M": true, "-j": true}
}}

// grepFiles returns what grep/rg read: the files named as operands (the
// first operand is the pattern unless -e/-f gave one) and -f pattern
// files. Patterns (-e values, the first operand) are search text.
func grepFiles(c *Cmd) []shell.Word {
	var files []shell.Word
	patternGiven := false
	var operands []shell.Word
	args := c.Args
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.Text
		if w.Dyn || !strings.HasPrefix(s, "-") || s == "-" {
			operands = append(operands, w)
			continue
		}
		if s == "--" {
			operands = append(operands, args[i+1:]...)
			break
		}
		name, val, eq := strings.Cut(s, "=")
		if len(s) > 2 && s[1] != '-' {
			// Bundled short flags (-rf FILE, -nA2): the first valued
			// letter takes the rest of the word or the next argument.
			name, val, eq = "", "", false
			for j := 1; j < len(s); j++ {
				if f := "-" + s[j:j+1]; grepValued.get()[f] {
					name, val, eq = f, s[j+1:], j+1 < len(s)
					break
				}
			}
			if name == "" {
				continue
			}
		}
		if !eq && grepValued.get()[name] && i+1 < len(args) {
			i++
			val = args[i].Text
		}
		switch name {
		case "-e", "--regexp":
			patternGiven = true
		case "-f", "--file":
			patternGiven = true
			files = append(files, shell.Lit(val))
		case "--files":
			patternGiven = true
		}
	}
	if !patternGiven && len(operands) > 0 {
		operands = operands[1:]
	}
	return append(files, operands...)
}

// secretMetadata: ls/stat/test on a secret path does not read it, but
// strict mode does not allow touching secrets at all.
func (a pathJudge) secretMetadata(c *Cmd) {
	if a.p.sw("strict_unverifiable") == Allow {
		return
	}
	if _, ok := handlerOf(c.Name); ok {
		return
	}
	for _, w := range c.Args {
		if _, ok := a.secretPath(w.Text, c.Scope); ok && !w.Dyn {
			a.strict(c, c.Name+" uses a secret path")
			return
		}
	}
}

// writeTarget judges a file whose contents a command writes. Whether it
// is one of atreides's own files is ownWriteTarget's to say, once per
// write (noteWrite, checkPath, apiWrite).
func (a pathJudge) writeTarget(c *Cmd, w shell.Word, sc *shell.Scope) {
	if !a.judging() || w.Dyn || w.Proc != nil {
		return
	}
	s := w.Text
	if strings.HasPrefix(s, "/dev/tcp/") || strings.HasPrefix(s, "/dev/udp/") {
		a.fire(ruleExfilDevTcp, c, "writes to "+s)
		return
	}
	p, ok := a.canon(s, sc)
	if !ok {
		// Unknown cwd: the location is unknown, but a secret's name
		// (.env, id_rsa) is enough.
		if m, ok := a.secretPath(s, sc); ok {
			a.fire(ruleSecretWrite, c, m)
		}
		return
	}
	switch {
	case isBlockDevice(p):
		a.fire(ruleDiskWriteDevice, c, "writes to "+p)
	case isCriticalFile(p):
		a.fire(ruleFsWriteCritical, c, "writes to "+p)
	case a.req.isStartupFile(p):
		a.fire(ruleFsWriteStartup, c, "writes to "+p)
	default:
		if m, ok := a.secretPath(s, sc); ok && !a.templateCopy(c, p) {
			a.fire(ruleSecretWrite, c, m)
			return
		}
		if a.specialWrite(c, p) {
			return
		}
		if strings.HasPrefix(p, "/dev/") {
			return
		}
		for _, d := range []string{"/etc", "/usr", "/bin", "/sbin", "/lib", "/boot", "/System", "/Library", "/sys"} {
			if under(p, d) {
				a.fire(ruleFsWriteSystem, c, "writes to "+p)
			}
		}
	}
}

func isBlockDevice(p string) bool {
	if !strings.HasPrefix(p, "/dev/") {
		return false
	}
	d := strings.TrimPrefix(p, "/dev/")
	for _, pre := range []string{"sd", "hd", "vd", "xvd", "nvme", "mmcblk", "disk", "rdisk", "md", "dm-", "mapper/", "loop", "sr", "fd0", "nbd", "zd", "vg", "root"} {
		if strings.HasPrefix(d, pre) {
			return true
		}
	}
	return false
}

// repoMetadata: the project's own .git directory, its hooks or config
// (stale lock files and other internals are routinely removed).
func (req *Request) repoMetadata(p string, sc *shell.Scope) bool {
	for _, base := range []string{req.projectRoot(sc), sc.CwdIf()} {
		if base == "" {
			continue
		}
		g := base + "/.git"
		if p == g || under(p, g+"/hooks") || p == g+"/config" || p == g+"/HEAD" || p == g+"/refs" || p == g+"/objects" {
			return true
		}
	}
	return false
}

// canon resolves a path argument in the directory of sc to an absolute,
// clean path (shell.Paths.Canon); ok=false when a relative path meets an
// unknown cwd.
func (a pathJudge) canon(s string, sc *shell.Scope) (string, bool) {
	return a.paths.names.Canon(s, sc.Cwd, sc.CwdOK, a.spend)
}
