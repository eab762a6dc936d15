// Package prompt reads what the user typed: the words of a prompt's prose
// ([Prose]), whether it names a keyword ([Find]), and what kind of work it
// asks for ([Classify]). Everything here is pure and allocation-light: it
// runs on every user prompt.
//
// Prose is the text outside code: fenced blocks (``` and ~~~), indented
// code blocks, inline code spans, and every whitespace-separated chunk that
// is not a plain word once surrounding punctuation is trimmed: URLs, file
// paths and names (ulw.go, src/ultrawork/x), command-line flags (--ulw),
// identifiers joined by '_' or '-' (ulw_test, ulw-mode), e-mail addresses,
// markup. A word is letters and digits only, compared case-insensitively,
// so a keyword never matches inside a longer word (multiworkload) or a
// name that merely contains it.
package prompt
