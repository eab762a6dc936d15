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
	p, ok := a.canon(s, sc)
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
	a.reads(c)
	if f := writers.get()[c.Name]; f != nil {
		f(a.analyzer, c)
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
	if _, known := handlers.get()[c.Name]; !known && !dataPrograms.get()[c.Name] && !metadataOnly.get()[c.Name] && len(c.Args) > 1 && !c.Args[0].Dyn {
		// `tool rm -rf x`: a program the guard does not model whose
		// arguments start with a file writer probably runs them.
		if inner := shell.NormName(c.Args[0].Text); writers.get()[inner] != nil || shell.IsInterpreter(inner) {
			a.unknownWrite(c.Name+" may run "+inner+" with its arguments", false, c.Name)
		}
	}
}

// reads records the files c prints whole or in part (Effects.Reads).
func (a effectWalk) reads(c *Cmd) {
	valued, ok := shell.Reader(c.Name)
	if !ok || c.Scope.FindDir != "" {
		return
	}
	files := shell.Operands(c.Args, valued)
	if c.Name == "sed" {
		if shell.InPlace(c.Args, valued) {
			return // an edit, recorded as a write
		}
		if _, e := shell.OptValue(c.Args, 'e', "--expression"); !e {
			if _, f := shell.OptValue(c.Args, 'f', "--file"); !f && len(files) > 0 {
				files = files[1:] // the script
			}
		}
	}
	for _, w := range files {
		if w.Dyn || w.Proc != nil || w.Text == "-" {
			continue
		}
		if p, ok := a.canon(w.Text, c.Scope); ok {
			a.eff.Read(p)
		}
	}
}

type writer func(a *analyzer, c *Cmd)

// writers know where a program writes. Built on first use.
var writers lazy[map[string]writer]

// The builder is set here, not in the declaration: writers look
// programs up in the tables that refer to them.
func init() { writers.src = buildWriters }

func buildWriters() map[string]writer {
	return map[string]writer{
		"rm": wOperands(""), "rmdir": wOperands(""), "unlink": wOperands(""), "shred": wOperands("ns", "--iterations", "--size"),
		"touch": wOperands("dtr", "--date", "--reference"), "mkdir": wOperands("m", "--mode"), "mkfifo": wOperands("mZ", "--mode"),
		"tee": wContent(""), "sponge": wOperands(""), "truncate": wContent("sr", "--size", "--reference"),
		"chmod": wChmod, "chown": wAfterFirst("", "--reference"), "chgrp": wAfterFirst("", "--reference"),
		"setfacl": wOperands("mMxX", "--modify", "--modify-file", "--remove", "--remove-file", "--set", "--set-file"),
		"chattr":  wAfterFirst("pv"), "ed": wOperands("p", "--prompt"), "ex": wOperands("cs"),
		"cp": wCopy, "mv": wCopy, "install": wCopy, "ln": wCopy, "rsync": wRsync, "dd": wDD,
		"sed": wInPlace("efl", "--expression", "--file", "--line-length"), "perl": wPerlRuby, "ruby": wPerlRuby,
		"sort": wOutputOpt('o', "--output"), "split": wSplit, "csplit": wSplit,
		"curl": wDownload, "wget": wDownload, "aria2c": wDownload, "tar": wTar, "bsdtar": wTar, "unzip": wUnzip, "7z": wUnpack("x|e"),
		"gzip": wCompress, "gunzip": wCompress, "bzip2": wCompress, "bunzip2": wCompress, "xz": wCompress,
		"unxz": wCompress, "zstd": wCompress, "unzstd": wCompress, "zip": wZip,
		"patch": wPatch, "git": wGit, "sudoedit": wContent("ugpCDhrtTRU"), "sudo": wSudoEdit,
		"vim": wVim, "vi": wVim, "nvim": wVim,
		"gofmt": wFormatter("-w", "-l -d"), "goimports": wFormatter("-w", "-l -d"), "shfmt": wFormatter("-w", "-l -d"),
		"prettier": wFormatter("--write", "--check -c"), "eslint": wFormatter("--fix", ""),
		"black": wFormatter("", "--check --diff"), "isort": wFormatter("", "--check --check-only --diff"),
		"autopep8": wFormatter("-i --in-place", ""), "clang-format": wFormatter("-i", ""), "rustfmt": wFormatter("", "--check"),
		"ruff": wRuff, "find": wFind, "yq": wYq,
	}
}

