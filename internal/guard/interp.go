package guard

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// interpreter judges `python -c CODE`, `node -e CODE`, `python FILE`, and
// interpreters reading their program from stdin.
func (a codeJudge) interpreter(c *Cmd, sc *shell.Scope, depth int, in shell.Feed) shell.Feed {
	fam := shell.InterpFamily(c.Name)
	flags := shell.CodeFlags(fam)
	valued := shell.ValuedOptions(fam)
	var codes []shell.Word
	var script *shell.Word
	args := c.Args
	for i := 0; i < len(args); i++ {
		w := args[i]
		s := w.Text
		a.interpArgStrict(c, w, in)
		if w.Dyn && codes == nil && script == nil && !strings.HasPrefix(s, "-") {
			if w.Stream {
				a.fire(ruleDynamicStreamCode, c, c.Name+" program arrives on stdin")
			}
			script = &args[i]
			break
		}
		if fam == "deno" && s == "eval" && i+1 < len(args) {
			codes = append(codes, args[i+1])
			break
		}
		if oneOf(s, "-|--") {
			break
		}
		if !strings.HasPrefix(s, "-") {
			script = &args[i]
			break
		}
		if fam == "python" && (s == "-m" || strings.HasPrefix(s, "-m")) {
			if s == "-m" && i+1 < len(args) && args[i+1].Dyn {
				a.strict(c, c.Name+" -m module is computed at run time")
			}
			return shell.Feed{Taint: shell.TaintUnknown}
		}
		matched := false
		for _, f := range flags {
			code, next, ok := interpCodeFlag(w, f, valued)
			if !ok {
				continue
			}
			if !next {
				codes = append(codes, code)
			} else if i+1 < len(args) {
				codes = append(codes, args[i+1])
				i++
			}
			matched = true
			break
		}
		if matched {
			if oneOf(fam, "perl|ruby") {
				continue
			}
			break
		}
		if len(s) == 2 && strings.IndexByte(valued, s[1]) >= 0 || oneOf(s, "--require|--import|--loader|--experimental-loader|--title|--env-file") {
			i++
		}
		if fam == "kotlinc" && s == "-script" {
			continue
		}
	}
	a.interpProgram(c, fam, codes, script, sc, depth, in)
	return shell.Feed{Taint: shell.TaintUnknown}
}

// interpArgStrict notes, for strict mode, an interpreter's argument the
// guard cannot read: computed at run time, or "-" for a program on stdin
// it cannot see.
func (a codeJudge) interpArgStrict(c *Cmd, w shell.Word, in shell.Feed) {
	if w.Dyn && !w.Stream && w.Taint&shell.TaintRemote == 0 {
		// Code, a module or a script path held in a variable: as
		// opaque as any script file, so only strict mode objects.
		a.strict(c, c.Name+" argument "+w.Display()+" is computed at run time")
	}
	if w.Text == "-" && !w.Dyn && !in.Known {
		a.strict(c, c.Name+" reads its program from stdin")
	}
}

// interpCodeFlag matches the option w against f, one of an interpreter's
// code flags (-c, -e, --eval): ok when it is f, with the code in the next
// argument (next), attached (-cCODE, or last in a cluster of flags that
// take no value) or after "=" (--eval=CODE).
func interpCodeFlag(w shell.Word, f, valued string) (code shell.Word, next, ok bool) {
	s := w.Text
	ls := strings.ToLower(s)
	switch {
	case ls == f || (len(f) == 2 && len(s) > 2 && s[0] == '-' && s[1] != '-' && strings.HasSuffix(s, f[1:]) && !strings.ContainsAny(s[1:len(s)-1], valued)):
		return shell.Word{}, true, true
	case len(f) == 2 && strings.HasPrefix(s, f) && len(s) > 2 && !strings.HasPrefix(s, "--"):
		return shell.Word{Text: s[2:], Dyn: w.Dyn, Taint: w.Taint, Stream: w.Stream}, false, true
	case strings.HasPrefix(ls, f+"=") && strings.HasPrefix(f, "--"):
		return shell.Word{Text: s[len(f)+1:], Dyn: w.Dyn, Taint: w.Taint}, false, true
	}
	return shell.Word{}, false, false
}

