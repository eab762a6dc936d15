package guard

import (
	"fmt"
	"path"
	"strings"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Interpreters' file-system and process APIs beyond the string literals
// inlineCode already judges: code fetched from the network and evaluated
// (also when eval is passed by name), deletes of the home directory
// through a home expression (os.homedir(), Dir.home, Path.home()),
// writes to protected paths (home dotfiles, system files, .git, secrets),
// and process calls given an argument vector (system("rm", "-rf", p)) or
// a quoted command (%x(...), qx{...}).

// interpAPIRules are registerInterpAPI's rules, static data: loading the
// batch allocates none of them.
var interpAPIRules = []*Rule{
	{ID: ruleInterpWriteProtected, Category: "filesystem", Switch: "interpreter_api_calls",
		Reason: "an inline program writes a protected path (a dotfile or dot-directory of a home directory, .git, a system or secret file); make the change with a reviewed command or ask the user"},
	{ID: ruleInterpTooLarge, Category: "dynamic", Verdict: Ask,
		Reason: "the inline program is too large for the guard to check all of it; write it to a file and run the file, or ask the user"},
}

func registerInterpAPI() {
	register(interpAPIRules...)
}

// langOf groups interpreter families by language.
func langOf(fam string) string {
	switch fam {
	case "python", "pypy":
		return "py"
	case "node", "nodejs", "bun", "deno", "ts-node", "tsx":
		return "js"
	case "ruby", "jruby", "irb":
		return "rb"
	case "perl":
		return "pl"
	case "php":
		return "php"
	case "pwsh", "powershell":
		return "ps"
	}
	return ""
}

// remoteEval: per language, what fetches from the network and what
// evaluates text as code or a command. Code that does both runs what it
// downloaded. A slice, not a map, like apiCalls: a map literal is built
// in package init, in every process (remoteEvalOf, apiCallsOf).
var remoteEval = []struct {
	lang string
	pair [2]*lazyCode
}{
	{"py", [2]*lazyCode{
		&lazyCode{src: `urlopen|urllib|requests\.(?:get|post|request|Session)|httpx|http\.client|urlretrieve|aiohttp|pycurl|socket\.`},
		&lazyCode{src: `\b(?:exec|eval|execfile)\b|os\.system|os\.popen|subprocess`},
	}},
	{"js", [2]*lazyCode{
		&lazyCode{src: `\bfetch\s*\(|\bhttps?\.(?:get|request)\s*\(|require\(\s*['"](?:node:)?https?['"]\)|axios|XMLHttpRequest|\bgot\s*\(|node-fetch|undici|Bun\.fetch`},
		&lazyCode{src: `\beval\b|\bFunction\s*\(|new\s+Function\b|runInNewContext|runInThisContext|runInContext|vm\.Script|child_process|execSync|spawnSync`},
	}},
	{"rb", [2]*lazyCode{
		&lazyCode{src: `Net::HTTP|open-uri|URI\.open|URI\.parse|URI\(|\bopen\s*\(\s*['"]https?:|HTTParty|Faraday|RestClient|Excon|HTTPClient`},
		&lazyCode{src: `\beval\b|_eval\b|instance_exec|\bsystem\b|\bexec\b|%x|` + "`" + `|IO\.popen|Open3`},
	}},
	{"pl", [2]*lazyCode{
		&lazyCode{src: `LWP|HTTP::Tiny|\bget\s*\(|\bget\s+['"$]|getstore|getprint|IO::Socket|Net::HTTP|Mojo::UserAgent|WWW::Mechanize|Furl`},
		&lazyCode{src: `\beval\b\s*[^\s{]|\bsystem\b|\bexec\b|\bqx\b|` + "`"},
	}},
	{"php", [2]*lazyCode{
		&lazyCode{src: `file_get_contents\s*\(\s*(?:['"](?:https?|ftp)://|\$)|curl_exec|fsockopen|stream_socket_client|fopen\s*\(\s*['"](?:https?|ftp)://|\bfile\s*\(\s*['"](?:https?|ftp)://`},
		&lazyCode{src: `\beval\s*\(|\bassert\s*\(|create_function|\bsystem\s*\(|\bexec\s*\(|shell_exec|passthru|popen|proc_open|` + "`"},
	}},
	{"ps", [2]*lazyCode{
		&lazyCode{src: `(?i)Invoke-WebRequest|\biwr\b|Invoke-RestMethod|\birm\b|DownloadString|DownloadData|Net\.WebClient|HttpClient`},
		&lazyCode{src: `(?i)Invoke-Expression|\biex\b|ScriptBlock\]::Create|Invoke-Command|Start-Process`},
	}},
	{"", [2]*lazyCode{
		reNetAPI,
		&lazyCode{src: `\beval\b|\bexec\b|\bload(?:string)?\s*\(|include_string|\bsystem\s*\(`},
	}},
}

// reRemoteImport: code included straight from a URL (php include, R
// source(), JavaScript import(), Ruby/Perl require of a URL).
var reRemoteImport = &lazyCode{src: `(?:\binclude|\brequire|\bsource|\bimport)(?:_once)?\s*\(?\s*['"` + "`" + `](?:https?|ftp|data):`}

// reHomeExpr matches expressions for the home directory in interpreter
// code.
var reHomeExpr = &lazyRegexp{src: `process\.env\.HOME\b|process\.env\[\s*['"]HOME['"]\s*\]|(?:require\(\s*['"](?:node:)?os['"]\s*\)\.|\b\w+\.)?homedir\(\)|\bDir\.home\b|ENV\[\s*['"]HOME['"]\s*\]|ENV\.fetch\(\s*['"]HOME['"]\s*\)|Path\.home\(\)|os\.path\.expanduser\(\s*['"]~/?['"]\s*\)|os\.environ\[\s*['"]HOME['"]\s*\]|os\.environ\.get\(\s*['"]HOME['"]\s*\)|os\.getenv\(\s*['"]HOME['"]\s*\)|\$ENV\{\s*['"]?HOME['"]?\s*\}|\bgetenv\(\s*['"]HOME['"]\s*\)|\$_SERVER\[\s*['"]HOME['"]\s*\]|File\.expand_path\(\s*['"]~/?['"]\s*\)|Deno\.env\.get\(\s*['"]HOME['"]\s*\)`}

// reEmptyInterp is what an interpolation of a home expression leaves
// once the expression is removed: #{}, ${}, {}.
var reEmptyInterp = &lazyRegexp{src: `[#$]?\{\s*\}`}

// apiCall describes a call whose argument names a path: arg is the index
// of the path argument, mode the index of an open-mode argument (-1: the
// call always writes).
type apiCall struct {
	re        *lazyCode
	arg, mode int
	del       bool // a delete rather than a write
}

// apiCalls per language. Each pattern ends at the call's "(" or at the
// blank before paren-less arguments (Ruby, Perl).
var apiCalls = []struct {
	lang  string
	calls []apiCall
}{
	{"py", []apiCall{
		{re: &lazyCode{src: `\bopen\s*\(`}, arg: 0, mode: 1},
		{re: &lazyCode{src: `\bos\.open\s*\(`}, arg: 0, mode: 1},
		{re: &lazyCode{src: `\bshutil\.(?:copy|copy2|copyfile|copytree|move)\s*\(|\bos\.(?:rename|replace|symlink|link)\s*\(`}, arg: 1, mode: -1},
		{re: &lazyCode{src: `\bshutil\.rmtree\s*\(|\bos\.(?:remove|unlink|rmdir|removedirs)\s*\(`}, arg: 0, mode: -1, del: true},
	}},
	{"js", []apiCall{
		{re: &lazyCode{src: `\b(?:writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream|outputFile|outputFileSync|writeTextFile|writeTextFileSync|Bun\.write)\s*\(`}, arg: 0, mode: -1},
		{re: &lazyCode{src: `\b(?:open|openSync)\s*\(`}, arg: 0, mode: 1},
		{re: &lazyCode{src: `\b(?:copyFile|copyFileSync|rename|renameSync|symlink|symlinkSync|cp|cpSync|link|linkSync)\s*\(`}, arg: 1, mode: -1},
		{re: &lazyCode{src: `\b(?:rm|rmSync|rmdir|rmdirSync|unlink|unlinkSync|remove|removeSync)\s*\(`}, arg: 0, mode: -1, del: true},
	}},
	{"rb", []apiCall{
		{re: &lazyCode{src: `\b(?:File|IO)\.(?:write|binwrite)[\s(]`}, arg: 0, mode: -1},
		{re: &lazyCode{src: `\b(?:File\.open|File\.new|IO\.open)[\s(]`}, arg: 0, mode: 1},
		{re: &lazyCode{src: `\bFileUtils\.(?:cp|cp_r|mv|copy|move|ln|ln_s|ln_sf|install|copy_file)[\s(]|\bFile\.(?:rename|symlink|link)[\s(]`}, arg: 1, mode: -1},
		{re: &lazyCode{src: `\bFileUtils\.touch[\s(]`}, arg: 0, mode: -1},
		{re: &lazyCode{src: `\bFileUtils\.(?:rm|rm_r|rm_rf|rm_f|rmtree|remove|remove_dir|remove_entry|remove_entry_secure|rmdir)[\s(]|\b(?:File|Dir)\.(?:delete|unlink|rmdir)[\s(]`}, arg: 0, mode: -1, del: true},
	}},
	{"pl", []apiCall{
		{re: &lazyCode{src: `\bopen\s*[\s(]`}, arg: 1, mode: -2},
		{re: &lazyCode{src: `\b(?:copy|move|rename|symlink|link)\s*[\s(]`}, arg: 1, mode: -1},
		{re: &lazyCode{src: `\b(?:rmtree|remove_tree|unlink|rmdir)\s*[\s(]`}, arg: 0, mode: -1, del: true},
	}},
	{"php", []apiCall{
		{re: &lazyCode{src: `\bfile_put_contents\s*\(|\btouch\s*\(`}, arg: 0, mode: -1},
		{re: &lazyCode{src: `\bfopen\s*\(`}, arg: 0, mode: 1},
		{re: &lazyCode{src: `\b(?:copy|rename|symlink|link)\s*\(`}, arg: 1, mode: -1},
		{re: &lazyCode{src: `\b(?:unlink|rmdir)\s*\(`}, arg: 0, mode: -1, del: true},
	}},
}

// remoteEvalOf is remoteEval's entry for lang.
func remoteEvalOf(lang string) ([2]*lazyCode, bool) {
	for _, r := range remoteEval {
		if r.lang == lang {
			return r.pair, true
		}
	}
	return [2]*lazyCode{}, false
}

// apiCallsOf is apiCalls' entry for lang.
func apiCallsOf(lang string) []apiCall {
	for _, l := range apiCalls {
		if l.lang == lang {
			return l.calls
		}
	}
	return nil
}

// reWriteMethod: a path object's write methods (pathlib, Ruby Pathname).
var reWriteMethod = &lazyCode{src: `\.(?:write_text|write_bytes|touch|symlink_to|hardlink_to)\s*\(|\.open\s*\(\s*['"][wax]|\.(?:unlink|rmdir)\s*\(`}

// reProcCall: process APIs that take a command as an argument vector or
// a string.
var reProcCall = &lazyCode{src: `\b(?:system|exec|spawn|execFile|execFileSync|execSync|spawnSync|popen|capture2e?|capture3|popen3|pcntl_exec|proc_open|shell_exec|passthru|call|check_call|check_output|run|Popen|getoutput|getstatusoutput|execv|execvp|execl|execlp|spawnv|spawnvp)\s*[\s(]`}

// reQuotedCommand: Ruby %x(...) and Perl qx(...) in their bracket forms.
var reQuotedCommand = &lazyCode{src: `(?:%x|\bqx)\s*([({\[<|/!'"])`}

// Limits of the checks on one inline program, far above what real
// programs hold; the work each item costs is bounded, so the checks stay
// linear. A program over a limit is asked about (interp.too-large), since
// what lies past it is not checked.
const (
	maxInlineLiterals = 1 << 17  // string literals
	maxInlineCalls    = 256      // matches of one API pattern
	maxCallText       = 64 << 10 // bytes of one call's arguments read
)

// apiMatches returns the first maxInlineCalls matches of p, and fires
// interp.too-large when there are more.
func (a codeJudge) apiMatches(c *Cmd, p *codePattern, text *codeText, submatches bool) [][]int {
	var m [][]int
	if submatches {
		m = p.FindAllStringSubmatchIndex(text, maxInlineCalls+1)
	} else {
		m = p.FindAllStringIndex(text, maxInlineCalls+1)
	}
	if len(m) > maxInlineCalls {
		a.fire(ruleInterpTooLarge, c, fmt.Sprintf("%s code makes more than %d calls the guard checks", c.Name, maxInlineCalls))
		m = m[:maxInlineCalls]
	}
	return m
}

// interpAPIs runs the API checks on inline program text.
func (a codeJudge) interpAPIs(c *Cmd, fam string, text *codeText, sc *shell.Scope, depth int) {
	lang := langOf(fam)
	if a.judging() {
		a.interpAPIVerdicts(c, lang, text, sc)
	}
	if lang != "" {
		a.interpProcCalls(c, text, sc, depth)
	}
}

// interpAPIVerdicts judges remote code and the file APIs' paths; it only
// fires rules, so an effects-only walk skips it.
func (a codeJudge) interpAPIVerdicts(c *Cmd, lang string, text *codeText, sc *shell.Scope) {
	src := text.src
	if pair, ok := remoteEvalOf(lang); ok && pair[0].get().MatchString(text) && pair[1].get().MatchString(text) {
		a.fire(ruleRceRemoteCode, c, c.Name+" evaluates code it downloads")
	}
	if reRemoteImport.get().MatchString(text) {
		a.fire(ruleRceRemoteCode, c, c.Name+" loads code from a URL")
	}
	for _, call := range apiCallsOf(lang) {
		for _, m := range a.apiMatches(c, call.re.get(), text, false) {
			args := callArgs(src, m[1]-1)
			a.apiPath(c, lang, call, args, sc)
		}
	}
	if lang != "" {
		for _, m := range a.apiMatches(c, reWriteMethod.get(), text, false) {
			recv := receiver(src, m[0])
			p, home, ok := a.req.argPath(recv)
			if !ok {
				continue
			}
			if strings.Contains(src[m[0]:m[1]], "unlink") || strings.Contains(src[m[0]:m[1]], "rmdir") {
				a.apiDelete(c, p, home, sc)
				continue
			}
			a.apiWrite(c, p, sc)
		}
	}
}

// interpProcCalls runs the command lines inline code hands to a process
// API (an argv list, %x(), qx{}) as shell text.
func (a codeJudge) interpProcCalls(c *Cmd, text *codeText, sc *shell.Scope, depth int) {
	src := text.src
	for _, m := range a.apiMatches(c, reProcCall.get(), text, false) {
		lits := stringLiterals(strings.Join(callArgs(src, m[1]-1), ","))
		if len(lits) < 2 || strings.ContainsAny(lits[0], " \t\n") || lits[0] == "" {
			continue
		}
		q := make([]string, len(lits))
		for i, l := range lits {
			q[i] = shellQuote(l)
		}
		a.runQuiet(c, strings.Join(q, " "), sc, depth)
	}
	for _, body := range quotedCommands(a.apiMatches(c, reQuotedCommand.get(), text, true), text.src) {
		a.runQuiet(c, body, sc, depth)
	}
}

// apiPath judges one path-taking call.
func (a codeJudge) apiPath(c *Cmd, lang string, call apiCall, args []string, sc *shell.Scope) {
	idx := call.arg
	if call.mode == -2 {
		// Perl open: open(FH, MODE, PATH) or open(FH, ">PATH").
		if len(args) >= 3 {
			mode := firstLiteral(args[1])
			if !strings.ContainsAny(mode, ">+") {
				return
			}
			idx = 2
		} else if len(args) == 2 {
			spec := strings.TrimSpace(firstLiteral(args[1]))
			if !strings.HasPrefix(spec, ">") && !strings.HasPrefix(spec, "+<") {
				return
			}
			p := strings.TrimSpace(strings.TrimLeft(spec, "+<>"))
			if a.req.Home != "" {
				p = reHomeExpr.get().ReplaceAllLiteralString(p, a.req.Home) // ">>$ENV{HOME}/.bashrc"
			}
			if p != "" {
				a.apiWrite(c, p, sc)
			}
			return
		} else {
			return
		}
	}
	if idx >= len(args) {
		return
	}
	if call.mode >= 0 {
		if call.mode >= len(args) {
			return // default mode: read
		}
		mode := args[call.mode]
		if lang == "py" {
			for _, a := range args[1:] {
				if k, v, ok := strings.Cut(a, "="); ok && strings.TrimSpace(k) == "mode" {
					mode = v
				}
			}
		}
		if !writeMode(mode) {
			return
		}
	}
	p, home, ok := a.req.argPath(args[idx])
	if !ok {
		return
	}
	if call.del {
		a.apiDelete(c, p, home, sc)
		return
	}
	a.apiWrite(c, p, sc)
}

// writeMode: an open mode or flags argument that writes.
func writeMode(arg string) bool {
	if strings.Contains(arg, "O_WRONLY") || strings.Contains(arg, "O_RDWR") || strings.Contains(arg, "O_CREAT") || strings.Contains(arg, "O_APPEND") || strings.Contains(arg, "O_TRUNC") {
		return true
	}
	m := firstLiteral(arg)
	return m != "" && strings.ContainsAny(m, "waxc+")
}

// apiDelete: a delete whose target involved a home expression (literal
// targets are judged by inlineCode's delete check).
func (a codeJudge) apiDelete(c *Cmd, p string, home bool, sc *shell.Scope) {
	if !home {
		return
	}
	if t := a.files().classify(shell.Lit(p), sc); t.critical() {
		a.fire(ruleInterpDeleteApi, c, c.Name+" deletes "+p)
	} else {
		a.fire(ruleInterpDeleteAny, c, c.Name+" deletes "+p)
	}
}

// apiWrite judges a write by inline code like a shell write to the same
// path, and also protects home dotfiles and .git.
func (a codeJudge) apiWrite(c *Cmd, p string, sc *shell.Scope) {
	if p == "" || strings.ContainsRune(p, 0) {
		return
	}
	p = shell.ExpandHome(p, a.req.Home)
	a.self().ownWriteTarget(c, shell.Lit(p), sc)
	a.files().writeTarget(c, shell.Lit(p), sc)
	abs, ok := a.files().canon(p, sc)
	if !ok {
		if strings.HasPrefix(p, ".git/") || strings.Contains(p, "/.git/") {
			a.fire(ruleInterpWriteProtected, c, c.Name+" writes "+p)
		}
		return
	}
	t := a.files().classify(shell.Lit(abs), sc)
	if t.git && t.class != pcTemp || a.req.homeDotPath(abs) {
		a.fire(ruleInterpWriteProtected, c, c.Name+" writes "+abs)
	}
}

// homeDotPath: a path inside a dotfile or dot-directory of a home
// directory (~/.bashrc, ~/.config/git/config).
func (req *Request) homeDotPath(p string) bool {
	for _, h := range req.homes() {
		if rest, ok := strings.CutPrefix(p, h+"/"); ok && strings.HasPrefix(rest, ".") {
			return true
		}
	}
	for _, hp := range homeParents {
		if rest, ok := strings.CutPrefix(p, hp+"/"); ok {
			if parts := strings.SplitN(rest, "/", 3); len(parts) >= 2 && strings.HasPrefix(parts[1], ".") {
				return true
			}
		}
	}
	return false
}

// argPath resolves an argument expression to a path: a string literal,
// a home expression, or a join of them (os.path.join, path.join,
// File.join, Path.home() / "x", "#{Dir.home}/x", HOME + "/x"). home
// reports a home expression in it.
func (req *Request) argPath(arg string) (p string, home, ok bool) {
	arg = strings.TrimSpace(arg)
	if arg == "" || len(arg) > 4096 {
		return "", false, false
	}
	if reHomeExpr.get().MatchString(arg) {
		home = true
		arg = reHomeExpr.get().ReplaceAllString(arg, "")
		arg = reEmptyInterp.get().ReplaceAllString(arg, "")
	}
	lits := stringLiterals(arg)
	if len(lits) == 0 && !home {
		return "", false, false
	}
	for _, l := range lits {
		if strings.ContainsAny(l, "\n\x00") || strings.Contains(l, "${") || strings.Contains(l, "#{") {
			return "", false, false // an interpolation the guard cannot resolve
		}
	}
	p = path.Join(lits...)
	if home {
		if req.Home == "" {
			return "", true, false
		}
		p = path.Join(req.Home, p)
	}
	return p, home, p != ""
}

// firstLiteral is the first string literal of an expression, or the
// expression itself when it has none.
func firstLiteral(s string) string {
	if l := stringLiterals(s); len(l) > 0 {
		return l[0]
	}
	return strings.TrimSpace(s)
}

// callArgs splits the arguments of the call whose "(" (or the blank before
// paren-less arguments) is at src[open]: top-level commas separate them;
// brackets and string literals nest.
func callArgs(src string, open int) []string {
	if open < 0 || open >= len(src) {
		return nil
	}
	paren := src[open] == '('
	src = src[:min(len(src), open+maxCallText)]
	i := open + 1
	depth := 0
	var out []string
	start := i
	for ; i < len(src); i++ {
		ch := src[i]
		switch ch {
		case '"', '\'', '`':
			i = stringEnd(src, i)
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			if depth == 0 {
				if paren && ch == ')' || !paren {
					return append(out, src[start:i])
				}
			}
			depth--
		case ',':
			if depth == 0 {
				out = append(out, src[start:i])
				start = i + 1
			}
		case ';', '\n':
			if depth == 0 && !paren {
				return append(out, src[start:i])
			}
		case '|', '&', ' ':
			if depth == 0 && !paren && endsBareCall(src, i) {
				return append(out, src[start:i])
			}
		}
		if len(out) > 64 {
			return out
		}
	}
	return append(out, src[min(start, len(src)):])
}

// stringEnd returns the index of the quote that closes the string literal
// opened at src[i] (len(src) when none does), skipping escaped quotes.
func stringEnd(src string, i int) int {
	ch := src[i]
	j := i + 1
	for j < len(src) && src[j] != ch {
		if src[j] == '\\' {
			j++
		}
		j++
	}
	return j
}

// endsBareCall: at src[i] (a '|', '&' or blank) the arguments of a call
// without parentheses end: || or &&, or Perl's and, or, if and unless.
func endsBareCall(src string, i int) bool {
	if ch := src[i]; ch != ' ' {
		return i+1 < len(src) && src[i+1] == ch
	}
	rest := src[i:]
	return strings.HasPrefix(rest, " or ") || strings.HasPrefix(rest, " and ") || strings.HasPrefix(rest, " if ") || strings.HasPrefix(rest, " unless ")
}

// receiver is the expression a method call at src[dot] is made on:
// Path("x") in Path("x").write_text(...).
func receiver(src string, dot int) string {
	depth := 0
	i := dot - 1
	for ; i >= 0; i-- {
		if dot-i > maxCallText {
			return "" // too long to be a path anyway
		}
		ch := src[i]
		switch ch {
		case ')', ']', '}':
			depth++
		case '(', '[', '{':
			if depth == 0 {
				return src[i+1 : dot]
			}
			depth--
		case '"', '\'':
			j := i - 1
			for j >= 0 && src[j] != ch {
				j--
			}
			i = max(j, 0)
		case ';', '\n', '=', ',':
			if depth == 0 {
				return src[i+1 : dot]
			}
		}
	}
	return src[:dot]
}

// quotedCommands returns the bodies of Ruby %x(...) and Perl qx(...),
// given the matches of reQuotedCommand in src.
func quotedCommands(matches [][]int, src string) []string {
	var out []string
	for _, m := range matches {
		open := src[m[2]]
		closeCh := open
		switch open {
		case '(':
			closeCh = ')'
		case '{':
			closeCh = '}'
		case '[':
			closeCh = ']'
		case '<':
			closeCh = '>'
		}
		j := m[3]
		depth := 0
		for ; j < len(src); j++ {
			if src[j] == '\\' {
				j++
				continue
			}
			if src[j] == open && closeCh != open {
				depth++
			} else if src[j] == closeCh {
				if depth == 0 {
					break
				}
				depth--
			}
		}
		out = append(out, src[m[3]:min(j, len(src))])
	}
	return out
}