// wOperands: every operand is written (rm, touch, mkdir).
func wOperands(short string, long ...string) writer {
	return func(a *analyzer, c *Cmd) {
		tree := c.Name == "rm" && shell.HasOption(c.Args, "rR", "--recursive")
		for _, w := range shell.Operands(c.Args, short, long...) {
			a.writes().wrote(c, w, c.Scope, c.Name)
			if tree {
				a.self().ownTree(c, w, c.Scope)
			}
		}
	}
}

// wContent: every operand's contents are written (tee, truncate).
func wContent(short string, long ...string) writer {
	return func(a *analyzer, c *Cmd) {
		for _, w := range shell.Operands(c.Args, short, long...) {
			a.writes().wroteContent(c, w, c.Scope, c.Name)
		}
	}
}

// wAfterFirst: the first operand is a mode or owner, the rest are files
// (chmod 644 f; chmod --reference=r f has no mode operand).
func wAfterFirst(short string, long ...string) writer {
	return func(a *analyzer, c *Cmd) {
		ops := shell.Operands(c.Args, short, long...)
		if _, ref := shell.OptValue(c.Args, 0, "--reference"); !ref && len(ops) > 0 {
			ops = ops[1:]
		}
		tree := shell.HasOption(c.Args, "R", "--recursive")
		for _, w := range ops {
			a.writes().wrote(c, w, c.Scope, c.Name)
			if tree {
				a.self().ownTree(c, w, c.Scope)
			}
		}
	}
}

// wSudoEdit: sudo -e FILES edits the files (sudo running a command is
// unwrapped by its handler and judged as that command).
func wSudoEdit(a *analyzer, c *Cmd) {
	if shell.HasOption(c.Args, "e", "--edit") {
		wContent("ugpCDhrtTRU", "--user", "--group", "--prompt", "--chdir", "--role", "--type", "--host", "--other-user", "--close-from")(a, c)
	}
}

// wChmod: chmod's mode may look like an option (chmod -x f), so only
// its real options are skipped before the mode.
func wChmod(a *analyzer, c *Cmd) {
	_, ref := shell.OptValue(c.Args, 0, "--reference")
	modeSeen := ref
	for _, w := range c.Args {
		switch {
		case !w.Dyn && (oneOf(w.Text, "-R|-c|-f|-v|-h|-H|-L|-P|--") || strings.HasPrefix(w.Text, "--")):
		case !modeSeen:
			modeSeen = true
		default:
			a.writes().wrote(c, w, c.Scope, "chmod")
			if shell.HasOption(c.Args, "R", "--recursive") {
				a.self().ownTree(c, w, c.Scope)
			}
		}
	}
}

// wCopy: cp/mv/install/ln write their destination (and mv its sources).
// Whether a destination is a directory is not known without the file
// system; naming the destination itself covers both readings for a
// scope, which contains a directory's entries whenever it contains the
// directory.
func wCopy(a *analyzer, c *Cmd) {
	ops := shell.Operands(c.Args, "tSmogTbZ", "--target-directory", "--suffix", "--mode", "--owner", "--group")
	if c.Name == "install" && shell.HasOption(c.Args, "d", "--directory") {
		for _, w := range ops {
			a.writes().wrote(c, w, c.Scope, c.Name)
		}
		return
	}
	srcs := ops
	var dst shell.Word
	intoDir := false
	if dir, ok := shell.OptValue(c.Args, 't', "--target-directory"); ok {
		a.writes().wroteContent(c, dir, c.Scope, c.Name)
		dst, intoDir = dir, true
	} else if len(ops) >= 2 {
		srcs = ops[:len(ops)-1]
		dst, intoDir = ops[len(ops)-1], len(ops) > 2
		a.writes().wroteContent(c, dst, c.Scope, c.Name)
	} else if c.Name == "ln" && len(ops) == 1 && !ops[0].Dyn {
		dst = shell.Lit(path.Base(ops[0].Text)) // ln -s /x/y: ./y
		a.writes().wrote(c, dst, c.Scope, c.Name)
		a.self().noteLink(c, ops[0], dst, false)
		return
	} else {
		return
	}
	if c.Name == "mv" {
		for _, s := range srcs {
			a.writes().wrote(c, s, c.Scope, c.Name)
			a.self().ownTree(c, s, c.Scope)
		}
	}
	a.writes().copyEffects(c, srcs, dst, intoDir)
}