// interpProgram judges what an interpreter runs: its inline code, its
// script file, or the program on its stdin.
func (a codeJudge) interpProgram(c *Cmd, fam string, codes []shell.Word, script *shell.Word, sc *shell.Scope, depth int, in shell.Feed) {
	switch {
	case len(codes) > 0:
		a.fire(ruleInterpOneLiner, c, "")
		for _, code := range codes {
			a.inlineCode(c, fam, code, sc, depth)
		}
	case script != nil:
		// A script file is not visible to the guard; a computed path only
		// matters when it arrives on stdin or was just downloaded.
		if script.Dyn && !script.Stream && script.Proc == nil && script.Taint&shell.TaintRemote == 0 {
			break
		}
		a.scriptFile(c, *script, sc, depth)
	case in.Taint&shell.TaintRemote != 0:
		a.fire(ruleRcePipeToShell, c, "downloaded program piped into "+c.Name)
	case in.Known:
		a.inlineCode(c, fam, shell.Word{Text: in.Text, Taint: in.Taint}, sc, depth)
	case in.Taint&shell.TaintDecoded != 0:
		a.fire(ruleRceDecodeToShell, c, "decoded program piped into "+c.Name)
	}
}

var (
	reShellAPI  = &lazyCode{src: `os\.system|os\.popen|subprocess|commands\.get|pty\.spawn|os\.exec|child_process|execSync|execFileSync|spawnSync|\bspawn\(|\bexec\(|\beval\(|\bsystem\(|shell_exec|passthru|proc_open|popen|IO\.popen|Open3|%x|Kernel\.exec|Runtime\.getRuntime|ProcessBuilder|do shell script|Bun\.spawn|Bun\.\$|\$\.spawn|Deno\.Command|os\.cmd|Start-Process|Invoke-Expression|sys\.process|\bqx|` + "`"}
	reDeleteAPI = &lazyCode{src: `rmtree|rmSync|rmdirSync|unlinkSync|\brm_rf\b|\brm_r\b|\brm_f\b|\brm\(|remove_dir|remove_entry|remove_tree|removedirs|os\.remove|os\.unlink|os\.rmdir|\bunlink\b|\brmdir\b|FileUtils\.rm|File\.delete|File\.unlink|Dir\.(?:delete|unlink|rmdir)|Path\(.*\)\.unlink|\.unlink\(|fs\.rm\(|fs\.rmdir\(|fs\.unlink\(|fs\.promises\.(?:rm|rmdir|unlink)|Remove-Item|Deno\.remove|delete_dir`}
	reFileAPI   = &lazyCode{src: `(?i)open\(|read|file|content|fs\.|cat |load|slurp|source|include|require|copy|IO\.|Path\(|fopen|stream|exec|system|spawn|\bsh\b`}
	reNetAPI    = &lazyCode{src: `(?i)urlopen|urllib|requests\.|http\.client|httpx|fetch\(|XMLHttpRequest|axios|net/http|Net::HTTP|LWP|HTTP::|curl_|file_get_contents\(['"]https?|socket|HTTPoison|httr::|HTTP\.request|http::geturl|java\.net\.URL|new URL\(|Invoke-WebRequest|Invoke-RestMethod|https?://`}
)

