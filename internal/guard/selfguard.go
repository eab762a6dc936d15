package guard

import (
	"path"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// The guard protects itself: an agent, or a prompt injection it read, must
// not be able to switch atreides off. Writes to atreides's own files (the
// project's .atreides directory, the user's configuration directory, the
// installed binary) are denied; writes to the hosts' settings files that
// carry the hook registrations ask the user; atreides commands that change
// the policy are denied. Reads stay allowed. See docs/guard-policy.md,
// "The guard protects itself".

// selfguardRules are registerSelfguard's rules, static data: loading the
// batch allocates none of them.
var selfguardRules = []*Rule{
	{ID: ruleSelfConfigWrite, Category: "self", Verdict: Deny,
		Reason: "atreides's own configuration, intents, state, log and trace ledger can only be changed by the user; ask the user to make this change themselves"},
	{ID: ruleSelfBinaryWrite, Category: "self", Verdict: Deny,
		Reason: "this replaces, removes or disables the installed atreides binary; only the user may change it, ask the user to do it themselves"},
	{ID: ruleSelfHostSettings, Category: "self", Verdict: Ask,
		Reason: "this changes an agent host's settings that register atreides's hooks (they can switch the guard off); ask the user to make or confirm this change themselves"},
	{ID: ruleSelfCommand, Category: "self", Verdict: Deny,
		Reason: "this atreides command changes the policy that governs you (install, uninstall, adding or closing intents, configuration); only the user may run it, ask the user to run it themselves. " +
			"You may run: atreides " + agentVerbList},
	{ID: ruleSelfPlanApprove, Category: "self", Verdict: Deny,
		Reason: "approving a plan opens the task's writes, and only the user approves, at their own terminal (atreides refuses an approval from an agent's shell, confirmed or not): show the user the plan (atreides plan show N) and ask them to run atreides plan approve N themselves"},
	{ID: ruleSelfTreeWrite, Category: "self", Verdict: Ask,
		Reason: "this copies, extracts, merges or changes a whole tree that holds atreides's own files or an agent host's hook settings, and may replace them; name the files instead, or ask the user to confirm"},
	{ID: ruleSelfUnknownWrite, Category: "self", Verdict: Ask,
		Reason: "this runs a program whose writes the guard cannot list, and it could reach atreides's own files or an agent host's hook settings; ask the user to confirm"},
	{ID: ruleSelfStateLock, Category: "self", Verdict: Deny,
		Reason: "holding a lock on atreides's state stops every hook from recording or checking; only atreides takes that lock"},
	{ID: ruleSelfUnguardedAgent, Category: "self", Verdict: Deny,
		Reason: "this starts an agent with its guard or permission prompts off, which is atreides switched off; start it normally, or ask the user to run it themselves"},
	{ID: ruleSelfPluginRemove, Category: "self", Verdict: Deny,
		Reason: "this uninstalls or disables atreides's plugin or extension in an agent host, which switches the guard off; only the user may do it, ask the user to run it themselves"},
	{ID: ruleSelfPluginUpdate, Category: "self", Verdict: Ask,
		Reason: "this updates atreides's plugin or extension in an agent host, which reinstalls it from its source; ask the user to confirm"},
	{ID: ruleSelfAgentSettings, Category: "self", Verdict: Ask,
		Reason: "this starts an agent with settings the guard cannot read, which may switch its hooks off; ask the user to confirm"},
}

func registerSelfguard() {
	register(selfguardRules...)
}

// agentVerbs are the atreides commands an agent may run through the shell:
// its own bookkeeping and read-only views. A nil list allows every
// subcommand; otherwise only those listed (and help). Everything else,
// including a verb the guard does not know (ok false), is denied. A
// switch, not a map: no init work in the hook binary.
//
// The task system is the agent's work as much as the user's: the slash
// commands (/task, /plan, /implement, /errors) drive it through these
// verbs. All but `plan approve`: approving a plan is what opens the
// approval gate on the task's writes, so only the user does it, at their
// own terminal (a host's permission prompt cannot be told from a host that
// approves every call, so the command itself refuses an agent's shell:
// tasks.MayApprove); the guard says so before it runs.
func agentVerbs(verb string) (subs []string, ok bool) {
	switch verb {
	case "todo", "anchor", "status", "check", "doctor", "version", "help", "demo", "errors":
		return nil, true
	case "intent":
		return []string{"list", "show", "select", "release", "requests"}, true
	case "trace":
		return []string{"verify", "show"}, true
	case "config":
		return []string{"show", "validate"}, true
	case "task":
		return []string{"add", "list", "show", "start", "done", "abandon", "block", "claim", "ready", "depend", "route", "sync", "clean", "reviewed"}, true
	case "plan":
		return []string{"show", "next", "new", "research", "phase-start", "phase-done", "commit"}, true
	}
	return nil, false
}

const agentVerbList = "todo, anchor, status, check, doctor, demo, version, help, errors, intent list|show|select|release|requests, trace verify|show, config show|validate, " +
	"task add|list|show|start|done|abandon|block|claim|ready|depend|route|sync|clean|reviewed, plan show|next|new|research|phase-start|phase-done|commit"

// hAtreides judges an atreides command line (see agentVerbs).
func hAtreides(a *analyzer, c *Cmd, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	args := c.Args
	verb := ""
	switch {
	case len(args) == 0:
		return shell.Feed{Taint: shell.TaintUnknown}
	case args[0].Dyn:
		a.fire(ruleSelfCommand, c, "the atreides command "+args[0].Display()+" is computed at run time")
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	verb = args[0].Text
	switch verb {
	case "-h", "--help", "-help", "--version", "-version":
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	subs, ok := agentVerbs(verb)
	if !ok {
		if atreidesVerbWord(verb) {
			a.fire(ruleSelfCommand, c, "atreides "+verb)
		}
		// Otherwise no atreides command has that name, now or later
		// (`cp atreides ./bin/`, seen as a command by unknownWrapper):
		// atreides would print "unknown command" and exit.
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	if why := a.self().posingAsUser(); why != "" && !viewVerb(verb, args) {
		a.fire(ruleSelfCommand, c, "atreides "+verb+" "+why)
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	if subs == nil || len(args) == 1 {
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	sub := args[1]
	if sub.Dyn {
		a.fire(ruleSelfCommand, c, "atreides "+verb+" "+sub.Display()+" is computed at run time")
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	switch sub.Text {
	case "-h", "--help", "-help", "help":
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	for _, s := range subs {
		if sub.Text == s {
			return shell.Feed{Taint: shell.TaintUnknown}
		}
	}
	if verb == "plan" && sub.Text == "approve" {
		a.fire(ruleSelfPlanApprove, c, "atreides plan approve")
		return shell.Feed{Taint: shell.TaintUnknown}
	}
	a.fire(ruleSelfCommand, c, "atreides "+verb+" "+sub.Text)
	return shell.Feed{Taint: shell.TaintUnknown}
}

// selfProgram reports whether the command word names the installed
// atreides under another name: the basename of Request.Self, a path that
// resolves to an installed atreides program, a copy the command made of
// one, or a file in the project or a temp directory with the content of
// one (Request.SameBinary, asked only there: a program run by a path
// elsewhere, or by name, costs nothing). (The name "atreides" has its
// handler.)
func (a selfJudge) selfProgram(c *Cmd, head string, sc *shell.Scope) bool {
	if c.Name == "atreides" || !a.judging() {
		return false
	}
	if _, ok := companionVerb(c.Name); ok {
		return false
	}
	if !strings.Contains(head, "/") && knownProgram(a.p, c.Name) {
		// What the checks below answer for a program run by name that
		// the guard models, without finding the binary.
		return false
	}
	self := a.req.Binary()
	if self != "" && c.Name == shell.NormName(path.Base(self)) {
		// A test binary or a renamed install; never a program the
		// guard models for what it is (a binary called "git").
		return !knownProgram(a.p, c.Name)
	}
	if !strings.Contains(head, "/") {
		return false
	}
	p, ok := a.files().canon(head, sc)
	if !ok {
		return false
	}
	fp := foldPath(p)
	switch {
	case self != "" && fp == foldPath(path.Clean(self)) || a.paths.copies[p]:
		return true
	case atreidesProgramName(path.Base(fp)):
		// Every other installed program and file on PATH the guard
		// protects is named like one; only then is the protected set
		// built (a command run by path, ./gradlew, costs nothing).
		if o := a.req.ownFiles(); slices.Contains(o.bins, fp) || onPath(o, fp) {
			return true
		}
	}
	if a.req.SameBinary != nil && (a.req.inProject(p, sc) || a.req.isTemp(p)) && !knownProgram(a.p, c.Name) {
		return a.req.SameBinary(p)
	}
	return false
}

// hCompanion judges an atreides companion program like the atreides
// command it stands for: atreides-team is atreides, atreides-mcp is
// `atreides mcp` and so on.
func hCompanion(a *analyzer, c *Cmd, verb string, env map[string]shell.Word, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	if verb == "" || len(c.Args) > 0 && !c.Args[0].Dyn && oneOf(c.Args[0].Text, "-h|--help|-help|--version|-version|help") {
		return hAtreides(a, c, env, sc, depth, in)
	}
	as := *c
	as.Args = append([]shell.Word{shell.Lit(verb)}, c.Args...)
	return hAtreides(a, &as, env, sc, depth, in)
}

// hostVar: a variable by which a host tells its agent's commands and
// their session (Request.HostVars, package actor), or atreides's own
// ATREIDES_SESSION_ID; a command that sets, unsets or clears one would
// pass for the user's or another session's.
func (req *Request) hostVar(name string) bool {
	if name == "ATREIDES_SESSION_ID" {
		return true
	}
	for _, v := range req.HostVars {
		if stem, ok := strings.CutSuffix(v, "*"); ok && strings.HasPrefix(name, stem) || v == name {
			return true
		}
	}
	return false
}

// notePosing marks the command line as posing (posingAsUser) when a
// builtin unsets, exports away or reads into a host variable (unset,
// export -n, read, printf -v, declare, typeset, local, readonly).
func (a selfJudge) notePosing(c *Cmd) {
	switch c.Name {
	case "unset", "export", "read", "printf", "declare", "typeset", "local", "readonly", "mapfile", "readarray":
	default:
		return
	}
	for _, w := range c.Args {
		name, _, _ := strings.Cut(w.Text, "=")
		if w.Dyn && c.Name != "printf" || a.req.hostVar(name) {
			a.posing = true
			return
		}
	}
}

// posingAsUser says why an atreides command here would pass for the
// user's, "" when it would not: it runs under a terminal the command
// makes (script, unbuffer), where the CLI would take it for a person's,
// or the command strips the host's marks of the agent.
func (a selfJudge) posingAsUser() string {
	if a.pty > 0 {
		return "runs under a terminal the command makes, where it would pass for the user's"
	}
	if a.posing {
		return "runs with the agent's host variables changed, where it would pass for the user's or another session's"
	}
	return ""
}

// viewVerb: atreides commands that only show things, whoever runs them.
func viewVerb(verb string, args []shell.Word) bool {
	switch verb {
	case "status", "check", "doctor", "version", "help", "log", "errors":
		return true
	}
	if len(args) > 1 && !args[1].Dyn {
		switch args[1].Text {
		case "list", "show", "verify", "requests", "next":
			return true
		}
	}
	return false
}

// atreidesVerbWord: text that could name an atreides command (they are all
// lower-case words).
func atreidesVerbWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return false
		}
	}
	return s != ""
}

// ownPaths are atreides's own files and the hosts' hook settings of one
// request, each in its literal form and, when the request can resolve
// symlinks, its resolved form.
type ownPaths struct {
	roots      []string // project roots and working directory: their (and their ancestors') .atreides
	trees      []string // directories that are atreides's as a whole
	bins       []string // the binary and atreides-mcp beside it
	hostFiles  []string // files registering the hooks
	hostDirs   []string // directories of such files (plugin directories)
	plugins    []string // atreides's installed plugins and extensions (Request.Plugins)
	containers []string // a host's own directory holding such a file
	// pathDirs are the directories on PATH and the install directory: a
	// file named like an atreides program there is atreides to a shell.
	// Resolved on first use ([ownPaths.dirsOnPath]): only a path named
	// like an atreides program, or a build's output, needs them.
	pathDirs   []string
	pathDirsOf func() []string
	// tails are the host files' paths relative to the project or the
	// home ("/.claude/settings.json"; "/" suffix: a directory), matched
	// against a path whose leading part is not known.
	tails []string
}

// pathForms are the forms of the absolute path p: cleaned, and resolved
// through links when the request can resolve and its directory exists.
// The entries of ownFiles share a few directories: req.Resolve is the
// analyzer's memo (memoResolve), so each costs its system calls once.
func (req *Request) pathForms(p string) []string {
	p = path.Clean(p)
	out := []string{p}
	if req.Resolve == nil || p == "/" {
		return out
	}
	// The directory first: where it does not exist, neither does the
	// file, and its literal form is the only one.
	d := req.resolved(path.Dir(p))
	if d == "" {
		return out
	}
	q := req.resolved(p)
	if q == "" {
		q = path.Join(d, path.Base(p)) // not there yet; a link may lead to its directory
	}
	if q != p {
		out = append(out, q)
	}
	return out
}

// resolved is p through its links, cleaned, or "" when it cannot be
// resolved.
func (req *Request) resolved(p string) string {
	if v, err := req.Resolve(p); err == nil && v != "" {
		return path.Clean(v)
	}
	return ""
}

// addHostSettings adds a host's settings file or directory h (a
// directory ends in "/"), its dedicated directory, and its tail under
// one of bases (the project roots and the home).
func (o *ownPaths) addHostSettings(r *Request, h string, bases []string) {
	d := path.Clean(h)
	if strings.HasSuffix(h, "/") {
		o.hostDirs = append(o.hostDirs, r.pathForms(d)...)
	} else {
		o.hostFiles = append(o.hostFiles, r.pathForms(d)...)
	}
	if c := path.Dir(d); dedicatedDir(c, bases) {
		o.containers = append(o.containers, r.pathForms(c)...)
	}
	for _, b := range bases {
		if b != "" && b != "/" && b != "." && strings.HasPrefix(h, b+"/") {
			o.tails = append(o.tails, h[len(b):])
			break
		}
	}
}

// dedicatedDir: a directory that holds host settings and nothing of the
// user's at large (.claude, ~/.codex, .opencode), so deleting or moving
// it is deleting the settings; not one of bases (the project roots and
// the home) or one of their ancestors.
func dedicatedDir(d string, bases []string) bool {
	for _, b := range bases {
		if b != "" && b != "." && under(b, d) {
			return false
		}
	}
	return !oneOf(d, "/|.")
}

// ownFiles lists atreides's own files as the request names them (its
// binary, configuration, state and hosts' settings), built once per request.
func (req *Request) ownFiles() *ownPaths {
	if req.own != nil {
		return req.own
	}
	r := req
	o := &ownPaths{}
	forms := r.pathForms
	var rawRoots []string
	for _, b := range []string{r.ProjectRoot, r.Cwd} {
		if path.IsAbs(b) {
			rawRoots = append(rawRoots, path.Clean(b))
			o.roots = append(o.roots, forms(b)...)
		}
	}
	for _, b := range rawRoots {
		o.trees = append(o.trees, forms(b+"/.atreides")...)
	}
	if path.IsAbs(r.ConfigDir) {
		o.trees = append(o.trees, forms(r.ConfigDir)...)
	}
	if path.IsAbs(r.Home) {
		o.trees = append(o.trees, forms(r.Home+"/.config/atreides")...)
	}
	self := r.Binary()
	if path.IsAbs(self) {
		o.bins = append(o.bins, path.Clean(self)) // resolved already
		o.bins = append(o.bins, forms(path.Join(path.Dir(self), MCPBinary))...)
	}
	hostSettings, plugins := r.hostFiles()
	for _, d := range plugins {
		if path.IsAbs(d) {
			o.plugins = append(o.plugins, forms(d)...)
		}
	}
	bases := append(rawRoots, path.Clean(r.Home))
	for _, h := range hostSettings {
		if path.IsAbs(h) {
			o.addHostSettings(r, h, bases)
		}
	}
	o.pathDirsOf = func() []string {
		var dirs []string
		for _, d := range r.PathDirs {
			if path.IsAbs(d) {
				dirs = append(dirs, forms(d)...)
			}
		}
		if path.IsAbs(self) {
			dirs = append(dirs, path.Dir(path.Clean(self)))
		}
		lowerAll(dirs)
		return dirs
	}
	for _, l := range [][]string{o.roots, o.trees, o.bins, o.plugins, o.hostFiles, o.hostDirs, o.containers, o.tails} {
		lowerAll(l)
	}
	r.own = o
	return o
}

// dirsOnPath are [ownPaths.pathDirs], resolved on the first call.
func (o *ownPaths) dirsOnPath() []string {
	if o.pathDirsOf != nil {
		o.pathDirs, o.pathDirsOf = o.pathDirsOf(), nil
	}
	return o.pathDirs
}

// lowerAll lower-cases the paths in place where the file system folds
// case (foldCase), so that they compare with folded paths.
func lowerAll(ps []string) {
	if !foldCase {
		return
	}
	for i, p := range ps {
		ps[i] = strings.ToLower(p)
	}
}

// ownWrite judges a write, creation, move, deletion or mode change of
// the absolute, cleaned path p by command c (nil for a redirection or
// a file tool).
func (a selfJudge) ownWrite(c *Cmd, p string) {
	if p == "" || !path.IsAbs(p) {
		return
	}
	if c != nil && oneOf(c.Name, "mkdir|touch") {
		// Creating a directory or an empty file, or touching a time
		// stamp, changes no setting.
		return
	}
	detail := "writes " + p
	if c != nil {
		detail = c.Name + " changes " + p
	}
	o := a.req.ownFiles()
	fp := foldPath(p)
	switch {
	case ownConfig(o, fp) && !agentDocument(p):
		a.fire(ruleSelfConfigWrite, c, detail)
	case slices.Contains(o.bins, fp) || onPath(o, fp) || underAny(fp, o.plugins):
		a.fire(ruleSelfBinaryWrite, c, detail)
	case slices.Contains(o.hostFiles, fp) || slices.Contains(o.containers, fp) || underAny(fp, o.hostDirs):
		a.fire(ruleSelfHostSettings, c, detail)
	default:
		a.agentSettingsWrite(c, p)
	}
}

// ownConfig: p is in atreides's configuration or state: the user's
// configuration directory, or the .atreides directory of the project, the
// working directory or one of their ancestors (project.Root finds the
// nearest one walking up).
func ownConfig(o *ownPaths, p string) bool {
	if underAny(p, o.trees) {
		return true
	}
	const seg = "/.atreides"
	for off := 0; ; {
		i := strings.Index(p[off:], seg)
		if i < 0 {
			return false
		}
		i += off
		off = i + len(seg)
		if off < len(p) && p[off] != '/' {
			continue
		}
		dir := p[:i]
		if dir == "" {
			dir = "/"
		}
		for _, r := range o.roots {
			if under(r, dir) {
				return true
			}
		}
	}
}

// agentDocument: p is markdown the agents write under .atreides, which
// switches nothing off: a context file (.atreides/context/**/*.md, what
// /at-meta writes; loaded as facts by tier, never as configuration), or a
// plan or a research report of a task (/plan, /research, /revise) in its
// folder under the specs directory (tasks.dir, .atreides/specs by
// default): <number>_<slug>/plans/*.md or reports/*.md. The files
// atreides generates beside them (TODO.md, state.json, errors.json) and
// every other file under .atreides stay atreides's own. p is cleaned, so
// ".." cannot lead out.
func agentDocument(p string) bool {
	dir, file := path.Split(p)
	if path.Ext(file) != ".md" || len(file) == len(".md") {
		return false
	}
	if contextDocument(dir) {
		return true
	}
	dir = path.Clean(dir)
	if kind := path.Base(dir); !oneOf(kind, "plans|reports") {
		return false
	}
	n, slug, ok := strings.Cut(path.Base(path.Dir(dir)), "_")
	if !ok || n == "" || slug == "" {
		return false
	}
	for i := 0; i < len(n); i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return true
}

// contextDocument: dir is in the context files' folder (ctxtiers.Dir).
func contextDocument(dir string) bool { return strings.Contains("/"+dir, "/.atreides/context/") }

// ownWriteTarget judges the file a write names against atreides's own
// files, however much of it is known.
func (a selfJudge) ownWriteTarget(c *Cmd, w shell.Word, sc *shell.Scope) {
	switch {
	case w.Proc != nil:
	case w.Dyn:
		a.ownWriteWord(c, w, sc)
	default:
		if p, ok := a.files().canon(w.Text, sc); ok {
			a.ownWrite(c, p)
		} else {
			a.ownWriteRel(c, w.Text)
		}
	}
}

// ownWriteWord judges a write target that is not fully known: the value
// the guard computed for it, else the directory its literal part names
// (`> .atreides/$f` writes somewhere in .atreides).
func (a selfJudge) ownWriteWord(c *Cmd, w shell.Word, sc *shell.Scope) {
	if w.HasGuess {
		if p, ok := a.files().canon(w.Guess, sc); ok {
			a.ownWrite(c, p)
		}
		return
	}
	if i := strings.LastIndexByte(w.Text, 0); i >= 0 {
		// $OLDPWD/.atreides/config.yaml, $BIN/atreides: whatever the
		// unknown part, the known end names a protected path.
		if id, ok := ownTail(foldPath(path.Clean("/"+w.Text[i+1:])), a.req.ownFiles(), true); ok {
			a.fire(id, c, writerOf(c)+" "+w.Display()+", whatever the part computed at run time")
			return
		}
	}
	prefix, _, _ := strings.Cut(w.Text, "\x00")
	i := strings.LastIndexByte(prefix, '/')
	if i <= 0 {
		return
	}
	if p, ok := a.files().canon(prefix[:i], sc); ok {
		a.ownWrite(c, p)
	}
}

// writerOf names what writes, for a reason.
func writerOf(c *Cmd) string {
	if c == nil {
		return "writes"
	}
	return c.Name + " changes"
}

// ownWriteRel judges a relative write target when the working directory
// is unknown: a path through a .atreides directory is atreides's.
func (a selfJudge) ownWriteRel(c *Cmd, s string) {
	s = path.Clean(s)
	if agentDocument(s) {
		return
	}
	if id, ok := ownTail(foldPath(path.Clean("/"+s)), a.req.ownFiles(), false); ok {
		a.fire(id, c, writerOf(c)+" "+s+" (in a directory the guard cannot determine)")
	}
}

func underAny(p string, dirs []string) bool {
	for _, d := range dirs {
		if d != "/" && under(p, d) {
			return true
		}
	}
	return false
}
