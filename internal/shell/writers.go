package shell

import (
	"path"
	"slices"
	"strings"
)

// Recorder receives what the writers find a command writes, in the order
// the command does it. The guard's walk is one: it records the Effects
// and, when it judges, checks each target and follows what lands in
// atreides's own files (trees, links, copies, extractions); a recorder
// that only lists effects may ignore those.
type Recorder interface {
	// Wrote: c deletes, creates, moves or changes the mode of the file w
	// names (what names the writer for Effects.Changes: "rm").
	Wrote(c *Command, w Word, what string)
	// WroteContent: c writes the contents of the file w names (tee, a
	// copy's destination, sed -i, dd of=).
	WroteContent(c *Command, w Word, what string)
	// UnknownWrite: c writes files it does not name; certain says it
	// does change files, not only that it may.
	UnknownWrite(why string, certain bool, what string)
	// Changed: c certainly changes files (git commit) without naming them.
	Changed(what string)
	// Tree: c deletes, moves or changes the whole tree under w (rm -r,
	// mv, chmod -R).
	Tree(c *Command, w Word)
	// Link: c makes link (or, intoDir, a link inside the directory link)
	// point to target.
	Link(c *Command, target, link Word, intoDir bool)
	// Landed: c puts srcs into the directory dst, recursive when whole
	// trees are copied.
	Landed(c *Command, dst Word, srcs []Landing, recursive bool)
	// Copied: c copies the file src to dst (cp, install).
	Copied(c *Command, src, dst Word)
	// Extracted: c extracts an archive into dir (nil: the working
	// directory); what names the extractor.
	Extracted(c *Command, dir *Word, what string)
	// ExtractsAnywhere: c extracts members to any path they name (tar -P).
	ExtractsAnywhere(c *Command)
	// DeletesUnder: c deletes matches under the start point w (find
	// -delete).
	DeletesUnder(c *Command, w Word)
}

// WriterOf is what knows where the program name writes, nil when this
// package does not model it. home is the home directory (git -C ~).
// Switches, not a table: a hook asks for a few programs, and building a
// map of every writer was first-use work of every command checked.
func WriterOf(name string) Writer {
	if w := fileWriterOf(name); w != nil {
		return w
	}
	if w := archiverOf(name); w != nil {
		return w
	}
	return formatterOf(name)
}

// fileWriterOf: the programs that write, move, link or edit files.
func fileWriterOf(name string) Writer {
	switch name {
	case "rm", "rmdir", "unlink", "sponge":
		return wOperands("")
	case "shred":
		return wOperands("ns", "--iterations", "--size")
	case "touch":
		return wOperands("dtr", "--date", "--reference")
	case "mkdir":
		return wOperands("m", "--mode")
	case "mkfifo":
		return wOperands("mZ", "--mode")
	case "tee":
		return wContent("")
	case "truncate":
		return wContent("sr", "--size", "--reference")
	case "chmod":
		return wChmod
	case "chown", "chgrp":
		return wAfterFirst("", "--reference")
	case "setfacl":
		return wOperands("mMxX", "--modify", "--modify-file", "--remove", "--remove-file", "--set", "--set-file")
	case "chattr":
		return wAfterFirst("pv")
	case "ed":
		return wOperands("p", "--prompt")
	case "ex":
		return wOperands("cs")
	case "cp", "mv", "install", "ln":
		return wCopy
	case "rsync":
		return wRsync
	case "dd":
		return wDD
	case "sed":
		return wInPlace("efl", "--expression", "--file", "--line-length")
	case "perl", "ruby":
		return wPerlRuby
	case "sort":
		return wOutputOpt('o', "--output")
	case "split", "csplit":
		return wSplit
	case "patch":
		return wPatch
	case "git":
		return wGit
	case "sudoedit":
		return wContent("ugpCDhrtTRU")
	case "sudo":
		return wSudoEdit
	case "vim", "vi", "nvim":
		return wVim
	case "find":
		return wFind
	case "yq":
		return wYq
	}
	return nil
}

// archiverOf: the programs that pack and unpack archives.
func archiverOf(name string) Writer {
	switch name {
	case "tar", "bsdtar":
		return wTar
	case "unzip":
		return wUnzip
	case "7z":
		return wUnpack("x", "e")
	case "gzip", "gunzip", "bzip2", "bunzip2", "xz", "unxz", "zstd", "unzstd":
		return wCompress
	case "zip":
		return wZip
	}
	return nil
}

