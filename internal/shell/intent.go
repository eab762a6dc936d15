package shell

import (
	"slices"
	"strings"
)

// Run intents: what a check or setup command is for, whichever program
// runs it. `npm test`, `npx jest`, `yarn test` and `pnpm test` are all
// test runs; the session's strike counter groups failures by intent, so
// an agent that hops between runners of one failing suite is seen
// thrashing (package session).
const (
	IntentTest    = "test"
	IntentBuild   = "build"
	IntentLint    = "lint"
	IntentInstall = "install"
)

// RunIntent is the intent of the resolved command name args: test,
// build, lint or install; "" when it is none of them. It reads the same
// recognisers as [Verifier] (so a form the guard unwraps, npx or env or
// a shell -c, is seen through) and the package managers' install
// subcommands.
func RunIntent(name string, args []Word) string {
	if installs(name, args) {
		return IntentInstall
	}
	v := Verifier(name, args)
	if v == "" || strings.HasPrefix(v, "atreides ") {
		return "" // a plan phase's verification is its own command
	}
	return verifierIntent(v)
}

// verifierIntent classifies a Verifier name ("go test", "npm run
// lint:ci", "python -m pytest", "jest", "make check"): by the tool when
// the tool does one thing, else by its subcommand or script, and a task
// runner's other targets as builds.
func verifierIntent(v string) string {
	f := strings.Fields(v)
	tool, last := f[0], f[len(f)-1]
	if len(f) >= 3 && f[1] == "-m" {
		tool = last // python -m pytest
	}
	switch {
	case slices.Contains(testTools, tool):
		return IntentTest
	case slices.Contains(lintTools, tool):
		return IntentLint
	case tool == "tsc":
		return IntentBuild
	}
	head, _, _ := strings.Cut(last, ":")
	switch {
	case slices.Contains([]string{"test", "t", "tests", "e2e", "spec", "nextest", "ci", "verify", "unittest"}, head):
		return IntentTest
	case slices.Contains([]string{"lint", "vet", "clippy", "typecheck", "type-check"}, head):
		return IntentLint
	}
	return IntentBuild
}

// testTools and lintTools are programs that only test, or only lint.
var (
	testTools = []string{"pytest", "jest", "vitest", "mocha", "ava", "rspec", "phpunit", "gotestsum", "tox", "nox", "ctest", "rake", "unittest"}
	lintTools = []string{"ruff", "eslint", "flake8", "pylint", "mypy", "pyright", "golangci-lint", "staticcheck", "shellcheck", "biome", "prettier"}
)

// installs reports a package manager's dependency install: `npm ci`,
// `pip install -r requirements.txt`, `go mod download`, bare `yarn`.
func installs(name string, args []Word) bool {
	sub := FirstOperand(args)
	if name == "python" || name == "python3" {
		if m, ok := OptValue(args, 'm', ""); ok && m.Text == "pip" {
			name, sub = "pip", pipSub(args)
		}
	}
	switch name {
	case "yarn", "bundle":
		if sub == "" {
			return true
		}
	case "go":
		if sub == "mod" {
			i := slices.IndexFunc(args, func(w Word) bool { return w.Text == "mod" })
			return slices.Contains([]string{"download", "tidy"}, FirstOperand(args[i+1:]))
		}
	case "uv":
		if sub == "pip" {
			i := slices.IndexFunc(args, func(w Word) bool { return w.Text == "pip" })
			sub = FirstOperand(args[i+1:])
		}
	}
	for _, t := range installSubs {
		if t.name == name {
			return slices.Contains(t.subs, sub)
		}
	}
	return false
}

// pipSub is pip's subcommand in `python -m pip SUB`.
func pipSub(args []Word) string {
	i := slices.IndexFunc(args, func(w Word) bool { return w.Text == "pip" })
	if i < 0 {
		return ""
	}
	return FirstOperand(args[i+1:])
}

// installSubs are the subcommands that install a project's dependencies.
var installSubs = []struct {
	name string
	subs []string
}{
	{"npm", []string{"install", "i", "ci", "add"}},
	{"pnpm", []string{"install", "i", "add"}},
	{"yarn", []string{"install", "add"}},
	{"bun", []string{"install", "i", "add"}},
	{"pip", []string{"install"}},
	{"pip3", []string{"install"}},
	{"uv", []string{"sync", "add", "install"}},
	{"poetry", []string{"install", "add"}},
	{"pipenv", []string{"install", "sync"}},
	{"go", []string{"get"}},
	{"cargo", []string{"fetch", "add"}},
	{"gem", []string{"install"}},
	{"bundle", []string{"install"}},
	{"composer", []string{"install", "require"}},
	{"deno", []string{"install", "add"}},
}
