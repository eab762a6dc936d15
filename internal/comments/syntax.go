package comments

import (
	"path"
	"strings"
)

// syntax is how one family of languages writes comments and strings. It
// is static data: the tables below cost nothing until a file is checked.
type syntax struct {
	name string
	// line are the markers of comments that run to the end of the line;
	// block the open and close markers of comments that may span lines.
	line  []string
	block [][2]string
	// quotes are the characters that open a string closed by the same
	// character on the same line (a quote with no partner on its line is
	// taken as code: a Rust lifetime, an apostrophe); spanning those whose
	// strings may run over lines (Go raw strings, JS templates, shell).
	quotes, spanning string
	// raw quotes take no backslash escapes (Go's backquote, shell's ').
	raw string
	// triple: Python's """ and ''' strings, which span lines; one that
	// opens a statement is a docstring.
	triple bool
	// wordStart: a line marker opens a comment only at the start of a
	// word (shell's `${#x}` and `a#b` are no comments).
	wordStart bool
	// heredoc: `<<EOF` starts lines of text up to the delimiter.
	heredoc bool
	// doc are the markers of documentation comments (///, /**).
	doc []string
	// decl tells a line that declares something, which a comment right
	// above documents.
	decl func(code string) bool
}

var (
	cLike = syntax{
		name: "c", line: []string{"//"}, block: [][2]string{{"/*", "*/"}},
		quotes: `"'`, spanning: "`", raw: "`",
		doc: []string{"///", "//!", "/**", "/*!"}, decl: cDecl,
	}
	cssLike  = syntax{name: "css", block: [][2]string{{"/*", "*/"}}, quotes: `"'`, doc: []string{"/**"}}
	scssLike = syntax{
		name: "scss", line: []string{"//"}, block: [][2]string{{"/*", "*/"}}, quotes: `"'`,
		doc: []string{"///", "/**"},
	}
	python   = syntax{name: "python", line: []string{"#"}, quotes: `"'`, triple: true, decl: hashDecl}
	hashLike = syntax{
		name: "hash", line: []string{"#"}, quotes: `"'`, spanning: `"'`, decl: hashDecl,
	}
	shell = syntax{
		name: "shell", line: []string{"#"}, quotes: `"'`, spanning: `"'`, raw: "'",
		wordStart: true, heredoc: true, decl: hashDecl,
	}
	// config files: YAML, TOML, INI, Make; a # inside a value is only a
	// comment after a blank.
	config = syntax{name: "config", line: []string{"#"}, quotes: `"'`, wordStart: true, decl: keyDecl}
	ini    = syntax{name: "ini", line: []string{"#", ";"}, quotes: `"'`, wordStart: true, decl: keyDecl}
	sql    = syntax{
		name: "sql", line: []string{"--"}, block: [][2]string{{"/*", "*/"}},
		quotes: `"'`, spanning: "'", doc: []string{"/**"}, decl: sqlDecl,
	}
	lua     = syntax{name: "lua", line: []string{"--"}, block: [][2]string{{"--[[", "]]"}}, quotes: `"'`, doc: []string{"---"}, decl: hashDecl}
	haskell = syntax{name: "haskell", line: []string{"--"}, block: [][2]string{{"{-", "-}"}}, quotes: `"`, doc: []string{"-- |", "{-|"}}
	markup  = syntax{name: "markup", block: [][2]string{{"<!--", "-->"}}}
	lisp    = syntax{name: "lisp", line: []string{";"}, quotes: `"`, spanning: `"`}
)