// formatterOf: the code formatters and fixers that rewrite files.
func formatterOf(name string) Writer {
	switch name {
	case "gofmt", "goimports", "shfmt":
		return wFormatter("-w", "-l -d")
	case "prettier":
		return wFormatter("--write", "--check -c")
	case "eslint":
		return wFormatter("--fix", "")
	case "black":
		return wFormatter("", "--check --diff")
	case "isort":
		return wFormatter("", "--check --check-only --diff")
	case "autopep8":
		return wFormatter("-i --in-place", "")
	case "clang-format":
		return wFormatter("-i", "")
	case "rustfmt":
		return wFormatter("", "--check")
	case "ruff":
		return wRuff
	}
	return nil
}

type Writer func(r Recorder, c *Command, home string)

// wOperands: every operand is written (rm, touch, mkdir).
func wOperands(short string, long ...string) Writer {
	return func(r Recorder, c *Command, home string) {
		tree := c.Name == "rm" && HasOption(c.Args, "rR", "--recursive")
		for _, w := range Operands(c.Args, short, long...) {
			r.Wrote(c, w, c.Name)
			if tree {
				r.Tree(c, w)
			}
		}
	}
}

// wContent: every operand's contents are written (tee, truncate).
func wContent(short string, long ...string) Writer {
	return func(r Recorder, c *Command, home string) {
		for _, w := range Operands(c.Args, short, long...) {
			r.WroteContent(c, w, c.Name)
		}
	}
}

// wAfterFirst: the first operand is a mode or owner, the rest are files
// (chmod 644 f; chmod --reference=r f has no mode operand).
func wAfterFirst(short string, long ...string) Writer {
	return func(r Recorder, c *Command, home string) {
		ops := Operands(c.Args, short, long...)
		if _, ref := OptValue(c.Args, 0, "--reference"); !ref && len(ops) > 0 {
			ops = ops[1:]
		}
		tree := HasOption(c.Args, "R", "--recursive")
		for _, w := range ops {
			r.Wrote(c, w, c.Name)
			if tree {
				r.Tree(c, w)
			}
		}
	}
}

// wSudoEdit: sudo -e FILES edits the files (sudo running a command is
// unwrapped by its handler and judged as that command).
func wSudoEdit(r Recorder, c *Command, home string) {
	if HasOption(c.Args, "e", "--edit") {
		wContent("ugpCDhrtTRU", "--user", "--group", "--prompt", "--chdir", "--role", "--type", "--host", "--other-user", "--close-from")(r, c, home)
	}
}

// wChmod: chmod's mode may look like an option (chmod -x f), so only
// its real options are skipped before the mode.
func wChmod(r Recorder, c *Command, home string) {
	_, ref := OptValue(c.Args, 0, "--reference")
	modeSeen := ref
	for _, w := range c.Args {
		switch {
		case !w.Dyn && (slices.Contains([]string{"-R", "-c", "-f", "-v", "-h", "-H", "-L", "-P", "--"}, w.Text) || strings.HasPrefix(w.Text, "--")):
		case !modeSeen:
			modeSeen = true
		default:
			r.Wrote(c, w, "chmod")
			if HasOption(c.Args, "R", "--recursive") {
				r.Tree(c, w)
			}
		}
	}
}

// wCopy: cp/mv/install/ln write their destination (and mv its sources).
// Whether a destination is a directory is not known without the file
// system; naming the destination itself covers both readings for a
// scope, which contains a directory's entries whenever it contains the
// directory.
func wCopy(r Recorder, c *Command, home string) {
	ops := Operands(c.Args, "tSmogTbZ", "--target-directory", "--suffix", "--mode", "--owner", "--group")
	if c.Name == "install" && HasOption(c.Args, "d", "--directory") {
		for _, w := range ops {
			r.Wrote(c, w, c.Name)
		}
		return
	}
	srcs := ops
	var dst Word
	intoDir := false
	if dir, ok := OptValue(c.Args, 't', "--target-directory"); ok {
		r.WroteContent(c, dir, c.Name)
		dst, intoDir = dir, true
	} else if len(ops) >= 2 {
		srcs = ops[:len(ops)-1]
		dst, intoDir = ops[len(ops)-1], len(ops) > 2
		r.WroteContent(c, dst, c.Name)
	} else if c.Name == "ln" && len(ops) == 1 && !ops[0].Dyn {
		dst = Lit(path.Base(ops[0].Text)) // ln -s /x/y: ./y
		r.Wrote(c, dst, c.Name)
		r.Link(c, ops[0], dst, false)
		return
	} else {
		return
	}
	if c.Name == "mv" {
		for _, s := range srcs {
			r.Wrote(c, s, c.Name)
			r.Tree(c, s)
		}
	}
	copyEffects(r, c, srcs, dst, intoDir)
}

