package shell

import (
	"slices"
	"strings"
)

// Verifier names the test, build or lint run the resolved command name
// args is ("go test", "npm run lint", "python -m pytest"); "" when it is
// none.
func Verifier(name string, args []Word) string {
	if f := verifierOf(name); f != nil {
		return f(name, FirstOperand(args), args)
	}
	if InterpFamily(name) == "python" {
		if m, ok := OptValue(args, 'm', ""); ok && slices.Contains(verifyModules, m.Text) {
			return name + " -m " + m.Text
		}
	}
	return ""
}

// VerifyModule reports a Python interpreter run as `-m MODULE` of a test
// or lint tool (python -m pytest): it runs the tool, not a program of the
// agent's.
func VerifyModule(name string, args []Word) bool {
	m, ok := OptValue(args, 'm', "")
	return ok && InterpFamily(name) == "python" && slices.Contains(verifyModules, m.Text) && args[0].Text == "-m"
}

// verifyModules are the Python modules that test or lint.
var verifyModules = []string{"pytest", "unittest", "mypy", "ruff", "flake8", "pylint", "tox", "nox", "pyright"}

type verifyFunc func(name, sub string, args []Word) string

// verifierOf recognises a program's test, build and lint runs by its
// subcommand (sub) and options: a switch, which costs nothing at start-up
// or on first use, where a table of closures was built in every hook that
// ran a command.
func verifierOf(name string) verifyFunc {
	switch name {
	case "npm", "yarn", "pnpm", "bun", "deno":
		return verifyJS
	case "go":
		return verifyGo
	case "atreides":
		// A plan phase is completed only when its Verify command passes.
		return verifyPlanPhase
	case "cargo":
		return verifyCargo
	case "mvn", "gradle", "gradlew", "dotnet", "bazel", "bazelisk", "swift", "zig":
		return verifyBuildTool
	case "make", "gmake", "ninja", "just", "task", "ctest":
		return verifyTarget
	case "pytest", "tox", "nox", "mypy", "pyright", "flake8", "pylint", "jest", "vitest", "mocha",
		"ava", "tsc", "golangci-lint", "staticcheck", "gotestsum", "rspec", "phpunit", "shellcheck", "biome":
		return verifyAlways
	case "ruff":
		return verifyRuff
	case "rake":
		return verifyRake
	case "cmake":
		return verifyCMake
	case "eslint":
		return verifyESLint
	case "prettier":
		return verifyPrettier
	}
	return nil
}

// subIn is "name sub" when sub is one of subs.
func subIn(name, sub string, subs ...string) string {
	if slices.Contains(subs, sub) {
		return name + " " + sub
	}
	return ""
}

func verifyGo(name, sub string, _ []Word) string { return subIn(name, sub, "test", "vet", "build") }

func verifyCargo(name, sub string, _ []Word) string {
	return subIn(name, sub, "test", "build", "check", "clippy", "nextest")
}

func verifyBuildTool(name, sub string, _ []Word) string {
	return subIn(name, sub, "test", "build", "verify", "package", "check", "compile", "install")
}

// verifyTarget: a task runner's run is its target's ("make test").
func verifyTarget(name, sub string, _ []Word) string { return strings.TrimSpace(name + " " + sub) }

func verifyAlways(name, _ string, _ []Word) string { return name }

// verifyJS: a JavaScript package manager's test, lint, build or check
// script, by subcommand or through run.
func verifyJS(name, sub string, args []Word) string {
	if sub == "run" || sub == "run-script" {
		i := slices.IndexFunc(args, func(w Word) bool { return w.Text == sub })
		if s := FirstOperand(args[i+1:]); isScriptVerify(s) {
			return name + " run " + s
		}
		return ""
	}
	if slices.Contains([]string{"test", "t", "lint", "build", "check", "typecheck"}, sub) {
		return name + " " + sub
	}
	return ""
}

// verifyPlanPhase: a plan phase is completed only when its Verify command
// passes.
func verifyPlanPhase(name, sub string, args []Word) string {
	if i := slices.IndexFunc(args, func(w Word) bool { return w.Text == sub }); sub == "plan" && FirstOperand(args[i+1:]) == "phase-done" {
		return name + " plan phase-done"
	}
	return ""
}

// verifyRuff: ruff check without --fix.
func verifyRuff(_, sub string, args []Word) string {
	if sub == "check" && !anyFlag(args, []string{"--fix"}) || sub == "" {
		return "ruff check"
	}
	return ""
}

// verifyRake: rake's default task, test or spec.
func verifyRake(_, sub string, _ []Word) string {
	if sub == "" || sub == "test" || sub == "spec" {
		return "rake"
	}
	return ""
}

// verifyCMake: cmake --build.
func verifyCMake(_, _ string, args []Word) string {
	if anyFlag(args, []string{"--build"}) {
		return "cmake --build"
	}
	return ""
}

// verifyESLint: eslint without --fix.
func verifyESLint(name, _ string, args []Word) string {
	if !anyFlag(args, []string{"--fix"}) {
		return name
	}
	return ""
}

// verifyPrettier: prettier --check.
func verifyPrettier(_, _ string, args []Word) string {
	if anyFlag(args, []string{"--check", "-c"}) {
		return "prettier --check"
	}
	return ""
}

// isScriptVerify: a package script named for a check (test, lint:ci,
// build:prod).
func isScriptVerify(script string) bool {
	head, _, _ := strings.Cut(script, ":")
	return slices.Contains([]string{"test", "tests", "lint", "build", "check", "typecheck", "type-check", "ci", "verify", "e2e"}, head)
}
