package session

import (
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// shellInfo is what the phase tracker needs to know about a shell command.
type shellInfo struct {
	// Changes names the first part of the command that changes files,
	// e.g. "redirect > out.txt", "sed -i", "git commit"; empty if none.
	Changes string
	// Verifies names the first test, build or lint command, e.g. "go test".
	Verifies string
}

// wrappers run the command that follows them; the tracker looks through
// them (sudo make, env X=1 go test, time pytest).
var wrappers = []string{"sudo", "env", "time", "nice", "nohup", "command", "exec", "timeout", "xargs"}

// fileChangers change files by their nature.
var fileChangers = []string{"mv", "cp", "rm", "rmdir", "touch", "mkdir", "ln", "chmod", "chown", "truncate", "patch", "install", "unlink", "tee"}

// gitChangers are the git subcommands that change the work tree or the
// history. Read-only ones (status, diff, log, show) are exploration.
var gitChangers = []string{"commit", "apply", "checkout", "switch", "restore", "reset", "merge", "rebase", "cherry-pick", "revert", "stash", "pull", "am", "mv", "rm", "clean", "add"}

// analyzeShell parses a command line with the bash parser and looks at every
// simple command in it, through pipes, lists, subshells and wrappers. The
// heuristics are deliberately small and documented in doc.go; a command
// that does not parse is looked at word by word.
func analyzeShell(cmd string) shellInfo {
	var info shellInfo
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(cmd), "")
	if err != nil {
		words := strings.Fields(cmd)
		info.Verifies = verifier(words)
		info.Changes = changer(words)
		if info.Changes == "" && strings.Contains(cmd, ">") && !strings.Contains(cmd, ">&") && !strings.Contains(cmd, "/dev/null") {
			info.Changes = "redirect >"
		}
		return info
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.Stmt:
			for _, r := range n.Redirs {
				if info.Changes == "" && writesFile(r) {
					info.Changes = "redirect " + r.Op.String() + " " + wordText(r.Word)
				}
			}
		case *syntax.CallExpr:
			words := make([]string, 0, len(n.Args))
			for _, w := range n.Args {
				words = append(words, wordText(w))
			}
			if info.Verifies == "" {
				info.Verifies = verifier(words)
			}
			if info.Changes == "" {
				info.Changes = changer(words)
			}
		}
		return true
	})
	return info
}

// wordText is a word's literal text, with quotes removed; parts that are
// not literal (expansions) are kept as written.
func wordText(w *syntax.Word) string {
	if w == nil {
		return ""
	}
	if s := w.Lit(); s != "" {
		return s
	}
	var b strings.Builder
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			b.WriteString(p.Value)
		case *syntax.SglQuoted:
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(l.Value)
				} else {
					b.WriteString("$")
				}
			}
		default:
			b.WriteString("$")
		}
	}
	return b.String()
}

// writesFile reports whether a redirection writes a file (not a duplicated
// descriptor or a device such as /dev/null).
func writesFile(r *syntax.Redirect) bool {
	switch r.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.RdrAll, syntax.AppAll, syntax.RdrClob, syntax.AppClob:
	default:
		return false
	}
	t := wordText(r.Word)
	return t != "" && !strings.HasPrefix(t, "/dev/")
}

// command strips wrappers and leading assignments, returning the words of
// the command that really runs, its name without directory.
func command(words []string) []string {
	for len(words) > 0 {
		w := words[0]
		switch {
		case strings.Contains(w, "=") && !strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "="):
			words = words[1:] // VAR=value
		case slices.Contains(wrappers, path.Base(w)):
			words = words[1:]
			for len(words) > 0 && strings.HasPrefix(words[0], "-") {
				words = words[1:] // wrapper flags: sudo -E, timeout -s KILL is rare
			}
			if path.Base(w) == "timeout" && len(words) > 0 {
				words = words[1:] // the duration
			}
		default:
			out := slices.Clone(words)
			out[0] = path.Base(w)
			return out
		}
	}
	return nil
}

// sub returns the first argument that is not a flag.
func sub(words []string) string {
	for _, w := range words[1:] {
		if !strings.HasPrefix(w, "-") {
			return w
		}
	}
	return ""
}

// gitSub is git's subcommand, past the global options that take a value
// (git -C dir commit).
func gitSub(words []string) string {
	for i := 1; i < len(words); i++ {
		switch w := words[i]; {
		case w == "-C" || w == "-c" || w == "--git-dir" || w == "--work-tree" || w == "--namespace":
			i++
		case strings.HasPrefix(w, "-"):
		default:
			return w
		}
	}
	return ""
}