// copyEffects follows a copy, move or link into atreides's own files:
// each source may land inside the destination directory (cp x.json .claude
// is .claude/x.json); a link is remembered for the rest of the command;
// a copy of an installed atreides program is atreides under a new name.
func copyEffects(r Recorder, c *Command, srcs []Word, dst Word, intoDir bool) {
	if c.Name == "ln" {
		for _, s := range srcs {
			if len(srcs) == 1 && !intoDir {
				r.Link(c, s, dst, false)
			}
			r.Link(c, s, dst, true)
		}
	}
	recursive := c.Name == "mv" || c.Name == "cp" && HasOption(c.Args, "rRa", "--recursive", "--archive")
	var lands []Landing
	for _, s := range srcs {
		// A long list repeats its names: each lands once.
		if l := sourceLanding(s, false); !slices.Contains(lands, l) && len(lands) < 64 {
			lands = append(lands, l)
		} else if len(lands) >= 64 && !l.Contents {
			lands[0] = Landing{Contents: true} // more names than judged one by one
		}
		if c.Name == "cp" || c.Name == "install" {
			r.Copied(c, s, dst)
		}
	}
	r.Landed(c, dst, lands, recursive)
}

// Remote reports an rsync/scp operand on another host (host:path).
func Remote(w Word) bool {
	i := strings.IndexByte(w.Text, ':')
	return i > 0 && !strings.Contains(w.Text[:i], "/")
}

func wRsync(r Recorder, c *Command, home string) {
	ops := Operands(c.Args, "eBfT", "--rsh", "--exclude", "--include", "--filter", "--exclude-from", "--include-from", "--files-from", "--temp-dir", "--partial-dir", "--backup-dir", "--suffix", "--rsync-path", "--chmod", "--compare-dest", "--copy-dest", "--link-dest")
	if len(ops) < 2 || HasOption(c.Args, "n", "--dry-run", "--list-only") {
		return
	}
	dst := ops[len(ops)-1]
	if !Remote(dst) {
		r.WroteContent(c, dst, c.Name)
		var lands []Landing
		for _, s := range ops[:len(ops)-1] {
			if !Remote(s) {
				lands = append(lands, sourceLanding(s, true))
			} else {
				lands = append(lands, Landing{Contents: true}) // host:dir, its name unknown here
			}
		}
		r.Landed(c, dst, lands, true)
	}
	if HasOption(c.Args, "", "--remove-source-files") {
		for _, s := range ops[:len(ops)-1] {
			if !Remote(s) {
				r.Wrote(c, s, c.Name)
			}
		}
	}
}

func wDD(r Recorder, c *Command, home string) {
	for _, w := range c.Args {
		if of, ok := strings.CutPrefix(w.Text, "of="); ok {
			w.Text = of
			r.WroteContent(c, w, "dd")
		}
	}
}

// wInPlace: sed -i edits its file operands; the script is the first
// operand unless -e/-f gave one.
func wInPlace(short string, long ...string) Writer {
	return func(r Recorder, c *Command, home string) {
		if !inPlace(c.Args, short) {
			return
		}
		files := Operands(c.Args, short, long...)
		if _, e := OptValue(c.Args, 'e', "--expression"); !e {
			if _, f := OptValue(c.Args, 'f', "--file"); !f && len(files) > 0 {
				files = files[1:]
			}
		}
		for _, w := range files {
			r.WroteContent(c, w, c.Name+" -i")
		}
	}
}