// copyEffects follows a copy, move or link into atreides's own files:
// each source may land inside the destination directory (cp x.json .claude
// is .claude/x.json); a link is remembered for the rest of the command;
// a copy of an installed atreides program is atreides under a new name.
func (a effectWalk) copyEffects(c *Cmd, srcs []shell.Word, dst shell.Word, intoDir bool) {
	if c.Name == "ln" {
		for _, s := range srcs {
			if len(srcs) == 1 && !intoDir {
				a.self().noteLink(c, s, dst, false)
			}
			a.self().noteLink(c, s, dst, true)
		}
	}
	if !a.judging() {
		return
	}
	recursive := c.Name == "mv" || c.Name == "cp" && shell.HasOption(c.Args, "rRa", "--recursive", "--archive")
	var lands []shell.Landing
	for _, s := range srcs {
		// A long list repeats its names: each lands once.
		if l := shell.SourceLanding(s, false); !slices.Contains(lands, l) && len(lands) < 64 {
			lands = append(lands, l)
		} else if len(lands) >= 64 && !l.Contents {
			lands[0] = shell.Landing{Contents: true} // more names than judged one by one
		}
		if oneOf(c.Name, "cp|install") {
			a.noteCopy(c, s, dst)
		}
	}
	a.self().ownLanding(c, dst, lands, recursive)
}

// noteCopy remembers a copy of an installed atreides program (the
// destination, and the source's name inside it when it is a directory).
func (a effectWalk) noteCopy(c *Cmd, src, dst shell.Word) {
	if src.Dyn || dst.Dyn {
		return
	}
	sp, ok := a.canon(src.Text, c.Scope)
	o := a.req.ownFiles()
	if !ok || !slices.Contains(o.bins, foldPath(sp)) && !onPath(o, foldPath(sp)) {
		return
	}
	d, ok := a.canon(dst.Text, c.Scope)
	if !ok {
		return
	}
	if a.paths.copies == nil {
		a.paths.copies = map[string]bool{}
	}
	a.paths.copies[d] = true
	a.paths.copies[path.Join(d, path.Base(sp))] = true
}

// remote reports an rsync/scp operand on another host (host:path).
func remote(w shell.Word) bool {
	i := strings.IndexByte(w.Text, ':')
	return i > 0 && !strings.Contains(w.Text[:i], "/")
}

func wRsync(a *analyzer, c *Cmd) {
	ops := shell.Operands(c.Args, "eBfT", "--rsh", "--exclude", "--include", "--filter", "--exclude-from", "--include-from", "--files-from", "--temp-dir", "--partial-dir", "--backup-dir", "--suffix", "--rsync-path", "--chmod", "--compare-dest", "--copy-dest", "--link-dest")
	if len(ops) < 2 || shell.HasOption(c.Args, "n", "--dry-run", "--list-only") {
		return
	}
	dst := ops[len(ops)-1]
	if !remote(dst) {
		a.writes().wroteContent(c, dst, c.Scope, c.Name)
		var lands []shell.Landing
		for _, s := range ops[:len(ops)-1] {
			if !remote(s) {
				lands = append(lands, shell.SourceLanding(s, true))
			} else {
				lands = append(lands, shell.Landing{Contents: true}) // host:dir, its name unknown here
			}
		}
		a.self().ownLanding(c, dst, lands, true)
	}
	if shell.HasOption(c.Args, "", "--remove-source-files") {
		for _, s := range ops[:len(ops)-1] {
			if !remote(s) {
				a.writes().wrote(c, s, c.Scope, c.Name)
			}
		}
	}
}