func hasFlag(words []string, flags ...string) bool {
	for _, w := range words[1:] {
		for _, f := range flags {
			if w == f || (strings.HasPrefix(f, "--") && strings.HasPrefix(w, f+"=")) {
				return true
			}
		}
	}
	return false
}

// changer names the file change a simple command makes, or "".
func changer(words []string) string {
	words = command(words)
	if len(words) == 0 {
		return ""
	}
	name := words[0]
	switch {
	case name == "tee":
		if sub(words) != "" {
			return "tee"
		}
	case slices.Contains(fileChangers, name):
		return name
	case name == "sed" || name == "perl":
		for _, w := range words[1:] {
			if w == "-i" || strings.HasPrefix(w, "-i") || w == "--in-place" || strings.HasPrefix(w, "--in-place=") ||
				(name == "perl" && strings.HasPrefix(w, "-") && !strings.HasPrefix(w, "--") && strings.Contains(w, "i")) {
				return name + " -i"
			}
		}
	case name == "git":
		if s := gitSub(words); slices.Contains(gitChangers, s) {
			return "git " + s
		}
	case name == "npx" || name == "pnpx" || name == "bunx":
		if len(words) > 1 {
			return changer(words[1:])
		}
	case name == "gofmt" || name == "goimports":
		if hasFlag(words, "-w") {
			return name + " -w"
		}
	case name == "prettier":
		if hasFlag(words, "--write", "-w") {
			return "prettier --write"
		}
	case name == "eslint":
		if hasFlag(words, "--fix") {
			return "eslint --fix"
		}
	}
	return ""
}

// verifier names the test, build or lint run a simple command is, or "".
func verifier(words []string) string {
	words = command(words)
	if len(words) == 0 {
		return ""
	}
	name, s := words[0], sub(words)
	pair := name + " " + s
	switch name {
	case "go":
		if slices.Contains([]string{"test", "vet", "build"}, s) {
			return pair
		}
	case "npm", "yarn", "pnpm", "bun", "deno":
		if s == "run" || s == "run-script" {
			// npm run test:unit, npm run lint, npm run build
			if len(words) > 2 {
				for _, w := range words[2:] {
					if !strings.HasPrefix(w, "-") {
						if isScriptVerify(w) {
							return name + " run " + w
						}
						break
					}
				}
			}
			return ""
		}
		if s == "test" || s == "t" || s == "lint" || s == "build" || s == "check" || s == "typecheck" {
			return pair
		}
	case "npx", "pnpx", "bunx":
		if len(words) > 1 {
			return verifier(words[1:])
		}
	case "cargo":
		if slices.Contains([]string{"test", "build", "check", "clippy", "nextest"}, s) {
			return pair
		}
	case "python", "python3":
		if len(words) > 2 && words[1] == "-m" && slices.Contains([]string{"pytest", "unittest", "mypy", "ruff", "flake8", "pylint", "tox"}, words[2]) {
			return name + " -m " + words[2]
		}
	case "ruff":
		if s == "check" || s == "" {
			return "ruff check"
		}
	case "mvn", "gradle", "gradlew", "dotnet", "bazel", "bazelisk", "swift", "zig":
		if slices.Contains([]string{"test", "build", "verify", "package", "check", "compile", "install"}, s) {
			return pair
		}
	case "bundle":
		if s == "exec" && len(words) > 2 {
			return verifier(words[2:])
		}
	case "rake":
		if s == "" || s == "test" || s == "spec" {
			return "rake"
		}
	case "make", "gmake", "ninja", "just", "task", "ctest", "cmake":
		if name == "cmake" && !hasFlag(words, "--build") {
			return ""
		}
		return strings.TrimSpace(pair)
	case "pytest", "tox", "nox", "mypy", "pyright", "flake8", "pylint", "jest", "vitest", "mocha", "ava", "tsc", "eslint",
		"golangci-lint", "staticcheck", "gotestsum", "rspec", "phpunit", "shellcheck", "clippy-driver", "biome":
		if name == "eslint" && hasFlag(words, "--fix") {
			return "" // a fix run changes files; changer reports it
		}
		return name
	case "prettier":
		if hasFlag(words, "--check", "-c") {
			return "prettier --check"
		}
	}
	return ""
}

func isScriptVerify(script string) bool {
	head, _, _ := strings.Cut(script, ":")
	return slices.Contains([]string{"test", "tests", "lint", "build", "check", "typecheck", "type-check", "ci", "verify", "e2e"}, head)
}
