package guard

import (
	"path"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// noRules judges nothing: analysing a command with it only collects
// effects, without building the rule tables a verdict needs.
var noRules = &Policy{}

// judging is false for an effects-only analysis.
func (a *analyzer) judging() bool { return a.p != noRules }

// ShellEffects lists what a shell command writes and whether it verifies,
// without judging it. It is pure (the Request's Resolve is the only file
// system access) and never panics: a failure inside the analysis is an
// unknown write.
func ShellEffects(r Request) (e shell.Effects) {
	defer func() {
		if x := recover(); x != nil {
			e = shell.Effects{Unknown: []string{"the command could not be analysed"}}
		}
	}()
	return noRules.checkShell(r).Effects
}

// unknownWrite records a write whose target cannot be listed; certain
// says the command does change files (tar -x), not only that it may.
func (a effectWalk) unknownWrite(why string, certain bool, what string) {
	a.eff.UnknownWrite(why, certain, what)
}

// wrote records a write of the file named by w; what names the writer for
// Changes ("rm", "redirect >"). In the judging walk the path is checked
// against atreides's own files (selfguard.go): a deletion, move or mode
// change is otherwise judged by the command's own rules.
func (a effectWalk) wrote(c *Cmd, w shell.Word, sc *shell.Scope, what string) {
	a.noteWrite(c, w, sc, what, false)
}

// wroteContent records a write of a file's contents (a redirection, tee,
// a copy's destination, sed -i, dd of=, a named download): the judging
// walk also checks the target like any written file (writeTarget:
// devices, critical and startup files, secrets, atreides's own files).
func (a effectWalk) wroteContent(c *Cmd, w shell.Word, sc *shell.Scope, what string) {
	a.noteWrite(c, w, sc, what, true)
}

// pendingWrite is a command's content write, judged after the command's
// rules so that, at equal verdicts, the rule names the finding; atreides's
// own files are checked at once and name theirs.
type pendingWrite struct {
	c  *Cmd
	w  shell.Word
	sc *shell.Scope
}

// judgeContentWrites judges the content writes the current command made.
func (a effectWalk) judgeContentWrites() {
	for _, p := range a.contentWrites {
		a.files().writeTarget(p.c, p.w, p.sc)
	}
	a.contentWrites = a.contentWrites[:0]
}

func (a effectWalk) noteWrite(c *Cmd, w shell.Word, sc *shell.Scope, what string, content bool) {
	if w.Proc != nil {
		return // >(cmd): the substitution's own commands are walked
	}
	if !w.Dyn && (w.Text == "" || w.Text == "-" || shell.HarmlessDevice(w.Text)) {
		return // 2>/dev/null: nothing to judge or record
	}
	if a.judging() {
		a.self().ownWriteTarget(c, w, sc)
		switch {
		case content && c != nil:
			a.contentWrites = append(a.contentWrites, pendingWrite{c, w, sc})
		case content:
			a.files().writeTarget(c, w, sc) // a redirection, judged before its command
		}
	}
	if w.Dyn {
		if w.Stream {
			a.unknownWrite(what+" writes to paths that arrive at run time ("+w.Display()+")", true, what)
		} else {
			a.unknownWrite(what+" writes to a path computed at run time ("+w.Display()+")", true, what)
		}
		return
	}
	s := w.Text
	p, ok := a.files().canon(s, sc)
	if !ok {
		a.unknownWrite(what+" writes to "+s+" in an unknown directory", true, what)
		return
	}
	if sc.FindDir != "" && !strings.HasPrefix(s, "/") && !strings.HasPrefix(s, "~") {
		a.unknownWrite(what+" writes to "+s+" in the directories find visits under "+sc.FindDir, true, what)
		return
	}
	if _, ok := a.paths.made[p]; a.judging() && (content || !ok) {
		a.self().noteMade(p, madeFile{}) // chmod +x keeps what is known of its text
	}
	a.eff.Wrote(p, what)
}

// effects records what the resolved simple command c writes and whether
// it verifies. Wrappers reach here twice: as themselves (no effect) and,
// through their handler, as the command they run.
func (a effectWalk) effects(c *Cmd) {
	if a.eff.Verifies == "" {
		a.eff.Verifies = shell.Verifier(c.Name, c.Args)
	}
	if a.eff.Intent == "" {
		a.eff.Intent = shell.RunIntent(c.Name, c.Args)
	}
	a.reads(c)
	if slices.Contains(downloaders, c.Name) {
		wDownload(a.analyzer, c)
		return
	}
	if f := shell.WriterOf(c.Name); f != nil {
		a.cur = c
		f(recorder{a.analyzer}, &c.Command, a.req.Home)
		return
	}
	if shell.IsInterpreter(c.Name) {
		if !c.VersionQuery() && !shell.VerifyModule(c.Name, c.Args) {
			a.unknownWrite(c.Name+" runs a program whose writes cannot be listed", false, c.Name)
		}
		return
	}
	if what, ok := writesAnything(c); ok {
		if !c.VersionQuery() {
			a.unknownWrite(what+" writes files of its own choosing", false, what)
		}
		return
	}
	if _, known := handlerOf(c.Name); !known && !dataProgram(c.Name) && !metadataOnly(c.Name) && len(c.Args) > 1 && !c.Args[0].Dyn {
		// `tool rm -rf x`: a program the guard does not model whose
		// arguments start with a file writer probably runs them.
		if inner := shell.NormName(c.Args[0].Text); knownWriter(inner) || shell.IsInterpreter(inner) {
			a.unknownWrite(c.Name+" may run "+inner+" with its arguments", false, c.Name)
		}
	}
}

// reads records the files c prints whole or in part (Effects.Reads).
func (a effectWalk) reads(c *Cmd) {
	for _, w := range c.Reads() {
		if p, ok := a.files().canon(w.Text, c.Scope); ok {
			a.eff.Read(p)
		}
	}
}

// noteCopy remembers a copy of an installed atreides program (the
// destination, and the source's name inside it when it is a directory).
func (a effectWalk) noteCopy(c *Cmd, src, dst shell.Word) {
	if src.Dyn || dst.Dyn {
		return
	}
	sp, ok := a.files().canon(src.Text, c.Scope)
	o := a.req.ownFiles()
	if !ok || !slices.Contains(o.bins, foldPath(sp)) && !onPath(o, foldPath(sp)) {
		return
	}
	d, ok := a.files().canon(dst.Text, c.Scope)
	if !ok {
		return
	}
	if a.paths.copies == nil {
		a.paths.copies = map[string]bool{}
	}
	a.paths.copies[d] = true
	a.paths.copies[path.Join(d, path.Base(sp))] = true
}

// sideFile is an option naming a file a downloader writes besides what
// it downloads (headers, cookies, a log).
type sideFile struct {
	short byte
	long  string
}

// curlSideFiles and wgetSideFiles are sideFiles' tables, static data
// (a map would be built in package init).
var (
	curlSideFiles = []sideFile{{'D', "--dump-header"}, {'c', "--cookie-jar"}, {0, "--trace"}, {0, "--trace-ascii"}, {0, "--stderr"}, {0, "--etag-save"}}
	wgetSideFiles = []sideFile{{'o', "--output-file"}, {'a', "--append-output"}}
)

// sideFiles are the side-file options of a downloader.
func sideFiles(name string) []sideFile {
	switch name {
	case "curl":
		return curlSideFiles
	case "wget":
		return wgetSideFiles
	}
	return nil
}

// wDownload: the files a downloader saves (downloadTargets, which
// download-then-execute shares), and curl's and wget's side files.
func wDownload(a *analyzer, c *Cmd) {
	if c.Name == "wget" && shell.HasOption(c.Args, "rmp", "--recursive", "--mirror", "--page-requisites") {
		a.writes().unknownWrite("wget writes the files it fetches under the working directory or -P", true, "wget")
		return
	}
	files, named := downloadTargets(c)
	for i, f := range files {
		if i < named {
			a.writes().wroteContent(c, shell.Lit(f), c.Scope, c.Name)
		} else {
			// A name taken from the URL: wget saves x.1 rather than
			// overwrite, so it is recorded but not judged as a write.
			a.writes().wrote(c, shell.Lit(f), c.Scope, c.Name)
		}
	}
	if c.Name == "wget" || shell.HasOption(c.Args, "O", "--remote-name", "--remote-name-all") {
		for _, w := range c.Pos() {
			if w.Dyn {
				a.writes().unknownWrite(c.Name+" names its output file after a URL computed at run time", true, c.Name)
			}
		}
	}
	for _, o := range sideFiles(c.Name) {
		if w, ok := shell.OptValue(c.Args, o.short, o.long); ok {
			a.writes().wrote(c, w, c.Scope, c.Name+" "+o.long)
		}
	}
	if c.Name == "curl" && shell.HasOption(c.Args, "J", "--remote-header-name") {
		a.writes().unknownWrite("curl -J names its output file after the server's answer", true, "curl -O")
	}
}

// writesAnything looks c up in shell.WritesAnything by its name, then by its
// name and first operand, and names what it found.
func writesAnything(c *Cmd) (string, bool) {
	if shell.WritesAnything(c.Name, "") {
		return c.Name, true
	}
	if op := shell.FirstOperand(c.Args); op != "" && shell.WritesAnything(c.Name, op) {
		return c.Name + " " + op, true
	}
	return "", false
}

// downloaders are the programs whose writes wDownload lists: they are
// guard's, not shell's, because the files they name depend on the option
// table the rules declare (downloadTargets, shared with the
// download-then-execute rule).
var downloaders = []string{"curl", "wget", "aria2c"}

// knownWriter reports whether the walk knows where the program name writes.
func knownWriter(name string) bool {
	return shell.WriterOf(name) != nil || slices.Contains(downloaders, name)
}

// recorder is the walk as shell's writers report to it (shell.Recorder):
// it records the effects of the command being walked (walkState.cur), and
// in the judging walk judges each target and follows what lands in
// atreides's own files. It is one pointer, so handing it to a writer
// costs no allocation.
type recorder struct{ *analyzer }

// cmd is the rules' view of c: cur itself, or a command a writer derived
// from it (git's subcommand).
func (r recorder) cmd(c *shell.Command) *Cmd {
	if cur := r.walkSt.cur; cur != nil && c == &cur.Command {
		return cur
	}
	return &Cmd{Command: *c, a: r.analyzer}
}

func (r recorder) Wrote(c *shell.Command, w shell.Word, what string) {
	r.writes().wrote(r.cmd(c), w, c.Scope, what)
}

func (r recorder) WroteContent(c *shell.Command, w shell.Word, what string) {
	r.writes().wroteContent(r.cmd(c), w, c.Scope, what)
}

func (r recorder) UnknownWrite(why string, certain bool, what string) {
	r.writes().unknownWrite(why, certain, what)
}

func (r recorder) Changed(what string) { r.walkSt.eff.Changed(what) }

func (r recorder) Tree(c *shell.Command, w shell.Word) { r.self().ownTree(r.cmd(c), w, c.Scope) }

func (r recorder) Link(c *shell.Command, target, link shell.Word, intoDir bool) {
	r.self().noteLink(r.cmd(c), target, link, intoDir)
}

func (r recorder) Landed(c *shell.Command, dst shell.Word, srcs []shell.Landing, recursive bool) {
	r.self().ownLanding(r.cmd(c), dst, srcs, recursive)
}

func (r recorder) Copied(c *shell.Command, src, dst shell.Word) {
	if r.judging() {
		r.writes().noteCopy(r.cmd(c), src, dst)
	}
}

func (r recorder) Extracted(c *shell.Command, dir *shell.Word, what string) {
	r.self().ownExtract(r.cmd(c), dir, what)
}

func (r recorder) ExtractsAnywhere(c *shell.Command) {
	if r.judging() {
		r.fire(ruleSelfTreeWrite, r.cmd(c), "tar -P extracts members to any path they name")
	}
}

// DeletesUnder: a start point of find -delete that is one of atreides's
// own paths is a write of it.
func (r recorder) DeletesUnder(c *shell.Command, w shell.Word) {
	if p, ok := r.files().canon(w.Text, c.Scope); ok && !w.Dyn && r.judging() {
		r.self().ownWrite(r.cmd(c), p)
	}
}