// inlineCode analyses a program given on the command line.
func (a codeJudge) inlineCode(c *Cmd, fam string, code shell.Word, sc *shell.Scope, depth int) {
	if code.Dyn {
		if code.Taint&shell.TaintRemote != 0 {
			a.fire(ruleRceRemoteCode, c, c.Name+" runs downloaded code")
		} else if code.Stream {
			a.fire(ruleDynamicStreamCode, c, c.Name+" code arrives on stdin")
		}
		code.Text = strings.ReplaceAll(code.Text, "\x00", "")
		if code.HasGuess {
			code.Text = code.Guess // substitution output the guard computed
		}
	}
	src := code.Text
	// The patterns below scan the text a few times over: about a
	// microsecond per four bytes where they find nothing.
	a.spend(len(src) / 4)
	text := newCodeText(src)
	lits, all := literalsUpTo(src, maxInlineLiterals)
	if !all {
		a.fire(ruleInterpTooLarge, c, fmt.Sprintf("%s code holds more than %d string literals the guard checks", c.Name, maxInlineLiterals))
	}
	// Code that is itself shell text (`node -e "rm -rf /"`) is judged as
	// shell; text that is not valid shell is ignored.
	walked := src
	if oneOf(fam, "pwsh|powershell") {
		walked = pwshAsShell(src)
	}
	if f, err := a.walker().Parse(walked); err == nil && depth+1 <= shell.MaxDepth {
		a.walker().Stmts(f.Stmts, sc.Clone(), depth+1, shell.Feed{})
	}
	if reShellAPI.get().MatchString(text) || oneOf(fam, "pwsh|powershell") {
		a.literalCommands(c, src, lits, sc, depth)
	}
	if reDeleteAPI.get().MatchString(text) {
		a.literalDeletes(c, lits, sc)
	}
	secret := false
	if reFileAPI.get().MatchString(text) {
		secret = a.literalSecrets(c, src, lits, sc)
	} else if a.p.sw("strict_unverifiable") > Allow {
		for _, l := range lits {
			if _, ok := a.files().secretPath(strings.TrimSpace(l), sc); ok {
				a.strict(c, c.Name+" code names a secret path "+l)
			}
		}
	}
	if oneOf(fam, "node|bun|deno") {
		// A tagged template (String.raw`...`, zx/Bun `$`...``, any
		// tag`...`) hands its text to a function the guard cannot
		// follow; text naming a secret file there is not plain data.
		for _, l := range taggedTemplates(src) {
			if m, ok := a.inlineSecretName(l, sc); ok {
				a.fire(ruleSecretInlineName, c, c.Name+" passes "+m+" to a template tag")
			}
		}
	}
	a.interpAPIs(c, fam, text, sc, depth)
	a.sdkDeletes(c, fam, text)
	if reNetAPI.get().MatchString(text) {
		for _, l := range lits {
			if u := urlHost(l); u != "" && suspiciousHost(u) {
				a.fire(ruleExfilSuspiciousHost, c, c.Name+" contacts "+u)
			}
		}
		if secret || sensitiveLiteral(lits) {
			a.fire(ruleExfilInline, c, c.Name+" reads a sensitive file and talks to the network")
		}
	}
}

// reSDKDelete: a method call that deletes what a client object holds,
// by the naming all SDKs share: delete_/destroy_/purge_/terminate_ (or
// camelCase deleteX) with any arguments (HfApi().delete_repo(...),
// s3.delete_object(...), ec2.terminate_instances(...), and qualified
// ones: clusters.permanent_delete(...)), drop_ of a
// store (drop_table, drop_database, dropCollection), and a bare
// .delete()/.destroy()/.purge() that deletes the object it is called on
// (run.delete(), queryset.delete()). Local containers' methods take an
// argument (Map.delete(k), Hash#delete(k)) or name what they act on
// (deleteCharAt, deleteProperty, drop_duplicates, dropna). AWS's v3
// JavaScript SDK spells the call as a command object (new
// DeleteObjectCommand(...)).
var reSDKDelete = &lazyCode{src: `\.(?:(?:delete|destroy|purge|terminate|nuke)(?:_\w+|[A-Z]\w*)|[a-z]\w*_(?:delete|destroy|purge)|drop_?(?i:table|database|db|schema|collection|index|bucket|keyspace|namespace|repo)\w*)\s*\(|\.(?:delete|destroy|purge)\s*\(\s*\)|\bnew\s+(?:Delete|Destroy|Terminate|Purge)\w*Command\s*\(`}

// sdkLocalDelete: delete-named methods of local data structures and
// files, which delete nothing remote.
const sdkLocalDelete = "deletecharat|deleteproperty|deleterow|deletecell|deletecontents|deleteonexit|deleteifexists|deleterecursively|delete_dir|delete_file|deletefile|deletesync"

// sdkDeletes: an inline program that calls a client's delete method
// deletes remote state (a repository, a bucket's objects, runs, VMs):
// remote.destroy, like the CLI command that does the same.
func (a codeJudge) sdkDeletes(c *Cmd, fam string, text *codeText) {
	if langOf(fam) == "" {
		return
	}
	for _, m := range a.apiMatches(c, reSDKDelete.get(), text, false) {
		call := strings.TrimRight(text.src[m[0]:m[1]], "( \t")
		call = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(call, "."), "new"))
		if oneOf(strings.ToLower(call), sdkLocalDelete) {
			continue
		}
		a.effects().emit(c, effect{kind: effDestroy, where: whereRemote, evidence: c.Name + " calls " + call + "()"})
		return
	}
}

