package guard

import (
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Self-protection by effect: what a command does to atreides's own
// files, however it spells them. selfguard.go lists the protected set and
// judges a single written path; this file follows the ways a write
// reaches that set without naming it: links the command creates, trees
// copied, synced, extracted or merged over a directory that holds it,
// programs whose writes cannot be listed given a protected path, scripts
// and binaries written and then run, and the binary replaced or shadowed
// through PATH. See docs/guard-policy.md, "The guard protects itself".

// foldCase: the file system may ignore case (macOS and Windows by
// default), so .Atreides/CONFIG.yaml is .atreides/config.yaml. Judged
// conservatively: on those systems a path equal to a protected one but
// for case is that path.
var foldCase = runtime.GOOS == "darwin" || runtime.GOOS == "windows" // a constant: static data

// companions are the atreides programs installed beside atreides, and
// the atreides verb each one is (atreides-team is atreides itself).
func companionVerb(name string) (verb string, ok bool) {
	switch name {
	case TeamBinary:
		return "", true
	case MCPBinary:
		return "mcp", true
	case UIBinary:
		return "ui", true
	case OTelBinary:
		return "otel", true
	}
	return "", false
}

// atreidesProgramName: a file of this name in a directory on PATH is (or
// shadows) an atreides program.
func atreidesProgramName(base string) bool {
	if foldCase {
		base = strings.ToLower(base)
	}
	base = strings.TrimSuffix(base, ".exe")
	return base == "atreides" || strings.HasPrefix(base, "atreides-")
}

// onPath: p is a file named like an atreides program in a directory on
// PATH or in the install directory.
func onPath(o *ownPaths, p string) bool {
	return atreidesProgramName(path.Base(p)) && slices.Contains(o.dirsOnPath(), path.Dir(p))
}

// entries are every protected path of the request, for the checks that
// ask what lies under a directory.
func (o *ownPaths) entries() [][]string {
	return [][]string{o.trees, o.bins, o.plugins, o.hostFiles, o.hostDirs, o.containers}
}

// ownChildren are the names directly under the directory d through which
// a protected path is reached: a tree copied or extracted into d may
// create or replace them. A directory on PATH contributes the atreides
// programs' names.
func ownChildren(o *ownPaths, d string) []string {
	d = foldPath(d)
	var out []string
	add := func(n string) {
		for _, x := range out {
			if x == n {
				return
			}
		}
		out = append(out, n)
	}
	for _, list := range o.entries() {
		for _, e := range list {
			if e != d && under(e, d) {
				rest := strings.TrimPrefix(e[len(d):], "/")
				n, _, _ := strings.Cut(rest, "/")
				add(n)
			}
		}
	}
	for _, r := range o.roots {
		// The .atreides of a root or of one of its ancestors.
		if under(r, d) {
			add(".atreides")
			if r != d {
				n, _, _ := strings.Cut(strings.TrimPrefix(r[len(d):], "/"), "/")
				add(n)
			}
		}
	}
	if slices.Contains(o.dirsOnPath(), d) {
		for _, n := range atreidesPrograms {
			add(n)
		}
	}
	return out
}

// The companion programs, installed beside atreides. They are named here,
// the lowest package that both the guard, which protects them, and those
// that run or register them (the command line, the hook runtime, the
// installer) may import: the guard imports none of those.
const (
	// MCPBinary is the MCP server (separate so hooks never link the MCP
	// SDK).
	MCPBinary = "atreides-mcp"
	// TeamBinary links the team store's database driver; atreides runs it
	// in its own place for a project whose store is one (hook/team.go).
	TeamBinary = "atreides-team"
	// UIBinary is the dashboard ('atreides ui').
	UIBinary = "atreides-ui"
	// OTelBinary is the OpenTelemetry exporter ('atreides otel').
	OTelBinary = "atreides-otel"
)

// atreidesPrograms are the names of atreides's programs.
var atreidesPrograms = []string{"atreides", TeamBinary, MCPBinary, UIBinary, OTelBinary}

// Programs are the names of atreides's programs, installed side by side.
func Programs() []string { return slices.Clone(atreidesPrograms) }

// foldPath lowers p where the file system ignores case.
func foldPath(p string) string {
	if foldCase {
		return strings.ToLower(p)
	}
	return p
}

// ownTree judges a recursive change under the directory named by w (rm
// -r, mv, chmod -R, find -delete, a pathspec): it reaches every protected
// path below it.
func (a selfJudge) ownTree(c *Cmd, w shell.Word, sc *shell.Scope) {
	if !a.judging() || w.Proc != nil {
		return
	}
	if w.Dyn {
		return // the written prefix is judged by ownWriteWord
	}
	p, ok := a.files().canon(w.Text, sc)
	if !ok {
		return
	}
	if kids := ownChildren(a.req.ownFiles(), p); len(kids) > 0 {
		a.fire(ruleSelfTreeWrite, c, c.Name+" changes everything under "+p+", which holds "+strings.Join(kids, ", "))
	}
}

// ownLanding judges sources put into the destination directory dst by c:
// a source landing on a protected path is a write of it, one landing on
// a directory that holds one (recursive copies), or whose name is a
// pattern or unknown, may replace what that directory holds.
func (a selfJudge) ownLanding(c *Cmd, dst shell.Word, srcs []shell.Landing, recursive bool) {
	if !a.judging() || dst.Proc != nil || len(srcs) == 0 {
		return
	}
	if dst.Dyn {
		if !dst.HasGuess {
			return
		}
		dst = shell.Lit(dst.Guess)
	}
	d, ok := a.files().canon(dst.Text, c.Scope)
	if !ok {
		return
	}
	o := a.req.ownFiles()
	kids := ownChildren(o, d)
	for _, l := range srcs {
		switch {
		case l.Contents || l.Glob:
			if hit := matchingKids(kids, l); hit != "" {
				a.fire(ruleSelfTreeWrite, c, c.Name+" puts files into "+d+", which holds "+hit)
			}
		default:
			p := path.Join(d, l.Name)
			a.ownWrite(c, p)
			if recursive {
				if sub := ownChildren(o, p); len(sub) > 0 {
					a.fire(ruleSelfTreeWrite, c, c.Name+" merges a tree into "+p+", which holds "+strings.Join(sub, ", "))
				}
			}
		}
	}
}

// matchingKids names the protected children a source can land on: all of
// them for contents or an unknown name, those its pattern matches as the
// shell would (a pattern not starting with "." skips hidden names).
func matchingKids(kids []string, l shell.Landing) string {
	var hit []string
	for _, k := range kids {
		switch {
		case l.Contents:
		case strings.HasPrefix(k, ".") && !strings.HasPrefix(l.Name, "."):
			continue
		default:
			if ok, _ := path.Match(l.Name, k); !ok {
				continue
			}
		}
		hit = append(hit, k)
	}
	return strings.Join(hit, ", ")
}

// ownExtract judges an archive, patch or merge that writes files it names
// itself under dir (nil: the working directory).
func (a selfJudge) ownExtract(c *Cmd, dir *shell.Word, what string) {
	if !a.judging() {
		return
	}
	w := shell.Lit(".")
	if dir != nil {
		w = *dir
	}
	if w.Dyn && !w.HasGuess {
		a.fire(ruleSelfTreeWrite, c, what+" writes the files it names into a directory computed at run time")
		return
	}
	a.ownLanding(c, w, []shell.Landing{{Contents: true}}, true)
}

// noteLink remembers a link the command creates (ln [-s] TARGET LINK):
// later words of the same command that pass through LINK reach TARGET.
func (a selfJudge) noteLink(c *Cmd, target, link shell.Word, intoDir bool) {
	if target.Dyn || link.Dyn || target.Text == "" {
		return
	}
	l, ok := a.files().canon(link.Text, c.Scope)
	if !ok {
		return
	}
	if intoDir {
		l = path.Join(l, path.Base(target.Text))
	}
	t := target.Text
	symbolic := shell.HasOption(c.Args, "s", "--symbolic")
	switch {
	case symbolic && !path.IsAbs(shell.ExpandHome(t, a.req.Home)):
		t = shell.CleanJoin(path.Dir(l), t) // relative to the link's directory
	default:
		var ok bool
		if t, ok = a.files().canon(t, c.Scope); !ok {
			return
		}
	}
	if len(a.newLinks) < 64 {
		a.newLinks = append(a.newLinks, [2]string{l, path.Clean(shell.ExpandHome(t, a.req.Home))})
	}
}

// linksMade makes the links the command just walked created part of the
// paths of the commands after it (not its own: ln's operands name the
// link, not its target). Both walks follow them, so the judging walk and
// ShellEffects list the same writes.
func (a selfJudge) linksMade() {
	if len(a.newLinks) == 0 {
		return
	}
	for _, l := range a.newLinks {
		a.paths.names.Link(l[0], l[1])
	}
	a.newLinks = a.newLinks[:0]
	// Places worked out before the links existed are stale now.
	clear(a.paths.targets)
}

// madeFile is a file the command writes: its text when the guard knows
// it (a heredoc or echo redirected into it).
type madeFile struct {
	text  string
	known bool
}

// noteMade records a file the command writes, so that running it later in
// the same command is not running a program the guard has never seen.
func (a selfJudge) noteMade(p string, f madeFile) {
	if a.paths.made == nil {
		a.paths.made = map[string]madeFile{}
	}
	if _, ok := a.paths.made[p]; ok || len(a.paths.made) < 256 {
		a.paths.made[p] = f
	}
}

// madeText records the text a statement wrote into the files it
// redirected its output to (a.outFiles[mark:]), when the guard knows it
// (cat > x.sh <<EOF), and drops them from the list.
func (a selfJudge) madeText(mark int, out shell.Feed) {
	if out.Known {
		for _, p := range a.outFiles[mark:] {
			a.noteMade(p, madeFile{text: out.Text, known: true})
		}
	}
	a.outFiles = a.outFiles[:mark]
}

// runsMade judges a program run from a file the command wrote first
// (`cc -o x x.c && ./x`, `cat > x.sh <<EOF ... EOF; sh x.sh`). A shell
// script whose text the guard knows is judged as the commands it holds,
// other code by the protected paths it names; a file of unknown content
// cannot be listed, so for self-protection it is an unknown write.
func (a selfJudge) runsMade(c *Cmd, head shell.Word, depth int) {
	if !a.judging() || len(a.paths.made) == 0 {
		return
	}
	script, asShell := head, false
	if !strings.Contains(head.Text, "/") {
		if !isShell(c.Name) && !shell.IsInterpreter(c.Name) && !oneOf(c.Name, "source|.") {
			return
		}
		ops := shell.Operands(c.Args, "")
		if len(ops) == 0 {
			return
		}
		script, asShell = ops[0], !shell.IsInterpreter(c.Name)
	}
	if script.Dyn || script.Text == "" || c.Scope.Downloaded(script.Text) {
		return // a download run is judged as one (downloads.go)
	}
	p, ok := a.files().canon(script.Text, c.Scope)
	f, made := a.paths.made[p]
	switch {
	case !ok || !made:
	case !f.known:
		a.fire(ruleSelfUnknownWrite, c, "runs "+p+", which this command writes first with content the guard cannot read")
	case asShell || strings.HasPrefix(f.text, "#!") && shellShebang(f.text):
		if depth+1 <= shell.MaxDepth {
			a.walker().Script(f.text, c.Scope.Clone(), depth+1, shell.Feed{})
		}
	default:
		if m := a.mentionsOwn([]shell.Word{shell.Lit(f.text)}, c.Scope); m != "" {
			a.fire(ruleSelfUnknownWrite, c, "runs "+p+", written first, which names "+m)
		}
	}
}

// shellShebang: the script's first line runs a shell.
func shellShebang(text string) bool { return isShell(shebangProgram(text)) }

// mentionHints are the texts a protected path's spelling holds: an
// argument without any of them names none, and costs no more than these
// searches. atreides's own files and programs hold "atreides"; a host's
// settings file (HostSettings) holds the names of its path below the
// project or the home (".claude", "settings.json"), or of its whole path
// when it lies under neither, so a host's file is looked for whatever its
// directory; disableAllHooks turns the hooks off wherever it is written.
// A name holding another is left out (the other finds it). Built on the
// first text a request searches, once for as long as the requests name
// the same files and bases (lastHints).
func (req *Request) mentionHints() []string {
	if req.hints == nil {
		req.hints = lastHints.of(req)
	}
	return req.hints
}

// lastHints are the hints of the last request built: a process judges
// its commands with the same hosts' files (the hook, the MCP server, the
// command line), so they are built once, not per command.
var lastHints hintMemo

type hintMemo struct {
	mu              sync.Mutex
	files           []string
	root, cwd, home string
	hints           []string
}

func (m *hintMemo) of(req *Request) []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	settings, _ := req.hostFiles()
	if m.hints == nil || m.root != req.ProjectRoot || m.cwd != req.Cwd || m.home != req.Home || !slices.Equal(m.files, settings) {
		m.files, m.root, m.cwd, m.home = slices.Clone(settings), req.ProjectRoot, req.Cwd, req.Home
		m.hints = buildHints(req)
	}
	return m.hints
}