func wDD(a *analyzer, c *Cmd) {
	for _, w := range c.Args {
		if of, ok := strings.CutPrefix(w.Text, "of="); ok {
			w.Text = of
			a.writes().wroteContent(c, w, c.Scope, "dd")
		}
	}
}

// wInPlace: sed -i edits its file operands; the script is the first
// operand unless -e/-f gave one.
func wInPlace(short string, long ...string) writer {
	return func(a *analyzer, c *Cmd) {
		if !shell.InPlace(c.Args, short) {
			return
		}
		files := shell.Operands(c.Args, short, long...)
		if _, e := shell.OptValue(c.Args, 'e', "--expression"); !e {
			if _, f := shell.OptValue(c.Args, 'f', "--file"); !f && len(files) > 0 {
				files = files[1:]
			}
		}
		for _, w := range files {
			a.writes().wroteContent(c, w, c.Scope, c.Name+" -i")
		}
	}
}

// wYq: yq -i edits its file operands in place; the first operand is the
// expression.
func wYq(a *analyzer, c *Cmd) {
	if !shell.InPlace(c.Args, "opIs") {
		return
	}
	files := shell.Operands(c.Args, "opIs", "--output-format", "--input-format", "--indent", "--split-exp")
	if _, f := shell.OptValue(c.Args, 0, "--from-file"); !f && len(files) > 0 {
		files = files[1:]
	}
	for _, w := range files {
		a.writes().wroteContent(c, w, c.Scope, "yq -i")
	}
}

// wPerlRuby: -i edits the files after the program; other programs are
// interpreter code whose writes cannot be listed.
func wPerlRuby(a *analyzer, c *Cmd) {
	if !shell.InPlace(c.Args, "eEIMlx") {
		if !c.VersionQuery() {
			a.writes().unknownWrite(c.Name+" runs a program whose writes cannot be listed", false, c.Name)
		}
		return
	}
	files := shell.Operands(c.Args, "eEIMlx")
	if !shell.HasOption(c.Args, "eE") && len(files) > 0 {
		files = files[1:]
	}
	for _, w := range files {
		a.writes().wrote(c, w, c.Scope, c.Name+" -i")
	}
	if shell.HasOption(c.Args, "eE") {
		a.writes().unknownWrite(c.Name+" -e code may write other files", false, c.Name)
	}
}

func wOutputOpt(short byte, long string) writer {
	return func(a *analyzer, c *Cmd) {
		if w, ok := shell.OptValue(c.Args, short, long); ok {
			a.writes().wrote(c, w, c.Scope, c.Name+" "+long)
		}
	}
}

// wSplit: split writes PREFIXaa, PREFIXab ... (x by default).
func wSplit(a *analyzer, c *Cmd) {
	ops := shell.Operands(c.Args, "abClnt", "--suffix-length", "--bytes", "--line-bytes", "--lines", "--number", "--separator", "--additional-suffix", "--prefix")
	prefix := shell.Lit("x")
	if len(ops) >= 2 {
		prefix = ops[len(ops)-1]
	}
	if c.Name == "csplit" {
		if p, ok := shell.OptValue(c.Args, 'f', "--prefix"); ok {
			prefix = p
		} else {
			prefix = shell.Lit("xx")
		}
	}
	if prefix.Dyn {
		a.writes().wrote(c, prefix, c.Scope, c.Name)
		return
	}
	prefix.Text += "*"
	prefix.Glob = true
	a.writes().wrote(c, prefix, c.Scope, c.Name)
}

// sideFile is an option naming a file a downloader writes besides what
// it downloads (headers, cookies, a log).
type sideFile struct {
	short byte
	long  string
}