// literalCommands judges the string literals of code that calls a shell
// API as commands, alone and, for an argument vector spelled as literals
// (["git", "reset", "--hard"]), joined.
func (a codeJudge) literalCommands(c *Cmd, src string, lits []string, sc *shell.Scope, depth int) {
	for _, l := range lits {
		a.runQuiet(c, homeAsShell(l), sc, depth)
	}
	if strings.Contains(src, "[") && len(lits) > 1 {
		// A long program's literals are joined in overlapping runs, so
		// that no derived command grows with it.
		for i := 0; ; i += joinRun / 2 {
			a.runQuiet(c, shellJoin(lits[i:min(i+joinRun, len(lits))]), sc, depth)
			if i+joinRun >= len(lits) {
				break
			}
		}
	}
}

// reHomeInterp is a home expression interpolated into a string
// ("#{Dir.home}", "${os.homedir()}", "{Path.home()}") once the
// expression itself is marked \x01.
var reHomeInterp = &lazyRegexp{src: `[#$]?\{\s*\x01\s*\}`}

// homeAsShell spells the home expressions interpolated into a command
// string ("rm -rf $ENV{HOME}/.config" in Perl, "#{Dir.home}" in Ruby)
// as the shell's $HOME, so the command is judged on the path it reaches.
func homeAsShell(l string) string {
	if !strings.Contains(l, "HOME") && !strings.Contains(l, "home") {
		return l
	}
	m := reHomeExpr.get().ReplaceAllLiteralString(l, "\x01")
	if m == l {
		return l
	}
	return strings.ReplaceAll(reHomeInterp.get().ReplaceAllLiteralString(m, "\x01"), "\x01", "$HOME")
}

// literalDeletes judges the path literals of code that calls a delete API.
func (a codeJudge) literalDeletes(c *Cmd, lits []string, sc *shell.Scope) {
	for _, l := range lits {
		if !looksLikePath(l) {
			continue
		}
		if t := a.files().classify(shell.Lit(l), sc); t.critical() {
			a.fire(ruleInterpDeleteApi, c, c.Name+" deletes "+l)
		} else {
			a.fire(ruleInterpDeleteAny, c, c.Name+" deletes "+l)
		}
	}
}

// literalSecrets judges the files that code calling a file API names, as
// literals or, in PowerShell and Tcl, bare (Get-Content .env, [open
// .env]); it reports whether one is a secret.
func (a codeJudge) literalSecrets(c *Cmd, src string, lits []string, sc *shell.Scope) bool {
	secret := false
	for _, l := range lits {
		if a.secretLiteral(c, l, sc) {
			secret = true
		}
	}
	for _, tok := range barePaths(src) {
		if !secret && a.secretLiteral(c, tok, sc) {
			secret = true
		}
	}
	return secret
}

// joinRun is how many string literals are joined into one command.
const joinRun = 256

func shellJoin(lits []string) string {
	var parts []string
	for _, l := range lits {
		if l == "" || strings.ContainsAny(l, " \t\n") {
			continue
		}
		parts = append(parts, l)
	}
	return strings.Join(parts, " ")
}