// syntaxOf is the syntax of the file at p, by its extension or, for files
// known by name, its name; nil for a file it does not know (prose, data),
// which is not checked.
func syntaxOf(p string) *syntax {
	base := strings.ToLower(path.Base(strings.ReplaceAll(p, `\`, "/")))
	switch base {
	case "makefile", "gnumakefile", "dockerfile", "containerfile", "cmakelists.txt", ".gitignore", ".dockerignore", ".env":
		return &config
	case "bashrc", ".bashrc", ".zshrc", ".profile", ".bash_profile":
		return &shell
	}
	switch path.Ext(base) {
	case ".go", ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".m", ".mm",
		".java", ".kt", ".kts", ".scala", ".groovy", ".gradle", ".cs", ".fs", ".swift", ".dart",
		".rs", ".zig", ".v", ".proto", ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx",
		".php", ".sol", ".jsonc":
		return &cLike
	case ".css":
		return &cssLike
	case ".scss", ".sass", ".less":
		return &scssLike
	case ".py", ".pyi", ".pyx":
		return &python
	case ".sh", ".bash", ".zsh", ".ksh", ".fish":
		return &shell
	case ".rb", ".pl", ".pm", ".r", ".ex", ".exs", ".nim", ".cr", ".jl", ".ps1", ".tf", ".hcl", ".nix":
		return &hashLike
	case ".yaml", ".yml", ".toml", ".mk", ".cmake":
		return &config
	case ".ini", ".cfg", ".conf", ".properties":
		return &ini
	case ".sql", ".psql", ".pgsql":
		return &sql
	case ".lua":
		return &lua
	case ".hs", ".elm", ".purs":
		return &haskell
	case ".html", ".htm", ".xhtml", ".xml", ".svg", ".xsd", ".xsl", ".plist":
		return &markup
	case ".el", ".lisp", ".lsp", ".clj", ".cljs", ".cljc", ".edn", ".scm", ".rkt", ".asm", ".s":
		return &lisp
	}
	return nil
}

// cDecl: a line that declares a function, type, top-level variable or
// member in the C family (Go, TypeScript, Java, Rust, ...).
func cDecl(code string) bool {
	if strings.HasPrefix(strings.TrimSpace(code), "@") {
		return true // an annotation or decorator opens a declaration
	}
	for _, x := range firstWords(code, 4) {
		switch x {
		case "export", "pub", "public", "private", "protected", "internal", "static", "async",
			"abstract", "final", "default", "declare", "readonly", "override", "virtual", "unsafe", "extern", "inline":
			continue
		case "func", "type", "package", "class", "interface", "enum", "struct",
			"fn", "impl", "trait", "mod", "function", "module", "namespace", "record", "object", "fun", "union", "typedef", "template":
			return true
		case "var", "const", "let", "val":
			// Only a package's or module's variables are documented; a
			// comment above a local one narrates the code.
			return code != "" && code[0] != ' ' && code[0] != '\t'
		}
		return false
	}
	return false
}

// hashDecl: a Python, Ruby or shell definition.
func hashDecl(code string) bool {
	w := firstWords(code, 2)
	if len(w) == 0 {
		return false
	}
	switch w[0] {
	case "def", "class", "module", "function", "async", "local", "sub", "defmodule", "defp", "resource", "variable", "output":
		return true
	}
	t := strings.TrimSpace(code)
	return strings.HasPrefix(t, "@") || strings.Contains(t, "() {") || strings.HasSuffix(t, "()")
}

// keyDecl: a configuration key, list item or section, which the comments
// above it document.
func keyDecl(code string) bool {
	t := strings.TrimSpace(code)
	if strings.HasPrefix(t, "[") || strings.HasPrefix(t, "- ") {
		return true
	}
	w := firstWords(t, 1)
	if len(w) == 0 || !strings.HasPrefix(t, w[0]) {
		return false
	}
	rest := strings.TrimLeft(t[len(w[0]):], " \t")
	return strings.HasPrefix(rest, ":") || strings.HasPrefix(rest, "=") || strings.HasPrefix(rest, "?=") || strings.HasPrefix(rest, ":=")
}

// sqlDecl: a statement that creates or changes a schema object.
func sqlDecl(code string) bool {
	w := firstWords(strings.ToLower(code), 1)
	return len(w) == 1 && (w[0] == "create" || w[0] == "alter" || w[0] == "comment")
}

// firstWords are up to n leading words of s, split at anything that is
// not a letter, digit or underscore.
func firstWords(s string, n int) []string {
	w := strings.FieldsFunc(firstN(s, 80), notWord)
	return w[:min(n, len(w))]
}

func firstN(s string, n int) string { return s[:min(n, len(s))] }

func notWord(r rune) bool {
	return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r >= 0x80)
}
