package session

import (
	"regexp"
	"strings"

	"github.com/atreides-dev/atreides/internal/lazy"
)

// errorClass is one kind of failure the strike counter recognises in tool
// output, with what to try next.
type errorClass struct {
	Name    string
	Pattern string // a regular expression, compiled on first use
	Advice  string // fix suggestions offered at the warning strike
}

// errorClasses is the catalogue, most specific first: the first class
// whose pattern matches names the failure. "exit-code" and "failed" are
// the fallbacks for failures that match nothing else.
var errorClasses = []errorClass{
	{"interrupted", `(?i)interrupted by (the )?user|request interrupted|user doesn't want to proceed|user rejected`,
		"The user stopped this call; wait for their instructions."},
	{"edit-mismatch", `(?i)string to replace not found|old_string.{0,40}not (found|unique)|found \d+ matches of the string to replace|file has not been read yet|file has been (modified|changed) since (it was )?read`,
		"Read the file again and copy the exact current text (whitespace included) into old_string; make it unique with more surrounding lines."},
	{"merge-conflict", `(?m)CONFLICT \(|Automatic merge failed|^<<<<<<< |needs merge|unmerged (paths|files)|fix conflicts and then`,
		"Resolve the conflict markers file by file (git status lists them), then git add and continue; do not re-run the merge."},
	{"lock-contention", `(?i)index\.lock|could not obtain lock|database is locked|resource temporarily unavailable|text file busy|\bEBUSY\b|lock file exists|another (git )?process (seems to be|is) running|waiting for (the )?(cache|file) lock`,
		"Another process holds a lock: wait for it or find it (ps, lsof) instead of deleting lock files blindly; retry once it is gone."},
	{"disk-full", `(?i)no space left on device|\bENOSPC\b|disk quota exceeded`,
		"The disk is full: clean build caches or temporary files (go clean -cache, rm -rf node_modules/.cache) or ask the user."},
	{"out-of-memory", `(?i)out of memory|cannot allocate memory|heap out of memory|\bMemoryError\b|\bOOM\b|signal: killed|exit code 137|fatal error: runtime: out of memory`,
		"The process ran out of memory: run a narrower target (one package or test), lower parallelism (-p 1, --maxWorkers=1) or raise the limit."},
	{"timeout", `(?i)timed? ?out|deadline exceeded|\bETIMEDOUT\b|test killed with quit|panic: test timed out`,
		"It timed out: run a smaller part, look for a hang (a blocked channel, a waiting prompt, a server not started) or raise the timeout deliberately."},
	{"network", `(?i)connection refused|\bECONNREFUSED\b|\bECONNRESET\b|could not resolve host|\bENOTFOUND\b|name resolution|network is unreachable|no route to host|tls handshake|connection reset|dial tcp|503 service unavailable|502 bad gateway`,
		"A network call failed: check the host and port, whether the service is running, and whether this environment has network access at all."},
	{"auth", `(?i)401 unauthorized|403 forbidden|authentication failed|permission denied \(publickey|invalid credentials|bad credentials|not authorized`,
		"Credentials were refused: do not guess or print secrets; ask the user to authenticate."},
	{"port-in-use", `(?i)\bEADDRINUSE\b|address already in use`,
		"The port is taken: find the process (lsof -i :PORT) or use another port."},
	{"command-not-found", `(?i)command not found|not recognized as an internal or external command|executable file not found|no such command|unknown command`,
		"The command does not exist here: check the spelling, whether the tool is installed (which NAME), or use the project's script (make, npm run)."},
	{"permission-denied", `(?i)permission denied|operation not permitted|\bEACCES\b|\bEPERM\b|read-only file system`,
		"Permission was refused: check the path and ownership; do not reach for sudo or chmod 777 without asking the user."},
	{"module-not-found", `(?i)ModuleNotFoundError|ImportError|cannot find module|no required module provides package|is not in (GOROOT|std)|unresolved import|could not find (a )?(package|module)|package .* not found`,
		"A dependency is missing: check the import path, then install it through the project's package manager (go get, npm install, pip install -r)."},
	{"dependency", `(?i)\bERESOLVE\b|could not resolve dependencies|version solving failed|missing go\.sum entry|updates to go\.mod needed|peer dep|conflicting (requirements|dependencies)`,
		"The dependency set is inconsistent: run the manager's tidy/resolve step (go mod tidy, npm install) and read the conflict it names."},
	{"file-not-found", `(?i)no such file or directory|\bENOENT\b|cannot find the (file|path)|file does not exist|does not exist|not found: .*\.(go|js|ts|py|rs|json|ya?ml)`,
		"The path does not exist: list the directory (ls, Glob) to find the right path instead of guessing."},
	{"test-failure", `(?m)^--- FAIL|^FAIL\b|\b\d+ (failed|failing)\b|AssertionError|test result: FAILED|Tests?:\s+\d+ failed|^FAILED |expected .* (got|but was|received)`,
		"Read the first failure and the code it exercises; fix the cause, then re-run only that test."},
	{"syntax-error", `(?i)SyntaxError|syntax error|unexpected token|unexpected end of (input|file|JSON)|parse error|unterminated (string|quoted)|expected .{1,30} found`,
		"A syntax error: open the file at the reported line and fix the structure (brackets, quotes, indentation) before running again."},
	{"type-error", `(?i)TypeError|type mismatch|incompatible types?|cannot use .* as .* (value|type)|is not assignable to|mismatched types`,
		"A type error: check the signatures at both ends of the reported line instead of casting around it."},
	{"compile-error", `(?i)undefined: |cannot find symbol|error\[E\d+\]|error TS\d+|compilation (failed|terminated)|build failed|could not compile|: error: |declared and not used|imported and not used`,
		"The build fails: fix the first compiler error only (later ones are often follow-ups), then rebuild."},
	{"lint-failure", `(?i)\d+ problems? \(\d+ errors?|\d+ issues? found|would reformat|found \d+ errors?|golangci-lint|\bvet: `,
		"The linter objects: fix the reported lines, or run the formatter (gofmt -w, prettier --write) for formatting-only findings."},
	{"runtime-panic", `(?i)panic: |Traceback \(most recent call last\)|segmentation fault|\bSIGSEGV\b|nil pointer dereference|unhandled(promise)?rejection|uncaught exception|stack overflow`,
		"It crashed at runtime: read the top frame of the stack trace in your code and fix the cause there."},
	{"usage", `(?i)unknown (flag|option)|invalid (option|argument)|unrecognized (arguments?|option)|flag provided but not defined|^usage: `,
		"The command was called wrongly: read its --help and fix the arguments."},
	{"git", `(?i)not a git repository|pathspec .* did not match|non-fast-forward|rejected|detached head|fatal: `,
		"git refused: run git status and read the message; do not force anything without asking the user."},
	{"exit-code", `(?i)exit (code|status) [1-9]\d*`,
		"The command exited with an error: read its output, change something, and only then run it again."},
}