// wYq: yq -i edits its file operands in place; the first operand is the
// expression.
func wYq(r Recorder, c *Command, home string) {
	if !inPlace(c.Args, "opIs") {
		return
	}
	files := Operands(c.Args, "opIs", "--output-format", "--input-format", "--indent", "--split-exp")
	if _, f := OptValue(c.Args, 0, "--from-file"); !f && len(files) > 0 {
		files = files[1:]
	}
	for _, w := range files {
		r.WroteContent(c, w, "yq -i")
	}
}

// wPerlRuby: -i edits the files after the program; other programs are
// interpreter code whose writes cannot be listed.
func wPerlRuby(r Recorder, c *Command, home string) {
	if !inPlace(c.Args, "eEIMlx") {
		if !c.VersionQuery() {
			r.UnknownWrite(c.Name+" runs a program whose writes cannot be listed", false, c.Name)
		}
		return
	}
	files := Operands(c.Args, "eEIMlx")
	if !HasOption(c.Args, "eE") && len(files) > 0 {
		files = files[1:]
	}
	for _, w := range files {
		r.Wrote(c, w, c.Name+" -i")
	}
	if HasOption(c.Args, "eE") {
		r.UnknownWrite(c.Name+" -e code may write other files", false, c.Name)
	}
}

func wOutputOpt(short byte, long string) Writer {
	return func(r Recorder, c *Command, home string) {
		if w, ok := OptValue(c.Args, short, long); ok {
			r.Wrote(c, w, c.Name+" "+long)
		}
	}
}

// wSplit: split writes PREFIXaa, PREFIXab ... (x by default).
func wSplit(r Recorder, c *Command, home string) {
	ops := Operands(c.Args, "abClnt", "--suffix-length", "--bytes", "--line-bytes", "--lines", "--number", "--separator", "--additional-suffix", "--prefix")
	prefix := Lit("x")
	if len(ops) >= 2 {
		prefix = ops[len(ops)-1]
	}
	if c.Name == "csplit" {
		if p, ok := OptValue(c.Args, 'f', "--prefix"); ok {
			prefix = p
		} else {
			prefix = Lit("xx")
		}
	}
	if prefix.Dyn {
		r.Wrote(c, prefix, c.Name)
		return
	}
	prefix.Text += "*"
	prefix.Glob = true
	r.Wrote(c, prefix, c.Name)
}

// wTar: -c/-r/-u write the archive; -x writes the archive's members
// under -C (or the working directory).
func wTar(r Recorder, c *Command, home string) {
	mode := ""
	args := c.Args
	if len(args) > 0 && !args[0].Dyn && !strings.HasPrefix(args[0].Text, "-") {
		mode = args[0].Text // tar xzf a.tgz: the first word is a bundle
	}
	has := func(letter, long string) bool {
		return strings.Contains(mode, letter) || HasOption(args, letter, long)
	}
	switch {
	case has("x", "--extract") || has("x", "--get"):
		if has("O", "--to-stdout") {
			return
		}
		if HasOption(args, "P", "--absolute-names") {
			r.UnknownWrite("tar -P extracts members to the paths they name", true, "tar -x")
			r.ExtractsAnywhere(c)
			return
		}
		if d, ok := OptValue(args, 'C', "--directory"); ok {
			// Members land under -C (tar strips leading / and refuses
			// ".." unless -P): a scope holding the directory holds them.
			r.Wrote(c, d, "tar -x")
			r.Extracted(c, &d, "tar -x")
			return
		}
		r.UnknownWrite("tar extracts the archive's files into the working directory", true, "tar -x")
		r.Extracted(c, nil, "tar -x")
	case has("c", "--create") || has("r", "--append") || has("u", "--update"):
		archive, ok := OptValue(args, 'f', "--file")
		if !ok && strings.Contains(mode, "f") && len(args) > 1 {
			archive, ok = args[1], true // tar cf out.tar dir: the bundle's f takes the next word
		}
		if ok {
			r.Wrote(c, archive, "tar")
		}
		if HasOption(args, "", "--remove-files") {
			// The members are deleted once archived: each is written.
			members := args
			if mode != "" {
				members = args[1:]
			}
			for _, w := range Operands(members, "fCT", "--file", "--directory", "--files-from") {
				if !ok || w.Text != archive.Text {
					r.Wrote(c, w, "tar --remove-files")
				}
			}
		}
	}
}