var sideFiles = map[string][]sideFile{
	"curl": {{'D', "--dump-header"}, {'c', "--cookie-jar"}, {0, "--trace"}, {0, "--trace-ascii"}, {0, "--stderr"}, {0, "--etag-save"}},
	"wget": {{'o', "--output-file"}, {'a', "--append-output"}},
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
	for _, o := range sideFiles[c.Name] {
		if w, ok := shell.OptValue(c.Args, o.short, o.long); ok {
			a.writes().wrote(c, w, c.Scope, c.Name+" "+o.long)
		}
	}
	if c.Name == "curl" && shell.HasOption(c.Args, "J", "--remote-header-name") {
		a.writes().unknownWrite("curl -J names its output file after the server's answer", true, "curl -O")
	}
}

// wTar: -c/-r/-u write the archive; -x writes the archive's members
// under -C (or the working directory).
func wTar(a *analyzer, c *Cmd) {
	mode := ""
	args := c.Args
	if len(args) > 0 && !args[0].Dyn && !strings.HasPrefix(args[0].Text, "-") {
		mode = args[0].Text // tar xzf a.tgz: the first word is a bundle
	}
	has := func(letter, long string) bool {
		return strings.Contains(mode, letter) || shell.HasOption(args, letter, long)
	}
	switch {
	case has("x", "--extract") || has("x", "--get"):
		if has("O", "--to-stdout") {
			return
		}
		if shell.HasOption(args, "P", "--absolute-names") {
			a.writes().unknownWrite("tar -P extracts members to the paths they name", true, "tar -x")
			if a.judging() {
				a.fire(ruleSelfTreeWrite, c, "tar -P extracts members to any path they name")
			}
			return
		}
		if d, ok := shell.OptValue(args, 'C', "--directory"); ok {
			// Members land under -C (tar strips leading / and refuses
			// ".." unless -P): a scope holding the directory holds them.
			a.writes().wrote(c, d, c.Scope, "tar -x")
			a.self().ownExtract(c, &d, "tar -x")
			return
		}
		a.writes().unknownWrite("tar extracts the archive's files into the working directory", true, "tar -x")
		a.self().ownExtract(c, nil, "tar -x")
	case has("c", "--create") || has("r", "--append") || has("u", "--update"):
		archive, ok := shell.OptValue(args, 'f', "--file")
		if !ok && strings.Contains(mode, "f") && len(args) > 1 {
			archive, ok = args[1], true // tar cf out.tar dir: the bundle's f takes the next word
		}
		if ok {
			a.writes().wrote(c, archive, c.Scope, "tar")
		}
		if shell.HasOption(args, "", "--remove-files") {
			// The members are deleted once archived: each is written.
			members := args
			if mode != "" {
				members = args[1:]
			}
			for _, w := range shell.Operands(members, "fCT", "--file", "--directory", "--files-from") {
				if !ok || w.Text != archive.Text {
					a.writes().wrote(c, w, c.Scope, "tar --remove-files")
				}
			}
		}
	}
}

func wUnzip(a *analyzer, c *Cmd) {
	if shell.HasOption(c.Args, "lptvzZ", "") {
		return // list, test or print to stdout
	}
	if d, ok := shell.OptValue(c.Args, 'd', ""); ok {
		a.writes().wrote(c, d, c.Scope, "unzip") // unzip skips members that climb out with ".."
		a.self().ownExtract(c, &d, "unzip")
		return
	}
	a.writes().unknownWrite("unzip extracts the archive's files into the working directory", true, "unzip")
	a.self().ownExtract(c, nil, "unzip")
}

func wUnpack(subs string) writer {
	return func(a *analyzer, c *Cmd) {
		if len(c.Args) > 0 && oneOf(c.Args[0].Text, subs) {
			a.writes().unknownWrite(c.Name+" extracts an archive's files", true, c.Name)
			var dir *shell.Word
			for _, w := range c.Args {
				if v, ok := strings.CutPrefix(w.Text, "-o"); ok && v != "" {
					d := w
					d.Text = v
					dir = &d // 7z x a.7z -obuild
				}
			}
			a.self().ownExtract(c, dir, c.Name+" "+c.Args[0].Text)
		}
	}
}