func looksLikePath(s string) bool {
	return s != "" && !strings.ContainsAny(s, " \t\n") && (strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~") || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "$HOME"))
}

// inlineSecretName finds a secret path named by a string literal of
// inline code, or by one of its whitespace-separated words.
func (a codeJudge) inlineSecretName(l string, sc *shell.Scope) (string, bool) {
	if len(l) > 4096 {
		return "", false
	}
	for _, f := range append([]string{strings.TrimSpace(l)}, strings.Fields(l)...) {
		f = strings.Trim(f, "'\"`;,()[]{}")
		f = strings.TrimPrefix(f, "@")
		if f == "" {
			continue
		}
		if strings.HasPrefix(f, "~/") && a.req.Home != "" {
			f = a.req.Home + f[1:]
		}
		if m, ok := a.files().secretPath(f, sc); ok {
			return m, true
		}
	}
	return "", false
}

// taggedTemplates returns the text of the JavaScript tagged template
// literals in code (a backquoted string directly after an identifier, a
// member access, a call or an index: tag`...`). Other string literals are
// skipped so that quotes inside them do not confuse the scan.
func taggedTemplates(code string) []string {
	var out []string
	prev := byte(0) // last non-blank byte outside a string literal
	for i := 0; i < len(code); i++ {
		q := code[i]
		if q != '"' && q != '\'' && q != '`' {
			if q != ' ' && q != '\t' && q != '\n' && q != '\r' {
				prev = q
			}
			continue
		}
		j := i + 1
		for j < len(code) && code[j] != q {
			if code[j] == '\\' {
				j++
			}
			j++
		}
		if q == '`' && (prev == '_' || prev == '$' || prev == ')' || prev == ']' || prev >= '0' && prev <= '9' || prev|0x20 >= 'a' && prev|0x20 <= 'z') {
			out = append(out, code[i+1:min(j, len(code))])
			if len(out) > 256 {
				break
			}
		}
		prev = q
		i = j
	}
	return out
}

// secretLiteral reports a string literal naming a secret file, including a
// base64-encoded one.
// barePaths are the unquoted words of inline code that look like paths
// (a dot or a slash in them); quoted text is left to the string-literal
// checks.
func barePaths(src string) []string {
	var b strings.Builder
	var quote rune
	for _, r := range src {
		switch {
		case quote != 0:
			if r == quote {
				quote = 0
			}
			continue
		case r == '\'' || r == '"' || r == '`':
			quote = r
			r = ' '
		}
		b.WriteRune(r)
	}
	var out []string
	for _, f := range strings.FieldsFunc(b.String(), func(r rune) bool { return strings.ContainsRune(" \t\n()[]{};,=<>|&$", r) }) {
		if strings.ContainsAny(f, "./") && len(f) < 256 {
			out = append(out, f)
		}
	}
	return out
}

func (a codeJudge) secretLiteral(c *Cmd, l string, sc *shell.Scope) bool {
	cands := []string{l}
	if len(l) >= 4 && !strings.ContainsAny(l, " ./~") {
		for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
			if b, err := enc.DecodeString(l); err == nil && printable(string(b)) {
				cands = append(cands, string(b))
				break
			}
		}
	}
	for _, s := range cands {
		if s == "" || strings.ContainsAny(s, " \t\n") || len(s) > 4096 {
			continue
		}
		s = strings.TrimPrefix(s, "@")
		if strings.HasPrefix(s, "~/") && a.req.Home != "" {
			s = a.req.Home + s[1:]
		}
		if m, ok := a.files().secretPath(s, sc); ok {
			a.fire(ruleSecretRead, c, m)
			return true
		}
	}
	return false
}

func sensitiveLiteral(lits []string) bool {
	for _, l := range lits {
		if oneOf(l, "/etc/passwd|/etc/shadow") || strings.HasSuffix(l, "_history") {
			return true
		}
	}
	return false
}

func printable(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == '\uFFFD' {
			return false
		}
	}
	return true
}

// PowerShell code is walked as shell text (inlineCode), which reads its
// pipelines and quoting alike but not its names: pwshAsShell spells the
// cmdlets (and their aliases) that delete, copy, read, write and fetch
// files as the POSIX commands they correspond to, with the switches the
// shell rules read (-Recurse → -r, -Force → -f, -InFile → -T), an
// environment variable ($env:NAME) as $NAME, and a statement that is an
// expression ($env:X, $HOME) as echo, which is what PowerShell does with
// it. So `Remove-Item -Recurse -Force $HOME/.config` is judged like
// `rm -r -f $HOME/.config`, and `$env:ASPNETCORE_ENVIRONMENT` like
// `echo $ASPNETCORE_ENVIRONMENT`.

// pwshCmdlet is a cmdlet's shell spelling: its name, its switches'
// spellings ("" drops the switch, keeping its operand), and the
// parameters whose value is dropped with them.
type pwshCmdlet struct {
	name     string
	switches map[string]string
	valued   string
	// filter: the cmdlet formats or filters the pipeline's objects; its
	// operands are property names, not files.
	filter bool
}

