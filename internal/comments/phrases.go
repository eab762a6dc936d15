package comments

import "strings"

// Memo phrases talk to the reviewer about the change ("now uses", "as
// requested") instead of to a later reader about the code: once the change
// is merged nobody knows what "previously" was. Matched on whole words,
// case-insensitively, in comment text only. Measured on real code (the Go
// module cache, Python's standard library), the same words often describe
// behaviour ("a previously registered command", "returns true if the
// element was removed"), so most count only where they open the comment,
// the way a note about the change is written.

// memoStarts count at the start of a comment (after a "Note:" or "Fix:").
var memoStarts = []string{
	"changed from", "changed to", "changed the", "changed this", "modified to", "modified the", "modified this",
	"updated to", "updated the", "updated this", "added this", "added the", "added a", "added an", "added new",
	"added for", "added to fix", "added support", "added check", "removed the", "removed this", "removed old",
	"removed unused", "replaced the", "replaced old", "replaced with", "moved the", "moved this", "moved from",
	"moved here", "renamed from", "renamed to", "renamed the", "fixed the", "fixed a", "fixed bug", "fix for the",
	"refactored", "simplified the", "switched to", "previously", "new code", "old code", "now uses", "now use",
	"now using", "now calls", "now returns", "now handles", "this now", "this fixes", "this was changed",
	"this was added", "this was updated", "was removed",
}

// memoAnywhere count wherever they appear.
var memoAnywhere = []string{
	"as you requested", "as you asked", "per your request", "per the user's request", "per user request",
	"as the user requested", "as requested by the user", "i added", "i changed", "i updated", "i removed", "i fixed",
	"i've added", "i've changed", "i've updated", "i've removed", "changed from", "has been changed", "has been updated",
	"has been removed", "has been added", "have been added", "was changed to", "was updated to", "was renamed",
	"instead of the old", "replaces the old", "new implementation", "old implementation", "no longer uses", "was removed",
}

// memoLeads are words a note about the change may start with.
var memoLeads = []string{"note:", "nb:", "fix:", "fixed:", "update:", "updated:", "change:", "changed:", "edit:", "todo:"}

// memoPhrase is the first memo phrase in text (in lower case), "" for none.
func memoPhrase(text string) string {
	if text == "" {
		return ""
	}
	low := strings.TrimLeft(text, " \t*-/#>.:;!")
	for _, l := range memoLeads {
		if rest, ok := strings.CutPrefix(low, l); ok {
			low = strings.TrimSpace(rest)
			break
		}
	}
	for _, m := range memoStarts {
		if strings.HasPrefix(low, m) && (len(low) == len(m) || notWord(rune(low[len(m)]))) {
			return m
		}
	}
	for _, m := range memoAnywhere {
		if containsWords(low, m) {
			return m
		}
	}
	if containsWords(low, "as requested") && !containsWords(low, "as requested by") && !containsWords(low, "as requested in") {
		return "as requested"
	}
	return ""
}

// containsWords reports whether s holds phrase with a word boundary on
// either side.
func containsWords(s, phrase string) bool {
	for off := 0; ; {
		i := strings.Index(s[off:], phrase)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(phrase)
		if (i == 0 || notWord(rune(s[i-1]))) && (end == len(s) || notWord(rune(s[end]))) {
			return true
		}
		off = i + 1
	}
}

// directivePrefixes open a comment that is an instruction to a tool: a
// compiler, linter, formatter, type checker, migration tool or editor.
var directivePrefixes = []string{
	"go:", "+build", "nolint", "lint:", "nosec", "#nosec", "pragma", "#pragma",
	"noqa", "type:", "pylint:", "mypy:", "pyright:", "flake8:", "isort:", "fmt:", "ruff:", "yapf:", "pyre-",
	"eslint", "jshint", "jslint", "jscs:", "tslint:", "@ts-", "@flow", "@jsx", "@jsximportsource",
	"prettier-ignore", "biome-ignore", "deno-lint-ignore", "deno-fmt-ignore", "istanbul ", "c8 ", "v8 ",
	"@vite-ignore", "webpackchunkname", "#region", "#endregion", "region", "endregion", "<reference", "sourcemappingurl",
	"# sourcemappingurl", "@license", "@preserve", "rubocop:", "frozen_string_literal", "typed:", "shellcheck ",
	"+migrate", "+goose", "name: ", "-*-", "vim:", "vi:", "ex:", "coding:", "coding=", "encoding:", "language=",
	"noinspection", "clang-format", "nolintnextline", "swiftlint:", "ktlint", "cppcheck-suppress", "coverity",
	"@generated", "code generated", "do not edit", "syntax=", "escape=", "hadolint", "checkov:", "tfsec:", "trivy:",
	"@formatter:", "cspell:", "spell-checker:", "codespell:", "nosonar", "staticcheck", "stylelint-", "markdownlint-",
	"sqlfluff:", "noqa:", "pylint ", "pragma:", "lgtm", "safety:", "semgrep:", "nosemgrep",
}

// directiveWords mark a directive wherever they appear in a comment,
// such as a trailing `# noqa: E501` or `// eslint-disable-line`.
var directiveWords = []string{
	"noqa", "type: ignore", "pylint: disable", "pylint:disable", "eslint-disable", "@ts-ignore", "@ts-expect-error",
	"@ts-nocheck", "prettier-ignore", "nolint", "nosec", "nosonar", "pragma: no cover", "shellcheck disable",
	"istanbul ignore", "c8 ignore", "rubocop:disable", "rubocop:todo", "biome-ignore", "deno-lint-ignore", "lint:ignore",
	"noinspection", "fmt: off", "fmt: on", "fmt: skip", "isort: skip", "pyright: ignore", "mypy: ignore",
}

// isDirective reports whether the comment text (in lower case) is a
// directive.
func isDirective(low string) bool {
	for _, p := range directivePrefixes {
		if strings.HasPrefix(low, p) {
			return true
		}
	}
	for _, w := range directiveWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// licenseWords mark a comment run as a license header.
var licenseWords = []string{
	"spdx-license-identifier", "copyright", "licensed under", "all rights reserved", "permission is hereby granted",
	"general public license", "apache license", "mit license", "without warranty", "mozilla public license",
}

// isLicense reports whether the comment text (in lower case) is part of
// a license notice.
func isLicense(low string) bool {
	for _, w := range licenseWords {
		if strings.Contains(low, w) {
			return true
		}
	}
	return false
}

// isMarker reports whether the comment text marks a step of a test:
// "Arrange", "act and assert", "Given:"; in a test file also a step told
// in prose ("Given a user with no session").
func isMarker(low string, test bool) bool {
	first := true
	for rest := low; ; first = false {
		rest = strings.TrimLeftFunc(rest, notWord)
		if rest == "" {
			return !first
		}
		end := strings.IndexFunc(rest, notWord)
		if end < 0 {
			end = len(rest)
		}
		switch rest[:end] {
		case "given", "when", "then":
			if first && test {
				return true
			}
		case "and", "but", "arrange", "act", "assert", "setup", "teardown", "exercise", "verify", "expect":
		default:
			return false
		}
		rest = rest[end:]
	}
}