// wCompress: gzip f replaces f by f.gz (and gunzip the reverse), unless
// the output goes to stdout.
func wCompress(a *analyzer, c *Cmd) {
	if shell.HasOption(c.Args, "ctl", "--stdout", "--to-stdout", "--test", "--list") {
		return
	}
	for _, w := range shell.Operands(c.Args, "S", "--suffix") {
		a.writes().wrote(c, w, c.Scope, c.Name)
	}
}

func wZip(a *analyzer, c *Cmd) {
	if ops := shell.Operands(c.Args, "bnPtx"); len(ops) > 0 {
		a.writes().wrote(c, ops[0], c.Scope, "zip")
	}
}

func wPatch(a *analyzer, c *Cmd) {
	if shell.HasOption(c.Args, "", "--dry-run", "--check") {
		return
	}
	if o, ok := shell.OptValue(c.Args, 'o', "--output"); ok {
		a.writes().wrote(c, o, c.Scope, "patch")
		return
	}
	if ops := shell.Operands(c.Args, "pFdDiBrVYzoxg", "--strip", "--fuzz", "--directory", "--input", "--reject-file", "--prefix", "--suffix", "--output"); len(ops) > 0 {
		a.writes().wrote(c, ops[0], c.Scope, "patch")
		return
	}
	a.writes().unknownWrite("patch writes the files its patch names", true, "patch")
}

// wVim: vim -es / ex mode runs commands that may write the files named.
func wVim(a *analyzer, c *Cmd) {
	for _, w := range shell.Operands(c.Args, "cSuUiTwWt", "--cmd") {
		a.writes().wrote(c, w, c.Scope, c.Name)
	}
}

// wFormatter: gofmt -w FILES, prettier --write FILES: the files named, or
// everything under the working directory when none is; flag ("" = the
// tool writes by default) turns writing on, check turns it off.
func wFormatter(flag, check string) writer {
	return func(a *analyzer, c *Cmd) {
		if flag != "" && !shell.AnyFlag(c.Args, strings.Fields(flag)) || shell.AnyFlag(c.Args, strings.Fields(check)) {
			return
		}
		what := c.Name
		if f := strings.Fields(flag); len(f) > 0 {
			what += " " + f[0]
		}
		files := shell.Operands(c.Args, "", "--config", "--ignore-path", "--plugin", "--parser", "--ext", "-c", "--rule", "--line-length", "-l")
		if len(files) == 0 {
			a.writes().unknownWrite(what+" rewrites files under the working directory", true, what)
			return
		}
		for _, w := range files {
			a.writes().wrote(c, w, c.Scope, what)
		}
	}
}

func wRuff(a *analyzer, c *Cmd) {
	sub := shell.FirstOperand(c.Args)
	switch {
	case sub == "format" && !shell.AnyFlag(c.Args, []string{"--check", "--diff"}):
	case sub == "check" && shell.AnyFlag(c.Args, []string{"--fix"}):
	default:
		return
	}
	files := shell.Operands(c.Args, "", "--config", "--select", "--ignore", "--extend-select", "--line-length", "--target-version")[1:]
	if len(files) == 0 {
		a.writes().unknownWrite("ruff "+sub+" rewrites files under the working directory", true, "ruff "+sub)
		return
	}
	for _, w := range files {
		a.writes().wrote(c, w, c.Scope, "ruff "+sub)
	}
}