// buildHints builds mentionHints from the request's fields.
func buildHints(req *Request) []string {
	names := make([]string, 0, 16)
	names = append(names, "atreides", "disableAllHooks")
	settings, _ := req.hostFiles()
	for _, h := range settings {
		if !path.IsAbs(h) {
			continue
		}
		for rest := req.belowBase(path.Clean(h)); rest != ""; {
			var n string
			n, rest, _ = strings.Cut(strings.TrimPrefix(rest, "/"), "/")
			if n != "" && !slices.Contains(names, n) {
				names = append(names, n)
			}
		}
	}
	hints := make([]string, 0, len(names))
	for _, n := range names {
		if !slices.ContainsFunc(names, func(m string) bool { return m != n && strings.Contains(n, m) }) {
			hints = append(hints, n)
		}
	}
	if foldCase {
		lowerAll(hints)
	}
	return hints
}

// belowBase is the absolute, cleaned path p below the shortest of the
// request's project root, working directory and home that holds it (the
// most of its names), or p whole when none does.
func (req *Request) belowBase(p string) string {
	rel := p
	for _, b := range []string{req.ProjectRoot, req.Cwd, req.Home} {
		if !path.IsAbs(b) {
			continue
		}
		if b = path.Clean(b); b != "/" && strings.HasPrefix(p, b+"/") && len(p)-len(b) > len(rel) {
			rel = p[len(b):]
		}
	}
	return rel
}

