package install

import "strings"

// shellSafe reports whether s can appear as one sh word without quoting.
func shellSafe(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.ContainsRune("_@%+=:,./-", c):
		default:
			return false
		}
	}
	return true
}

// ShellQuote quotes s for `sh -c`, which is how Claude Code runs a command
// hook. Plain paths stay readable; anything else is single-quoted (see
// ShellSingleQuote).
func ShellQuote(s string) string {
	if shellSafe(s) {
		return s
	}
	return ShellSingleQuote(s)
}

// ShellSingleQuote quotes s as one sh word whatever it holds: single
// quotes, the one quoting form in which no character is special, each ' inside
// closed, escaped and reopened.
func ShellSingleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// baseName is the last element of a slash- or backslash-separated path; the
// backslash form matters for Windows paths in settings written there.
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