func wUnzip(r Recorder, c *Command, home string) {
	if HasOption(c.Args, "lptvzZ", "") {
		return // list, test or print to stdout
	}
	if d, ok := OptValue(c.Args, 'd', ""); ok {
		r.Wrote(c, d, "unzip") // unzip skips members that climb out with ".."
		r.Extracted(c, &d, "unzip")
		return
	}
	r.UnknownWrite("unzip extracts the archive's files into the working directory", true, "unzip")
	r.Extracted(c, nil, "unzip")
}

func wUnpack(subs ...string) Writer {
	return func(r Recorder, c *Command, home string) {
		if len(c.Args) > 0 && slices.Contains(subs, c.Args[0].Text) {
			r.UnknownWrite(c.Name+" extracts an archive's files", true, c.Name)
			var dir *Word
			for _, w := range c.Args {
				if v, ok := strings.CutPrefix(w.Text, "-o"); ok && v != "" {
					d := w
					d.Text = v
					dir = &d // 7z x a.7z -obuild
				}
			}
			r.Extracted(c, dir, c.Name+" "+c.Args[0].Text)
		}
	}
}

// wCompress: gzip f replaces f by f.gz (and gunzip the reverse), unless
// the output goes to stdout.
func wCompress(r Recorder, c *Command, home string) {
	if HasOption(c.Args, "ctl", "--stdout", "--to-stdout", "--test", "--list") {
		return
	}
	for _, w := range Operands(c.Args, "S", "--suffix") {
		r.Wrote(c, w, c.Name)
	}
}

func wZip(r Recorder, c *Command, home string) {
	if ops := Operands(c.Args, "bnPtx"); len(ops) > 0 {
		r.Wrote(c, ops[0], "zip")
	}
}

func wPatch(r Recorder, c *Command, home string) {
	if HasOption(c.Args, "", "--dry-run", "--check") {
		return
	}
	if o, ok := OptValue(c.Args, 'o', "--output"); ok {
		r.Wrote(c, o, "patch")
		return
	}
	if ops := Operands(c.Args, "pFdDiBrVYzoxg", "--strip", "--fuzz", "--directory", "--input", "--reject-file", "--prefix", "--suffix", "--output"); len(ops) > 0 {
		r.Wrote(c, ops[0], "patch")
		return
	}
	r.UnknownWrite("patch writes the files its patch names", true, "patch")
}

// wVim: vim -es / ex mode runs commands that may write the files named.
func wVim(r Recorder, c *Command, home string) {
	for _, w := range Operands(c.Args, "cSuUiTwWt", "--cmd") {
		r.Wrote(c, w, c.Name)
	}
}

// wFormatter: gofmt -w FILES, prettier --write FILES: the files named, or
// everything under the working directory when none is; flag ("" = the
// tool writes by default) turns writing on, check turns it off.
func wFormatter(flag, check string) Writer {
	return func(r Recorder, c *Command, home string) {
		if flag != "" && !anyFlag(c.Args, strings.Fields(flag)) || anyFlag(c.Args, strings.Fields(check)) {
			return
		}
		what := c.Name
		if f := strings.Fields(flag); len(f) > 0 {
			what += " " + f[0]
		}
		files := Operands(c.Args, "", "--config", "--ignore-path", "--plugin", "--parser", "--ext", "-c", "--rule", "--line-length", "-l")
		if len(files) == 0 {
			r.UnknownWrite(what+" rewrites files under the working directory", true, what)
			return
		}
		for _, w := range files {
			r.Wrote(c, w, what)
		}
	}
}

func wRuff(r Recorder, c *Command, home string) {
	sub := FirstOperand(c.Args)
	switch {
	case sub == "format" && !anyFlag(c.Args, []string{"--check", "--diff"}):
	case sub == "check" && anyFlag(c.Args, []string{"--fix"}):
	default:
		return
	}
	files := Operands(c.Args, "", "--config", "--select", "--ignore", "--extend-select", "--line-length", "--target-version")[1:]
	if len(files) == 0 {
		r.UnknownWrite("ruff "+sub+" rewrites files under the working directory", true, "ruff "+sub)
		return
	}
	for _, w := range files {
		r.Wrote(c, w, "ruff "+sub)
	}
}

