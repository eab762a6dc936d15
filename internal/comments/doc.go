// Package comments checks what a write or edit added for comment noise:
// comments that narrate the code line by line, and notes to the reviewer
// about the change ("now uses", "changed from", "as requested") that mean
// nothing once the change is merged. It never blocks; the [Handler] tells
// the agent which lines to reconsider, after the tool ran.
//
// The host adapters say what a call added ([event.Tool.Added]: the lines,
// with the unchanged lines around them as context). [Check] reads them in
// the comment syntax of the file's extension (syntax.go: the C family's
// // and /* */, #, --, <!-- -->, ; and Python's docstrings) with a small
// lexer per family that knows strings, so a # inside a string or the //
// of a URL is no comment; files of a kind it does not know are skipped.
// No parser, no cgo: the lexer is a few hundred lines; the whole check of
// a 2,000-line write takes about 2 ms (BenchmarkCheckWrite2000, on a busy
// two-core machine), and it runs in the handler's Prepare, outside the
// state lock, only for writes and edits.
//
// Not counted as noise: shebangs, linter and compiler directives
// (//go:build, # noqa, eslint-disable, ...), license headers (a comment
// run with a copyright or license notice), test-step markers (given/when/
// then, arrange/act/assert), docstrings and documentation comments (///,
// /**, and a comment run right above a declaration, or above a line
// starting with the word the comment starts with, as Go documents fields).
// Trailing comments are not counted either, but memo phrases are looked
// for in every comment. The defaults (config context.comments) were set by
// running the check over real code: see [FromConfig].
package comments