// mentionsOwn reports the first text in args that names a protected path
// or turns hooks off, inside any word (code, a SQL script, an editor's
// command): a path token is canonicalised and checked against the
// protected set, and a token ending in a protected path's tail (as
// relative to the project or the home) counts whatever comes before it.
func (a selfJudge) mentionsOwn(args []shell.Word, sc *shell.Scope) string {
	for _, w := range args {
		s := w.Text
		if w.Dyn {
			if !w.HasGuess {
				s = strings.ReplaceAll(s, "\x00", " ")
			} else {
				s = w.Guess
			}
		}
		if !a.req.hinted(s) {
			continue
		}
		for _, tok := range strings.FieldsFunc(s, tokenSep) {
			if !a.req.hinted(tok) {
				continue
			}
			if tok == "disableAllHooks" {
				return tok
			}
			if a.namesOwn(tok, sc) {
				return tok
			}
		}
	}
	return ""
}

// hinted: s holds one of the request's mentionHints (in any case where
// the file system folds it).
func (req *Request) hinted(s string) bool {
	if foldCase {
		s = strings.ToLower(s)
	}
	for _, h := range req.mentionHints() {
		if strings.Contains(s, h) {
			return true
		}
	}
	return false
}

// tokenSep splits code and scripts into path-like tokens.
func tokenSep(r rune) bool {
	switch r {
	case ' ', '\t', '\n', '\r', '\'', '"', '`', '(', ')', '[', ']', '{', '}', ',', ';', '=', '<', '>', '|', '&', '+', ':', '!', '?', '$', '\\':
		return true
	}
	return false
}

// namesOwn: the token, as a path, is or holds a protected path, or ends
// in the tail of one.
func (a selfJudge) namesOwn(tok string, sc *shell.Scope) bool {
	o := a.req.ownFiles()
	if p, ok := a.files().canon(tok, sc); ok {
		fp := foldPath(p)
		if ownConfig(o, fp) || slices.Contains(o.bins, fp) || onPath(o, fp) || underAny(fp, o.plugins) || slices.Contains(o.hostFiles, fp) ||
			slices.Contains(o.containers, fp) || underAny(fp, o.hostDirs) || len(ownChildren(o, p)) > 0 && p != "/" && !a.req.broadDir(p) {
			return true
		}
	}
	_, ok := ownTail(foldPath(path.Clean("/"+strings.TrimLeft(tok, "./~"))), o, true)
	return ok
}

// broadDir: the project, the home or a directory above them; a token
// naming one (".", "..", "~") names everything, not atreides's files.
func (req *Request) broadDir(p string) bool {
	for _, b := range []string{req.ProjectRoot, req.Cwd, req.Home} {
		if b != "" && under(path.Clean(b), p) {
			return true
		}
	}
	return false
}

// ownTail matches a path whose leading part is unknown by its end: a
// .atreides directory anywhere, a host's settings file by its path under
// the project or the home, an atreides program's name after a "/bin/"
// directory (when anyDir: the unknown part may be any directory, not
// only the working one). It returns the rule, ok false when none.
func ownTail(p string, o *ownPaths, anyDir bool) (ruleID, bool) {
	if strings.Contains(p+"/", "/.atreides/") && !agentDocument(p) {
		return ruleSelfConfigWrite, true
	}
	for _, t := range o.tails {
		if strings.HasSuffix(p, t) || strings.HasSuffix(t, "/") && strings.Contains(p+"/", t) {
			return ruleSelfHostSettings, true
		}
	}
	if !anyDir {
		return ruleID{}, false
	}
	// Unknown leading directories may be the user's configuration
	// directory or a directory on PATH.
	if strings.HasSuffix(p, "/atreides/config.yaml") {
		return ruleSelfConfigWrite, true
	}
	if atreidesProgramName(path.Base(p)) && strings.HasSuffix(path.Dir(p), "/bin") {
		return ruleSelfBinaryWrite, true
	}
	return ruleID{}, false
}