// fallbackClass names a failure that no pattern recognises.
const fallbackClass = "failed"

// errorPatterns compiles the catalogue on first use: most hook events see
// no failure, and a process that never classifies one must not pay for
// compiling two dozen expressions.
var errorPatterns = lazy.Value[[]*regexp.Regexp]{New: func() []*regexp.Regexp {
	out := make([]*regexp.Regexp, len(errorClasses))
	for i, c := range errorClasses {
		out[i] = regexp.MustCompile(c.Pattern)
	}
	return out
}}

// classifyError names the class of a failure and returns the line that
// shows it, for the error history.
func classifyError(text string) (class, excerpt string) {
	pats := errorPatterns.Get()
	for i, re := range pats {
		if loc := re.FindStringIndex(text); loc != nil {
			return errorClasses[i].Name, lineAt(text, loc[0])
		}
	}
	return fallbackClass, firstLine(text)
}

// adviceFor is the catalogue's advice for a class.
func adviceFor(class string) string {
	for _, c := range errorClasses {
		if c.Name == class {
			return c.Advice
		}
	}
	return "Read the whole output, change something, and only then run it again."
}

// strongFailure reports whether the output of a call the host counted as a
// success still shows a failure, e.g. `go test ./... | tail` (the pipe's
// exit status is tail's). Only unambiguous markers count, by substring,
// so successful calls never pay for the regular expressions.
func strongFailure(out string) bool {
	for _, m := range []string{"command not found", "\n--- FAIL", "\nFAIL\t", "test result: FAILED", "Traceback (most recent call last)", "\npanic: ", "npm ERR!"} {
		if strings.Contains(out, m) || strings.HasPrefix(out, strings.TrimPrefix(m, "\n")) {
			return true
		}
	}
	return false
}

func lineAt(s string, i int) string {
	start := strings.LastIndexByte(s[:i], '\n') + 1
	end := strings.IndexByte(s[i:], '\n')
	if end < 0 {
		return s[start:]
	}
	return s[start : i+end]
}

func firstLine(s string) string {
	for _, l := range strings.Split(s, "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return l
		}
	}
	return ""
}