var pwshCmdlets = &lazy[map[string]*pwshCmdlet]{src: func() map[string]*pwshCmdlet {
	names := func() map[string]string { return map[string]string{"-path": "", "-literalpath": "", "-lp": ""} }
	rm := &pwshCmdlet{name: "rm", switches: names(), valued: "-erroraction|-ea|-include|-exclude|-filter"}
	rm.switches["-recurse"], rm.switches["-r"], rm.switches["-force"], rm.switches["-fo"] = "-r", "-r", "-f", "-f"
	cp := &pwshCmdlet{name: "cp", switches: names(), valued: "-erroraction|-ea|-include|-exclude|-filter"}
	cp.switches["-recurse"], cp.switches["-force"], cp.switches["-destination"] = "-r", "-f", ""
	mv := &pwshCmdlet{name: "mv", switches: names(), valued: "-erroraction|-ea"}
	mv.switches["-force"], mv.switches["-destination"] = "-f", ""
	cat := &pwshCmdlet{name: "cat", switches: names(), valued: "-totalcount|-tail|-head|-first|-last|-encoding|-delimiter|-readcount"}
	ls := &pwshCmdlet{name: "ls", switches: names(), valued: "-filter|-include|-exclude|-depth"}
	tee := &pwshCmdlet{name: "tee", switches: names(), valued: "-value|-encoding"}
	tee.switches["-filepath"], tee.switches["-append"] = "", "-a"
	web := &pwshCmdlet{name: "curl", switches: map[string]string{"-uri": "", "-outfile": "-o", "-infile": "-T", "-method": "-X", "-body": "-d"}, valued: "-headers|-contenttype|-usebasicparsing"}
	echo := &pwshCmdlet{name: "echo", switches: map[string]string{}, valued: "-foregroundcolor|-backgroundcolor"}
	filter := &pwshCmdlet{name: "cat", switches: map[string]string{}, filter: true}
	m := map[string]*pwshCmdlet{}
	for _, e := range []struct {
		c     *pwshCmdlet
		names string
	}{
		{rm, "remove-item|ri|del|erase|rd|rmdir|rm"},
		{cp, "copy-item|cpi|copy|cp"},
		{mv, "move-item|mi|move|mv"},
		{cat, "get-content|gc|cat|type"},
		{ls, "get-childitem|gci|ls|dir"},
		{tee, "set-content|sc|add-content|ac|out-file"},
		{web, "invoke-webrequest|iwr|invoke-restmethod|irm|curl|wget"},
		{echo, "write-output|write|echo|write-host"},
		{filter, "format-table|ft|format-list|fl|format-wide|fw|out-string|out-host|select-object|select|sort-object|sort|where-object|where|convertto-json|convertfrom-json|out-default"},
	} {
		for _, n := range strings.Split(e.names, "|") {
			m[n] = e.c
		}
	}
	return m
}}

var rePwshEnv = &lazyRegexp{src: `(?i)\$\{env:(\w+)\}|\$env:(\w+)`}

// pwshAsShell rewrites PowerShell text as shell text (see above).
func pwshAsShell(src string) string {
	src = rePwshEnv.get().ReplaceAllString(src, "$${$1$2}")
	var b strings.Builder
	var cmd *pwshCmdlet
	start, skip := true, false
	for i := 0; i < len(src); {
		ch := src[i]
		switch {
		case strings.IndexByte(";|\n{}()", ch) >= 0:
			b.WriteByte(ch)
			start, cmd = true, nil
			i++
			continue
		case ch == ' ' || ch == '\t' || ch == '\r':
			b.WriteByte(ch)
			i++
			continue
		case ch == ',':
			// An array's separator: the cmdlet's operands are words.
			if cmd != nil {
				ch = ' '
			}
			b.WriteByte(ch)
			i++
			continue
		}
		j := pwshWordEnd(src, i)
		w := src[i:j]
		i = j
		lw := strings.ToLower(w)
		switch {
		case start && strings.HasPrefix(w, "$"):
			b.WriteString("echo " + w)
		case start:
			if c, ok := pwshCmdlets.get()[lw]; ok {
				cmd = c
				w = c.name
			}
			b.WriteString(w)
		case cmd == nil:
			b.WriteString(w)
		case skip:
			skip = false
		case cmd.name == "ls" && oneOf(lw, "env:|env:*|-path:env:"):
			b.WriteString("; env")
		case cmd.filter:
		case strings.HasPrefix(w, "-"):
			name, _, _ := strings.Cut(lw, ":")
			if s, ok := cmd.switches[name]; ok {
				b.WriteString(s)
			} else if oneOf(name, cmd.valued) {
				skip = true
			}
		default:
			b.WriteString(w)
		}
		start = false
	}
	return b.String()
}

// pwshWordEnd is the end of the word starting at src[i]: quoted parts
// are part of it; a blank, a separator or a comma ends it.
func pwshWordEnd(src string, i int) int {
	for i < len(src) {
		switch ch := src[i]; {
		case ch == '\'' || ch == '"':
			i = min(stringEnd(src, i)+1, len(src))
			continue
		case strings.IndexByte(" \t\r\n;|{}(),", ch) >= 0:
			return i
		}
		i++
	}
	return i
}