// unreadWrites judges a program whose writes the guard cannot list
// (an unknown program, an interpreter, an editor in batch mode, sqlite3)
// given a protected path anywhere in its arguments: for self-protection
// that is an unknown write of it.
func (a selfJudge) unreadWrites(c *Cmd, in shell.Feed) {
	if !a.judging() || listedWrites(a.p, a.req.Agents, c.Name) || readsOnly(c, in) {
		return
	}
	args := c.Args
	switch {
	case isAwk(c.Name):
		args = awkProgram(c)
	case c.Name == "sed":
		args = sedScripts(c) // its w command writes a file
	case oneOf(c.Name, "vim|vi|nvim|ex|view"):
		args = editorCommands(c)
	case shell.IsInterpreter(c.Name) && in.Known:
		args = append(args[:len(args):len(args)], shell.Lit(in.Text)) // code from a heredoc
	}
	if m := a.mentionsOwn(args, c.Scope); m != "" {
		a.fire(ruleSelfUnknownWrite, c, c.Name+" is given "+m+" and the guard cannot list what it writes")
	}
}

// readsOnly: the command only reads what it names, as far as its text
// shows: inline Python, Node, Perl or Ruby code (or a heredoc program)
// made only of names that read and print ([readingCode]) with no
// in-place flag (`python3 -c "print(open('.claude/settings.json').read())"`,
// `perl -ne 'print if /hook/' .claude/settings.json`); sqlite3 opening a
// database read-only with SQL alone, no dot-command; a go command that
// builds, whose outputs (-o, GOBIN) the binary rules judge. Reading
// atreides's files is allowed; anything the text does not show is not
// read-only.
func readsOnly(c *Cmd, in shell.Feed) bool {
	switch {
	case c.Name == "go":
		return goBuildsOnly(c)
	case c.Name == "sqlite3":
		return sqliteReadsOnly(c)
	}
	fam := shell.InterpFamily(c.Name)
	if readNames(fam) == nil {
		return false
	}
	code, inline := "", in.Known
	if in.Known {
		code = in.Text
	}
	for i, w := range c.Args {
		if w.Dyn {
			return false
		}
		s := w.Text
		if strings.HasPrefix(s, "-") && !strings.HasPrefix(s, "--") && oneOf(fam, "perl|ruby") && strings.ContainsRune(s[1:], 'i') {
			return false // in-place editing
		}
		if codeFlag(fam, s) && i+1 < len(c.Args) {
			inline = true
			code += "\n" + c.Args[i+1].Text
		}
	}
	return inline && readingCode(fam, code)
}

// goBuildsOnly: a go command that builds or checks, whose outputs the
// binary rules judge; not one that runs code (run, generate, tool, exec).
func goBuildsOnly(c *Cmd) bool {
	sub := ""
	if ops := shell.Operands(c.Args, ""); len(ops) > 0 && !ops[0].Dyn {
		sub = ops[0].Text
	}
	return sub != "" && sub != "run" && sub != "generate" && sub != "tool" && sub != "exec"
}

// sqliteReadsOnly: sqlite3 opens its database read-only and runs SQL
// alone, no dot-command that writes.
func sqliteReadsOnly(c *Cmd) bool {
	ro := false
	for _, w := range c.Args {
		if w.Dyn || oneOf(w.Text, "-cmd|-init") {
			return false
		}
		ro = ro || w.Text == "-readonly"
	}
	ops := shell.Operands(c.Args, "")
	for _, w := range ops[min(1, len(ops)):] { // after the database
		if sqliteWrites(w.Text) {
			return false
		}
	}
	return ro
}

// codeFlag: s introduces inline code for the interpreter family (perl
// and ruby bundles such as -ne, -lne, -pe included).
func codeFlag(fam, s string) bool {
	for _, f := range shell.CodeFlags(fam) {
		if strings.EqualFold(s, f) {
			return true
		}
	}
	return oneOf(fam, "perl|ruby") && len(s) > 2 && s[0] == '-' && s[1] != '-' && (strings.HasSuffix(s, "e") || strings.HasSuffix(s, "E"))
}

// readNames are the only names inline code of a family may use to count
// as reading: reading and printing calls, parsing, and the language's
// plain keywords. A name not listed (a write API, os, io, a variable that
// could hold a mode) makes the code's effects unknown. Nil for a family
// whose code is never taken as reading.
func readNames(fam string) []string {
	switch fam {
	case "python", "pypy":
		return []string{"print", "open", "read", "readlines", "readline", "json", "load", "loads", "dumps", "yaml", "safe_load",
			"len", "sorted", "str", "int", "repr", "keys", "items", "values", "get", "strip", "rstrip", "lstrip", "split",
			"splitlines", "join", "lower", "upper", "startswith", "endswith", "find", "count", "enumerate", "range", "sys",
			"argv", "stdin", "for", "in", "if", "else", "elif", "not", "and", "or", "is", "None", "True", "False", "import",
			"line", "l", "x", "k", "v", "d", "f", "s", "p", "data", "indent"}
	case "node", "nodejs":
		return []string{"console", "log", "require", "readFileSync", "JSON", "parse", "stringify", "toString", "split",
			"length", "keys", "Object", "map", "filter", "join", "includes", "trim", "argv", "const", "let", "var", "for",
			"of", "in", "if", "else", "true", "false", "null", "x", "d", "s", "f", "l", "data", "line", "lines"}
	case "perl":
		return []string{"print", "say", "if", "unless", "chomp", "next", "last", "and", "or", "not", "lc", "uc", "split",
			"join", "length", "my", "for", "foreach", "while", "eq", "ne", "STDIN", "ARGV"}
	case "ruby":
		return []string{"puts", "print", "p", "File", "read", "readlines", "each_line", "ARGF", "STDIN", "each", "if",
			"unless", "do", "end", "JSON", "YAML", "parse", "load_file", "require", "json", "yaml", "split", "strip",
			"chomp", "line", "l", "x"}
	}
	return nil
}