// wFind: -delete removes matches under the start points; the commands of
// -exec are walked as commands of their own.
func wFind(r Recorder, c *Command, home string) {
	if !anyFlag(c.Args, []string{"-delete"}) {
		return
	}
	var roots []string
	for _, w := range c.Args {
		if !w.Dyn && (strings.HasPrefix(w.Text, "-") || w.Text == "(" || w.Text == "!") {
			break
		}
		roots = append(roots, w.Display())
		r.DeletesUnder(c, w)
	}
	if len(roots) == 0 {
		roots = []string{"."}
	}
	r.UnknownWrite("find -delete removes the matches under "+strings.Join(roots, " "), true, "find -delete")
}

// gitGlobalOptions skips git's options before the subcommand and returns
// the arguments from the subcommand on, in the directory -C names.
func gitGlobalOptions(args []Word, sc *Scope, home string) ([]Word, *Scope) {
	for len(args) > 0 && !args[0].Dyn && strings.HasPrefix(args[0].Text, "-") {
		s := args[0].Text
		if slices.Contains([]string{"-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env"}, s) && len(args) > 1 {
			if s == "-C" {
				sc = sc.Clone().Chdir(args[1], home)
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
func wGitCheckout(r Recorder, g *Command, sub string, rest []Word) {
	if i := slices.IndexFunc(rest, func(w Word) bool { return !w.Dyn && w.Text == "--" }); i >= 0 {
		for _, p := range rest[i+1:] {
			r.Wrote(g, p, "git "+sub)
		}
		return
	}
	ops := Operands(rest, "sbBU", "--source", "--conflict", "--pathspec-from-file")
	if sub == "restore" {
		for _, p := range ops {
			r.Wrote(g, p, "git restore")
		}
		return
	}
	if len(ops) == 0 && HasOption(rest, "bB", "--orphan") {
		return // a new branch at HEAD: the tree stays as it is
	}
	r.UnknownWrite("git checkout may rewrite any tracked file", true, "git checkout")
}

// wGit: the subcommands that write the work tree.
func wGit(r Recorder, c *Command, home string) {
	args, sc := gitGlobalOptions(c.Args, c.Scope, home)
	if len(args) == 0 || args[0].Dyn {
		return
	}
	sub, rest := args[0].Text, args[1:]
	if slices.Contains(gitChangers, sub) {
		r.Changed("git " + sub)
	}
	g := &Command{Name: "git " + sub, Args: rest, Scope: sc}
	switch sub {
	case "apply", "am":
		if !HasOption(rest, "", "--check", "--stat", "--numstat", "--summary", "--cached") {
			r.UnknownWrite("git "+sub+" writes the files its patch names", true, "git "+sub)
		}
	case "checkout", "restore":
		wGitCheckout(r, g, sub, rest)
	case "rm", "mv":
		if HasOption(rest, "n", "--cached", "--dry-run") {
			return
		}
		for _, p := range Operands(rest, "", "--pathspec-from-file") {
			r.Wrote(g, p, "git "+sub)
		}
	case "reset":
		if HasOption(rest, "", "--hard", "--merge", "--keep") {
			r.UnknownWrite("git reset "+"--hard rewrites the working tree", true, "git reset")
		}
	case "clean":
		if !HasOption(rest, "n", "--dry-run") {
			r.UnknownWrite("git clean deletes untracked files", true, "git clean")
		}
	case "stash":
		if len(rest) == 0 || slices.Contains([]string{"push", "save", "pop", "apply", "drop", "clear"}, FirstOperand(rest)) || FirstOperand(rest) == "" {
			if sub := FirstOperand(rest); sub != "drop" && sub != "clear" {
				r.UnknownWrite("git stash rewrites the working tree", true, "git stash")
			}
		}
	case "merge", "rebase", "pull", "cherry-pick", "revert", "switch", "worktree", "submodule", "clone", "init":
		if slices.Contains([]string{"merge", "rebase", "cherry-pick", "revert"}, sub) {
			if HasOption(rest, "", "--abort", "--quit") {
				return
			}
		}
		r.UnknownWrite("git "+sub+" rewrites the working tree", true, "git "+sub)
	}
}

// gitChangers are the subcommands that change the work tree or the
// history; read-only ones (status, diff, log, show) are exploration.
var gitChangers = []string{"commit", "apply", "checkout", "switch", "restore", "reset", "merge", "rebase", "cherry-pick", "revert", "stash", "pull", "am", "mv", "rm", "clean", "add"}
