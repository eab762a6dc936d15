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

// shellQuote quotes s for `sh -c`, which is how Claude Code runs a command
// hook. Plain paths stay readable; anything else is single-quoted, the one
// quoting form in which no character is special.
func shellQuote(s string) string {
	if shellSafe(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// firstWord splits the first sh word off cmd, undoing quotes. dynamic is set
// when the word depends on the shell at run time ($VAR, `cmd`, ~), so its
// literal text is not the path that will run. ok is false for an empty or
// unterminated command.
func firstWord(cmd string) (word, rest string, dynamic, ok bool) {
	s := strings.TrimLeft(cmd, " \t\n")
	if strings.HasPrefix(s, "~") {
		dynamic = true
	}
	var sb strings.Builder
	i := 0
loop:
	for i < len(s) {
		c := s[i]
		switch c {
		case ' ', '\t', '\n', ';', '&', '|', '<', '>', '(', ')':
			break loop
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return "", "", false, false
			}
			sb.WriteString(s[i+1 : i+1+j])
			i += j + 2
		case '"':
			i++
			for {
				if i >= len(s) {
					return "", "", false, false
				}
				c := s[i]
				if c == '"' {
					i++
					break
				}
				if c == '\\' && i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
					sb.WriteByte(s[i+1])
					i += 2
					continue
				}
				if c == '$' || c == '`' {
					dynamic = true
				}
				sb.WriteByte(c)
				i++
			}
		case '\\':
			if i+1 < len(s) {
				sb.WriteByte(s[i+1])
				i += 2
			} else {
				i++
			}
		default:
			if c == '$' || c == '`' || c == '*' || c == '?' || c == '[' {
				dynamic = true
			}
			sb.WriteByte(c)
			i++
		}
	}
	if i == 0 {
		return "", "", false, false
	}
	return sb.String(), s[i:], dynamic, true
}

// baseName is the last element of a slash- or backslash-separated path; the
// backslash form matters for Windows paths in settings written there.
func baseName(p string) string {
	if i := strings.LastIndexAny(p, `/\`); i >= 0 {
		return p[i+1:]
	}
	return p
}