// readingCode reports whether code uses only [readNames] outside its
// string literals (and Perl's /regex/), with no open() given a second
// argument (a mode), no interpolation that runs code inside a string
// (f"{…}", `${…}`, "#{…}", "@{[…]}") and no command substitution.
func readingCode(fam, code string) bool {
	for _, m := range []string{"`", "${", "#{", "@{[", "$^I", "f\"", "f'", "__"} {
		if strings.Contains(code, m) {
			return false
		}
	}
	code = stripLiterals(code, fam == "perl")
	if reOpenMode.get().MatchString(code) {
		return false
	}
	names := readNames(fam)
	for _, w := range reName.get().FindAllString(code, -1) {
		if !slices.Contains(names, w) {
			return false
		}
	}
	return true
}

var (
	reName     = &lazyRegexp{src: `[A-Za-z_][A-Za-z0-9_]*`}
	reOpenMode = &lazyRegexp{src: `\bopen\s*\([^()]*,`}
)

// stripLiterals blanks the string literals of code ('…', "…", and with
// regex Perl's /…/), so that what they say is not taken for names.
func stripLiterals(code string, regex bool) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(code); i++ {
		c := code[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0:
			if c == quote {
				quote = 0
			}
		case c == '\'' || c == '"' || regex && c == '/':
			quote = c
			b.WriteByte(' ')
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// sqliteWrites: sqlite3 text after the database that is no plain SQL (a
// dot-command, abbreviated as sqlite accepts them) or SQL that writes a
// file.
func sqliteWrites(s string) bool {
	l := strings.ToLower(strings.TrimSpace(s))
	if strings.HasPrefix(l, ".") || strings.Contains(l, "\n.") || strings.Contains(l, ";.") {
		return true
	}
	for _, w := range []string{"attach", "vacuum", "writefile", "edit(", "load_extension"} {
		if strings.Contains(l, w) {
			return true
		}
	}
	return false
}

// listedWrites: the guard lists what the program writes (writers), runs
// it as commands of its own (carriers, shells), judges it otherwise
// (atreides's programs, agent hosts), or knows it only reads or prints
// its arguments.
func listedWrites(p *Policy, agents AgentCLIs, name string) bool {
	switch name {
	case "awk", "gawk", "mawk", "nawk", "busybox-awk", "sed", "vim", "vi", "nvim", "ex", "view":
		return false // their scripts are scanned
	}
	if _, ok := companionVerb(name); ok || agents.Of(name) != nil {
		// Judged as atreides; an agent host started normally runs its
		// own hooks, which judge what it writes.
		return true
	}
	if knownWriter(name) && !oneOf(name, "perl|ruby") {
		return true
	}
	if _, ok := handlerOf(name); ok {
		return true
	}
	if dataProgram(name) || metadataOnly(name) || isShell(name) {
		return true
	}
	_, reader := shell.Reader(name)
	return reader || readOnlyProgram(name)
}

// readOnlyProgram: programs that read or compare the files they are given
// and write nothing but their output; a switch, no init work.
func readOnlyProgram(name string) bool {
	switch name {
	case "diff", "diff3", "sdiff", "cmp", "comm", "colordiff", "delta", "difft", "icdiff", "wc",
		"md5sum", "sha1sum", "sha224sum", "sha256sum", "sha384sum", "sha512sum", "b2sum", "cksum", "sum",
		"md5", "shasum", "tree", "lsattr", "getfacl", "namei", "hexdump", "strings", "fmt", "expand",
		"unexpand", "yamllint", "jsonlint", "json_pp", "xmllint", "look", "gh", "glab", "hub",
		"atreides", "open", "xdg-open", "code", "cursor", "subl", "bat", "sleep", "date", "id", "whoami",
		"uname", "hostname", "printenv", "env", "true", "false":
		return true
	}
	return false
}

// sedScripts are a sed command's scripts (-e values, else the first
// operand), the part that can name a file to write (w, s///w).
func sedScripts(c *Cmd) []shell.Word {
	var out []shell.Word
	for i := 0; i < len(c.Args); i++ {
		w := c.Args[i]
		switch {
		case w.Dyn:
		case w.Text == "--expression":
			if i+1 < len(c.Args) {
				out = append(out, c.Args[i+1])
				i++
			}
		case len(w.Text) > 1 && w.Text[0] == '-' && w.Text[1] != '-':
			// -e SCRIPT, -eSCRIPT, and bundled with sed's flags: -ne.
			k := strings.IndexByte(w.Text, 'e')
			if k < 1 || strings.Trim(w.Text[1:k], "nErsuz") != "" {
				continue
			}
			if v := w.Text[k+1:]; v != "" {
				out = append(out, shell.Lit(v))
			} else if i+1 < len(c.Args) {
				out = append(out, c.Args[i+1])
				i++
			}
		case strings.HasPrefix(w.Text, "--expression="):
			out = append(out, shell.Lit(strings.TrimPrefix(w.Text, "--expression=")))
		}
	}
	if len(out) == 0 {
		if ops := shell.Operands(c.Args, "efl", "--expression", "--file", "--line-length"); len(ops) > 0 {
			out = ops[:1]
		}
	}
	return out
}

// editorCommands are the commands vim runs (-c, --cmd, +cmd): an ex
// command can write any file.
func editorCommands(c *Cmd) []shell.Word {
	var out []shell.Word
	for i := 0; i < len(c.Args); i++ {
		w := c.Args[i]
		switch {
		case w.Dyn:
		case oneOf(w.Text, "-c|--cmd") && i+1 < len(c.Args):
			out = append(out, c.Args[i+1])
			i++
		case strings.HasPrefix(w.Text, "+") && len(w.Text) > 1:
			out = append(out, shell.Lit(w.Text[1:]))
		}
	}
	return out
}

// awkProgram is the program text of an awk command (its output
// redirections are its writes); the files it reads are not scanned.
func awkProgram(c *Cmd) []shell.Word {
	i := shell.SkipOptions(c.Args, "vFf", "--assign", "--field-separator")
	if i >= len(c.Args) || shell.HasOption(c.Args, "f", "--file") {
		return nil
	}
	p := c.Args[i]
	if !strings.ContainsAny(p.Text+p.Guess, ">|") && !strings.Contains(p.Text+p.Guess, "system") {
		return nil
	}
	return []shell.Word{p}
}

// selfEffects runs the self-protection checks of a resolved command that
// its writers (effects.go) do not: programs run from files the command
// wrote, programs whose writes cannot be listed, agent hosts started
// unguarded, builds whose output could shadow atreides, and the state
// lock held from the shell.
func (a selfJudge) selfEffects(c *Cmd, head shell.Word, env map[string]shell.Word, depth int, in shell.Feed) {
	a.runsMade(c, head, depth)
	a.unreadWrites(c, in)
	a.unguardedAgent(c)
	switch {
	case c.Name == "patch":
		a.ownPatch(c, in)
	case c.Name == "go":
		a.goBuild(c, env)
	case compiler(c.Name):
		a.compilerOutput(c)
	case c.Name == "flock":
		a.stateLock(c)
	}
}

// stateLock: `flock .atreides/state.db.lock sleep 3600 &` holds
// atreides's state lock, so every hook waits and gives up (the stop gate
// then lets the agent stop with open todos).
func (a selfJudge) stateLock(c *Cmd) {
	ops := shell.Operands(c.Args, "wEc", "--timeout", "--wait", "--conflict-exit-code", "--command")
	if len(ops) == 0 {
		return
	}
	w := ops[0]
	if w.Dyn && w.HasGuess {
		w = shell.Lit(w.Guess)
	}
	if w.Dyn {
		if id, _ := ownTail(foldPath(path.Clean("/"+w.Text[strings.LastIndexByte(w.Text, 0)+1:])), a.req.ownFiles(), true); id == ruleSelfConfigWrite {
			a.fire(ruleSelfStateLock, c, "flock "+w.Display())
		}
		return
	}
	p, ok := a.files().canon(w.Text, c.Scope)
	if !ok {
		if id, _ := ownTail(foldPath(path.Clean("/"+w.Text)), a.req.ownFiles(), false); id == ruleSelfConfigWrite {
			a.fire(ruleSelfStateLock, c, "flock "+w.Text)
		}
		return
	}
	if o := a.req.ownFiles(); ownConfig(o, foldPath(p)) {
		a.fire(ruleSelfStateLock, c, "flock "+p)
	}
}

// compiler: programs whose -o names the executable they write.
func compiler(name string) bool {
	switch name {
	case "cc", "gcc", "g++", "c++", "clang", "clang++", "tcc", "rustc", "swiftc", "ghc", "gccgo", "ld", "ld.lld", "nim", "fpc", "gfortran", "zig":
		return true
	}
	return false
}

// compilerOutput: the executable a compiler writes (-o FILE, else a.out)
// may replace or shadow atreides on PATH, and running it later in the
// command runs what the guard has not seen.
func (a selfJudge) compilerOutput(c *Cmd) {
	out, ok := shell.OptValue(c.Args, 'o', "")
	if !ok {
		if c.VersionQuery() || shell.HasOption(c.Args, "cSE", "") {
			return // objects, assembly or preprocessed text, not a program
		}
		out = shell.Lit("a.out")
	}
	a.builtExecutable(c, out, nil)
}

// builtExecutable judges an executable a build writes at out: one landing
// on PATH under an atreides program's name is the binary replaced or
// shadowed. names are the executables a build into a directory creates
// ("" for one it cannot name).
func (a selfJudge) builtExecutable(c *Cmd, out shell.Word, names []string) {
	if out.Dyn {
		if out.HasGuess {
			out = shell.Lit(out.Guess)
		} else {
			a.ownWriteWord(c, out, c.Scope)
			return
		}
	}
	p, ok := a.files().canon(out.Text, c.Scope)
	if !ok {
		return
	}
	o := a.req.ownFiles()
	targets := []string{p}
	if slices.Contains(o.dirsOnPath(), foldPath(p)) || strings.HasSuffix(out.Text, "/") {
		targets = targets[:0]
		for _, n := range names {
			if n == "" && slices.Contains(o.dirsOnPath(), foldPath(p)) {
				a.fire(ruleSelfBinaryWrite, c, c.Name+" builds into "+p+", on PATH, programs it names at run time")
				return
			}
			targets = append(targets, path.Join(p, n))
		}
	}
	for _, t := range targets {
		a.ownWrite(c, t)
		a.noteMade(t, madeFile{})
	}
}

// goBuild judges go build, go install and go run for atreides: a program
// built onto PATH under an atreides name, installed where PATH finds it,
// or run from atreides's own source.
func (a selfJudge) goBuild(c *Cmd, env map[string]shell.Word) {
	ops := goOperands(c.Args)
	if len(ops) == 0 || ops[0].Dyn {
		return
	}
	sub, pkgs := ops[0].Text, ops[1:]
	switch sub {
	case "build":
		names := a.goNames(c, pkgs)
		if out, ok := goOutput(c.Args); ok {
			a.builtExecutable(c, out, names)
			return
		}
		if len(pkgs) <= 1 && len(names) == 1 && names[0] != "" {
			a.builtExecutable(c, shell.Lit(names[0]), nil)
		}
	case "install":
		if !a.goBinOnPath(c, env) {
			return
		}
		for _, n := range a.goNames(c, pkgs) {
			if n == "" || atreidesProgramName(n) {
				a.fire(ruleSelfBinaryWrite, c, "go install puts "+orDefault(n, "a program named at run time")+" where PATH finds it")
				return
			}
		}
	case "run":
		if len(pkgs) > 0 && !pkgs[0].Dyn && atreidesProgramName(goPkgName(a.analyzer, c, pkgs[0].Text)) {
			run := &Cmd{Command: shell.Command{Name: "atreides", Args: pkgs[1:], Scope: c.Scope}, a: a.analyzer}
			hAtreides(a.analyzer, run, env, c.Scope, 0, shell.Feed{})
		}
	}
}

// goOperands are the go command's words that are not flags; go spells
// its flags with one dash, and these take the next word as their value.
func goOperands(args []shell.Word) []shell.Word {
	var out []shell.Word
	for i := 0; i < len(args); i++ {
		w := args[i]
		if w.Dyn || !strings.HasPrefix(w.Text, "-") {
			out = append(out, w)
			continue
		}
		if strings.Contains(w.Text, "=") {
			continue
		}
		switch strings.TrimPrefix(w.Text, "-") {
		case "o", "-o", "C", "p", "tags", "ldflags", "gcflags", "asmflags", "mod", "modfile", "pkgdir", "toolexec",
			"overlay", "pgo", "buildmode", "compiler", "gccgoflags", "installsuffix", "exec", "covermode", "coverpkg",
			"run", "bench", "count", "timeout", "cpu", "parallel", "coverprofile", "cpuprofile", "memprofile", "outputdir":
			i++
		}
	}
	return out
}

// goOutput is go build's -o value (a single dash, as go spells it).
func goOutput(args []shell.Word) (shell.Word, bool) {
	for i, w := range args {
		switch {
		case w.Dyn:
		case oneOf(w.Text, "-o|--o"):
			if i+1 < len(args) {
				return args[i+1], true
			}
		case strings.HasPrefix(w.Text, "-o="):
			return shell.Lit(w.Text[3:]), true
		}
	}
	return shell.Word{}, false
}

// goNames are the executables go builds from the package patterns: the
// last element of each import path ("" when computed, or for a pattern
// with "..." that holds an atreides command: it is probed on disk for
// cmd/atreides*, the layout atreides's own repository has).
func (a selfJudge) goNames(c *Cmd, pkgs []shell.Word) []string {
	if len(pkgs) == 0 {
		pkgs = []shell.Word{shell.Lit(".")}
	}
	var out []string
	for _, w := range pkgs {
		switch {
		case w.Dyn:
			out = append(out, "")
		case strings.Contains(w.Text, "..."):
			if a.holdsAtreides(c, w.Text) {
				out = append(out, "")
			}
		case strings.HasSuffix(w.Text, ".go"):
			out = append(out, strings.TrimSuffix(path.Base(w.Text), ".go"))
		default:
			out = append(out, goPkgName(a.analyzer, c, w.Text))
		}
	}
	return out
}

// goPkgName is the executable name of a package pattern: the last
// element of its path, without a version; for "." the directory's name.
func goPkgName(a *analyzer, c *Cmd, s string) string {
	s, _, _ = strings.Cut(s, "@")
	if oneOf(s, ".|./") || strings.HasPrefix(s, ".") && path.Base(s) == ".." {
		if p, ok := a.files().canon(s, c.Scope); ok {
			return path.Base(p)
		}
		return ""
	}
	b := path.Base(strings.TrimSuffix(s, "/"))
	if len(b) > 1 && b[0] == 'v' && b[1] >= '0' && b[1] <= '9' && strings.Count(s, "/") > 1 {
		b = path.Base(path.Dir(s)) // example.com/x/cmd/atreides/v2
	}
	return b
}

// holdsAtreides: a ./... pattern's directory has an atreides command
// (cmd/atreides*, or atreides* at its top), looked up through the
// resolver, which fails for a path that does not exist.
func (a selfJudge) holdsAtreides(c *Cmd, pattern string) bool {
	if a.req.Resolve == nil {
		return false
	}
	root, _, _ := strings.Cut(pattern, "...")
	root = strings.TrimSuffix(root, "/")
	if root == "" {
		root = "."
	}
	r, ok := a.files().canon(root, c.Scope)
	if !ok {
		return true
	}
	for _, n := range atreidesPrograms {
		for _, p := range []string{r + "/cmd/" + n, r + "/" + n} {
			if _, err := a.req.Resolve(p); err == nil {
				return true
			}
		}
	}
	return false
}

// goBinOnPath: go install puts programs where PATH may find them: GOBIN
// (or GOPATH/bin) as the command sets it, when on PATH; when the command
// does not set them the user's environment decides, and its default
// (~/go/bin) is on PATH for most Go users, so it counts.
func (a selfJudge) goBinOnPath(c *Cmd, env map[string]shell.Word) bool {
	dir, set := env["GOBIN"]
	if !set {
		if gp, ok := env["GOPATH"]; ok && !gp.Dyn {
			first, _, _ := strings.Cut(gp.Text, ":")
			dir, set = shell.Lit(first+"/bin"), true
		}
	}
	if !set {
		if v, ok := c.Scope.Vars["GOBIN"]; ok {
			dir, set = v, true
		}
	}
	if !set || dir.Dyn {
		return true
	}
	p, ok := a.files().canon(dir.Text, c.Scope)
	return !ok || slices.Contains(a.req.ownFiles().dirsOnPath(), foldPath(p))
}

// ownPatch judges `patch` writing the files its patch names: each target
// when the patch is text the guard holds (a heredoc), else everything
// under the directory it works in.
func (a selfJudge) ownPatch(c *Cmd, in shell.Feed) {
	if shell.HasOption(c.Args, "", "--dry-run", "--check") {
		return
	}
	if _, ok := shell.OptValue(c.Args, 'o', "--output"); ok {
		return // one output file, judged as a write
	}
	if ops := shell.Operands(c.Args, "pFdDiBrVYzoxg", "--strip", "--fuzz", "--directory", "--input", "--reject-file", "--prefix", "--suffix", "--output"); len(ops) > 0 {
		return // the file to patch, judged as a write
	}
	var dir *shell.Word
	if d, ok := shell.OptValue(c.Args, 'd', "--directory"); ok {
		dir = &d
	}
	_, fromFile := shell.OptValue(c.Args, 'i', "--input")
	a.ownPatchText(c, in, dir, fromFile, "patch")
}

// ownPatchText judges the targets of a patch fed on stdin, or, when its
// text is not known, the tree it is applied to.
func (a selfJudge) ownPatchText(c *Cmd, in shell.Feed, dir *shell.Word, fromFile bool, what string) {
	if fromFile || !in.Known || in.Text == "" {
		a.ownExtract(c, dir, what)
		return
	}
	sc := c.Scope
	if dir != nil {
		if dir.Dyn {
			a.ownExtract(c, dir, what)
			return
		}
		sc = sc.Clone().Chdir(*dir, a.req.Home)
	}
	for _, n := range patchTargets(in.Text) {
		// -p0 keeps a/x, -p1 strips it: judge both readings.
		for _, s := range []string{n, stripComponent(n)} {
			if p, ok := a.files().canon(s, sc); ok && s != "" {
				a.ownWrite(c, p)
			}
		}
	}
}

// patchTargets are the file names a unified or git diff writes.
func patchTargets(text string) []string {
	var out []string
	for _, line := range strings.Split(text, "\n") {
		var names []string
		switch {
		case strings.HasPrefix(line, "+++ "), strings.HasPrefix(line, "--- "):
			names = []string{strings.Fields(line[4:] + " x")[0]}
		case strings.HasPrefix(line, "diff --git "):
			names = strings.Fields(line[len("diff --git "):])
		case strings.HasPrefix(line, "rename to "), strings.HasPrefix(line, "copy to "):
			_, n, _ := strings.Cut(line, " to ")
			names = []string{n}
		}
		for _, n := range names {
			if n != "/dev/null" && len(out) < 256 {
				out = append(out, n)
			}
		}
	}
	return out
}

// stripComponent drops a path's first element (patch -p1).
func stripComponent(s string) string {
	_, rest, ok := strings.Cut(s, "/")
	if !ok {
		return ""
	}
	return rest
}

// gitSelf judges the git commands that write the work tree from content
// the guard does not see (a patch file, the index, trees built by
// plumbing) or that take untracked or ignored files away: the project's
// work tree holds .atreides and the hosts' settings, so they are tree
// writes. Merges, rebases and pulls bring the repository's own history
// (the project configuration in it is subject to trust); the commits an
// agent could craft for them without writing the work tree need the
// plumbing judged here. `git stash` without untracked files and `git
// stash pop` stay allowed.
func (a selfJudge) gitSelf(c *Cmd, in shell.Feed) {
	if len(c.Args) == 0 || c.Args[0].Dyn {
		return
	}
	sub, rest := c.Args[0].Text, c.Args[1:]
	tree := func(why string) {
		a.fire(ruleSelfTreeWrite, c, "git "+sub+" "+why)
	}
	switch sub {
	case "apply", "am":
		if shell.HasOption(rest, "", "--check", "--stat", "--numstat", "--summary", "--cached", "--abort", "--quit", "--show-current-patch") {
			return
		}
		ops := shell.Operands(rest, "pC", "--directory", "--exclude", "--include", "--whitespace")
		a.ownPatchText(c, in, nil, len(ops) > 0, "git "+sub)
	case "update-index":
		// Staging content for a path without the work tree: a commit
		// made of it reaches the work tree through an ordinary merge.
		switch {
		case shell.HasOption(rest, "", "--index-info"):
			tree("--index-info stages content for paths read from stdin")
		case shell.HasOption(rest, "", "--cacheinfo"):
			if m := a.mentionsOwn(rest, c.Scope); m != "" {
				tree("--cacheinfo stages content for " + m)
			}
		}
	case "mktree", "fast-import":
		tree("builds trees or commits from text the guard does not follow")
	case "read-tree":
		if shell.HasOption(rest, "u") {
			tree("-u writes the tree into the work tree")
		}
	case "checkout-index":
		if shell.HasOption(rest, "a", "--all", "--prefix", "--stdin") {
			tree("writes files from the index")
			return
		}
		for _, w := range shell.Operands(rest, "") {
			a.ownWriteTarget(c, w, c.Scope)
		}
	case "stash":
		a.gitStash(c, rest)
	case "clean":
		// -x/-X also delete ignored files: atreides's state and the
		// hosts' local settings are ignored files. Without them git
		// keeps what .gitignore names.
		if !shell.HasOption(rest, "xX") || shell.HasOption(rest, "n") || gitDryRun(rest) {
			return
		}
		ops := shell.Operands(rest, "e", "--exclude")
		if len(ops) == 0 {
			tree("-x deletes ignored files across the work tree")
		}
		for _, w := range ops {
			a.ownWriteTarget(c, w, c.Scope)
			a.ownTree(c, w, c.Scope)
		}
	case "rm":
		if shell.HasOption(rest, "r", "") && !shell.HasOption(rest, "n", "--cached", "--dry-run") {
			for _, w := range shell.Operands(rest, "", "--pathspec-from-file") {
				a.ownTree(c, w, c.Scope)
			}
		}
	}
}

// gitDryRun: --dry-run, or an abbreviation git accepts (--dry-r).
func gitDryRun(args []shell.Word) bool {
	for _, w := range args {
		if !w.Dyn && len(w.Text) >= len("--d") && strings.HasPrefix("--dry-run", w.Text) {
			return true
		}
	}
	return false
}

// gitStash: stash with untracked (or all) files removes them from the
// work tree, atreides's state and the hosts' local settings among them;
// a pathspec reverts and removes what it names.
func (a selfJudge) gitStash(c *Cmd, rest []shell.Word) {
	// The subcommand is the first word; an option there (-u, -m wip)
	// is push's.
	op := ""
	if len(rest) > 0 && !rest[0].Dyn && !strings.HasPrefix(rest[0].Text, "-") {
		op = rest[0].Text
	}
	if op != "" && op != "push" && op != "save" {
		return // pop, apply, list, show, drop ...
	}
	if shell.HasOption(rest, "ua", "--include-untracked", "--all") {
		a.fire(ruleSelfTreeWrite, c, "git stash with untracked files removes them from the work tree")
		return
	}
	i := -1
	for j, w := range rest {
		if !w.Dyn && w.Text == "--" {
			i = j
		}
	}
	var specs []shell.Word
	if i >= 0 {
		specs = rest[i+1:]
	} else if op == "push" {
		specs = shell.Operands(rest, "m", "--message", "--pathspec-from-file")[1:]
	}
	for _, w := range specs {
		a.ownWriteTarget(c, w, c.Scope)
		a.ownTree(c, w, c.Scope)
	}
}
