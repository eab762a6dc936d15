package mcptools

import (
	"net/url"
	"slices"
	"strings"
)

// paths are requests of one tool for each path, URLs left out (a tool
// that reads a URL reads no local file).
func paths(tool string, ps []string) []Request {
	var out []Request
	for _, p := range noURLs(ps) {
		out = append(out, Request{Tool: tool, Arg: p})
	}
	return out
}

// shell is a request for a command line, "" giving none.
func shell(cmd, dir string) []Request {
	if strings.TrimSpace(cmd) == "" {
		return nil
	}
	return []Request{{Tool: "shell", Arg: cmd, Dir: dir}}
}

// command is the shell command for a program and its arguments, each
// quoted as one word: what a server that executes an argv runs.
func command(prog string, argv ...string) string {
	var b strings.Builder
	b.WriteString(quote(prog))
	for _, a := range argv {
		b.WriteByte(' ')
		b.WriteString(quote(a))
	}
	return b.String()
}

// argvLines are the command lines an argv given to a server stands for:
// its words quoted one by one (a leading ~ left to expand), as a server
// that executes an argv runs it, and, when a word holds shell syntax, also
// the words joined as they are, as a server that hands them to a shell
// runs them. Nil for an empty argv.
func argvLines(argv []string) []string {
	if len(argv) == 0 {
		return nil
	}
	words := make([]string, len(argv))
	for i, w := range argv {
		words[i] = quotePath(w)
	}
	lines := []string{strings.Join(words, " ")}
	if slices.ContainsFunc(argv, func(w string) bool { return strings.ContainsAny(w, "$`;|&<>*?(){}\n\\") }) {
		lines = append(lines, strings.Join(argv, " "))
	}
	return lines
}

// quote quotes s as one shell word; single quotes keep every character.
func quote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// quotePath quotes a path for a command whose equivalent the guard judges
// (rm, mkdir), keeping a leading ~ unquoted: the servers expand it as the
// home directory (the reference filesystem server does), and so must the
// command that stands for them.
func quotePath(p string) string {
	if p == "~" {
		return p
	}
	if rest, ok := strings.CutPrefix(p, "~/"); ok {
		return "~/" + quote(rest)
	}
	return quote(p)
}

// pathCommand is `prog opts... -- paths...` with the paths quoted by
// quotePath, "" when there are none.
func pathCommand(prog string, opts []string, ps []string) string {
	ps = noURLs(ps)
	if len(ps) == 0 {
		return ""
	}
	parts := append([]string{prog}, opts...)
	parts = append(parts, "--")
	for _, p := range ps {
		parts = append(parts, quotePath(p))
	}
	return strings.Join(parts, " ")
}

// noURLs leaves out URLs and blank names, which name no local file; a
// file: URL is the path it names.
func noURLs(ps []string) []string {
	var out []string
	for _, p := range ps {
		if len(p) > len("file://") && strings.EqualFold(p[:len("file://")], "file://") {
			p = strings.TrimPrefix(p[len("file://"):], "localhost")
			if u, err := url.PathUnescape(p); err == nil {
				p = u
			}
		}
		if !strings.Contains(p, "://") && strings.TrimSpace(p) != "" {
			out = append(out, p)
		}
	}
	return out
}

// posixShells run their -c argument as shell code.
var posixShells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "busybox", "shell", "posix", "fish"}

// program is the command that runs code written in lang: the code itself
// for a shell, an interpreter's one-liner form for the languages whose
// programs the guard reads; false for any other language and for code
// whose language is not given (Python read as shell would be a parse
// error, a deny, where an ask is due).
func program(lang, code string) (string, bool) {
	lang = strings.TrimSuffix(strings.ToLower(pathBase(strings.TrimSpace(lang))), ".exe")
	switch {
	case slices.Contains(posixShells, lang):
		return code, true
	case lang == "python" || lang == "py" || strings.HasPrefix(lang, "python3"):
		return command("python3", "-c", code), true
	case lang == "javascript" || lang == "js" || lang == "node" || lang == "nodejs":
		return command("node", "-e", code), true
	case lang == "ruby" || lang == "rb":
		return command("ruby", "-e", code), true
	case lang == "perl":
		return command("perl", "-e", code), true
	}
	return "", false
}