// wFind: -delete removes matches under the start points; the commands of
// -exec are walked as commands of their own.
func wFind(a *analyzer, c *Cmd) {
	if !shell.AnyFlag(c.Args, []string{"-delete"}) {
		return
	}
	var roots []string
	for _, w := range c.Args {
		if !w.Dyn && (strings.HasPrefix(w.Text, "-") || oneOf(w.Text, "(|!")) {
			break
		}
		roots = append(roots, w.Display())
		if p, ok := a.canon(w.Text, c.Scope); ok && !w.Dyn && a.judging() {
			a.self().ownWrite(c, p)
		}
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	a.writes().unknownWrite("find -delete removes the matches under "+strings.Join(roots, " "), true, "find -delete")
}

// gitGlobalOptions skips git's options before the subcommand and returns
// the arguments from the subcommand on, in the directory -C names.
func gitGlobalOptions(a *analyzer, args []shell.Word, sc *shell.Scope) ([]shell.Word, *shell.Scope) {
	for len(args) > 0 && !args[0].Dyn && strings.HasPrefix(args[0].Text, "-") {
		s := args[0].Text
		if oneOf(s, "-C|-c|--git-dir|--work-tree|--namespace|--config-env") && len(args) > 1 {
			if s == "-C" {
				sc = sc.Clone().Chdir(args[1], a.req.Home)
			}
			args = args[2:]
			continue
		}
		args = args[1:]
	}
	return args, sc
}

// wGitCheckout records the writes of git checkout or restore (sub): the
// paths after --, restore's operands, or any tracked file.
func wGitCheckout(a *analyzer, g *Cmd, sub string, rest []shell.Word, sc *shell.Scope) {
	if i := slices.IndexFunc(rest, func(w shell.Word) bool { return !w.Dyn && w.Text == "--" }); i >= 0 {
		for _, p := range rest[i+1:] {
			a.writes().wrote(g, p, sc, "git "+sub)
		}
		return
	}
	ops := shell.Operands(rest, "sbBU", "--source", "--conflict", "--pathspec-from-file")
	if sub == "restore" {
		for _, p := range ops {
			a.writes().wrote(g, p, sc, "git restore")
		}
		return
	}
	if len(ops) == 0 && shell.HasOption(rest, "bB", "--orphan") {
		return // a new branch at HEAD: the tree stays as it is
	}
	a.writes().unknownWrite("git checkout may rewrite any tracked file", true, "git checkout")
}

// wGit: the subcommands that write the work tree.
func wGit(a *analyzer, c *Cmd) {
	args, sc := gitGlobalOptions(a, c.Args, c.Scope)
	if len(args) == 0 || args[0].Dyn {
		return
	}
	sub, rest := args[0].Text, args[1:]
	if oneOf(sub, gitChangers) {
		a.walkSt.eff.Changed("git " + sub)
	}
	g := &Cmd{Command: shell.Command{Name: "git " + sub, Args: rest, Scope: sc}, a: a}
	switch sub {
	case "apply", "am":
		if !shell.HasOption(rest, "", "--check", "--stat", "--numstat", "--summary", "--cached") {
			a.writes().unknownWrite("git "+sub+" writes the files its patch names", true, "git "+sub)
		}
	case "checkout", "restore":
		wGitCheckout(a, g, sub, rest, sc)
	case "rm", "mv":
		if shell.HasOption(rest, "n", "--cached", "--dry-run") {
			return
		}
		for _, p := range shell.Operands(rest, "", "--pathspec-from-file") {
			a.writes().wrote(g, p, sc, "git "+sub)
		}
	case "reset":
		if shell.HasOption(rest, "", "--hard", "--merge", "--keep") {
			a.writes().unknownWrite("git reset "+"--hard rewrites the working tree", true, "git reset")
		}
	case "clean":
		if !shell.HasOption(rest, "n", "--dry-run") {
			a.writes().unknownWrite("git clean deletes untracked files", true, "git clean")
		}
	case "stash":
		if len(rest) == 0 || oneOf(shell.FirstOperand(rest), "push|save|pop|apply|drop|clear") || shell.FirstOperand(rest) == "" {
			if sub := shell.FirstOperand(rest); !oneOf(sub, "drop|clear") {
				a.writes().unknownWrite("git stash rewrites the working tree", true, "git stash")
			}
		}
	case "merge", "rebase", "pull", "cherry-pick", "revert", "switch", "worktree", "submodule", "clone", "init":
		if oneOf(sub, "merge|rebase|cherry-pick|revert") {
			if shell.HasOption(rest, "", "--abort", "--quit") {
				return
			}
		}
		a.writes().unknownWrite("git "+sub+" rewrites the working tree", true, "git "+sub)
	}
}

// gitChangers are the subcommands that change the work tree or the
// history; read-only ones (status, diff, log, show) are exploration.
const gitChangers = "commit|apply|checkout|switch|restore|reset|merge|rebase|cherry-pick|revert|stash|pull|am|mv|rm|clean|add"

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
