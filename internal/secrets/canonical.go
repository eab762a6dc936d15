package secrets

import (
	"net/url"
	"path"
	"strings"
)

// Env is the context a path is interpreted in. All fields are optional; an
// empty Env still gives a usable (relative) answer.
type Env struct {
	// Cwd makes relative paths absolute. ProjectRoot scopes relative
	// Options.Extra/Allow globs and the vendored-directory exemption; it
	// defaults to Cwd.
	Cwd, Home, ProjectRoot string
	// Vars are extra variables for `$NAME`/`${NAME}` expansion and for the
	// directory anchors of rules (CODEX_HOME, XDG_CONFIG_HOME, GNUPGHOME,
	// KUBECONFIG ...). HOME and USERPROFILE always mean Home.
	Vars map[string]string
	// Resolve follows symlinks (filepath.EvalSymlinks in production). A nil
	// error also means "the path exists", which lets Check accept file names
	// that would otherwise look like prose (`.env.production copy`). nil
	// keeps Canonical and Check pure.
	Resolve func(string) (string, error)
	// Literal says p is already expanded, as a shell word is after the
	// shell's own expansion: `$` is an ordinary character there (the
	// single-quoted `'${X:=.env}'` names a file called `${X:=.env}`), so
	// no variable is expanded. `~` is still expanded.
	Literal bool
}

// varDefault gives the value a well-known variable has when the caller did
// not set it, relative to Home. Expanding `$CODEX_HOME/auth.json` to
// `~/.codex/auth.json` when CODEX_HOME is unset is what the tool itself does,
// so it is also what the guard must assume.
func varDefault(name string) (string, bool) {
	switch name {
	case "CODEX_HOME":
		return ".codex", true
	case "CLAUDE_CONFIG_DIR":
		return ".claude", true
	case "XDG_CONFIG_HOME":
		return ".config", true
	case "XDG_DATA_HOME":
		return ".local/share", true
	case "XDG_STATE_HOME":
		return ".local/state", true
	case "XDG_CACHE_HOME":
		return ".cache", true
	case "GNUPGHOME":
		return ".gnupg", true
	case "DOCKER_CONFIG":
		return ".docker", true
	case "CLOUDSDK_CONFIG":
		return ".config/gcloud", true
	case "GH_CONFIG_DIR":
		return ".config/gh", true
	case "KUBECONFIG":
		return ".kube/config", true
	case "AWS_SHARED_CREDENTIALS_FILE":
		return ".aws/credentials", true
	case "AWS_CONFIG_FILE":
		return ".aws/config", true
	}
	return "", false
}

// VarDefault is the value the well-known variable name stands for when it
// is not set (`CODEX_HOME` -> home/.codex): the directory the tool itself
// uses. A shell analysis that cannot see the environment checks a path
// built from the unset variable against this value.
func VarDefault(name, home string) (string, bool) {
	def, ok := varDefault(name)
	if !ok || home == "" {
		return "", false
	}
	return home + "/" + def, true
}

// canon is the internal result of canonicalisation.
type canon struct {
	path     string // cleaned, slash-separated; absolute when Cwd allowed it
	resolved string // symlink target when Resolve found one that differs
	win      bool   // drive-qualified or UNC path
	remote   bool   // a URL naming something on another machine
	exists   bool   // Resolve succeeded on the full path
}

// Canonical returns the cleaned absolute form of p: `~`, `~/`, `~user/`,
// `$HOME`, `${HOME}` and known variables expanded, made absolute against
// env.Cwd, `.`/`..` resolved lexically, then symlinks followed through
// env.Resolve when it succeeds. Windows-shaped inputs (drive letter or UNC)
// come back in Windows form with backslashes. Remote URLs (https://...) are
// returned trimmed but otherwise unchanged: they name no local file.
func Canonical(p string, env Env) string {
	c := canonicalize(p, env)
	if c.remote {
		return strings.TrimSpace(p)
	}
	out := c.path
	if c.resolved != "" {
		out = c.resolved
	}
	if c.win {
		out = strings.ReplaceAll(out, "/", `\`)
	}
	return out
}

func canonicalize(p string, env Env) canon {
	var c canon
	s := strings.TrimSpace(p)
	if s == "" {
		return c
	}
	s, c.remote = stripScheme(s)
	if c.remote {
		c.path = s
		return c
	}
	s = expandHome(s, env)
	if strings.IndexByte(s, '$') >= 0 && !env.Literal {
		s = expandToFixpoint(s, env)
	}
	if !isAbsLike(s) && env.Cwd != "" {
		cwd := env.Cwd
		if isWinLike(cwd) {
			s = cwd + `\` + s
		} else {
			s = cwd + "/" + s
		}
	}
	c.path, c.win = cleanAny(s)
	// Cleaning can expose trailing blanks (`x /`); the input was trimmed for
	// the same reason, so trim again until stable.
	for {
		t := strings.TrimRight(c.path, " \t\n\r\v\f")
		if t == c.path || t == "" {
			break
		}
		c.path, c.win = cleanAny(t)
	}
	if env.Resolve != nil && c.path != "" {
		c.resolved, c.exists = resolve(c.path, env.Resolve)
	}
	return c
}

// resolve asks the caller's resolver about p. When p does not exist (a file
// about to be written), the parent directory is resolved instead so a new
// file inside a symlink to ~/.ssh is still seen as inside ~/.ssh.
func resolve(p string, r func(string) (string, error)) (string, bool) {
	if t, err := r(p); err == nil {
		t, _ = cleanAny(t)
		if t == p {
			return "", true
		}
		return t, true
	}
	dir, base := path.Split(p)
	if dir == "" || base == "" {
		return "", false
	}
	dir = strings.TrimSuffix(dir, "/")
	if dir == "" {
		return "", false
	}
	t, err := r(dir)
	if err != nil {
		return "", false
	}
	t, _ = cleanAny(t)
	if t == dir {
		return "", false
	}
	return strings.TrimSuffix(t, "/") + "/" + base, false
}

// stripScheme removes URL syntax. http(s) and any other `scheme://host`
// address a remote machine, so they are reported as remote (fetching a
// public `.env.example` over https reads nothing local). `file://` URLs and
// hostless `scheme:/path` forms are local paths. One-letter "schemes" are
// drive letters.
func stripScheme(s string) (string, bool) {
	i := strings.IndexByte(s, ':')
	if i < 2 || !isScheme(s[:i]) {
		return s, false
	}
	rest := s[i+1:]
	if !strings.HasPrefix(rest, "/") {
		return s, false // `foo:bar` is a file name, not a URL
	}
	if !strings.HasPrefix(rest, "//") {
		return rest, false // customscheme:/etc/x has no host: local
	}
	if !strings.EqualFold(s[:i], "file") {
		return s, true
	}
	rest = rest[2:]
	// Any host is ignored: file://otherhost/x is still opened locally by
	// most tools, and treating it as remote would be a bypass.
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		rest = rest[j:]
	} else {
		rest = "/"
	}
	if strings.IndexByte(rest, '%') >= 0 {
		if u, err := url.PathUnescape(rest); err == nil {
			rest = u
		}
	}
	// file:///C:/Users/me/.env
	if len(rest) >= 3 && rest[0] == '/' && isDrive(rest[1:]) {
		rest = rest[1:]
	}
	return rest, false
}

func isScheme(s string) bool {
	for i := 0; i < len(s); i++ {
		b := s[i]
		switch {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z':
		case i > 0 && (b >= '0' && b <= '9' || b == '+' || b == '-' || b == '.'):
		default:
			return false
		}
	}
	return true
}

// isDrive reports a drive-qualified path: `C:\` or `C:/`.
func isDrive(s string) bool {
	return len(s) >= 3 && (s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z') && s[1] == ':' && (s[2] == '\\' || s[2] == '/')
}

// isWinLike reports paths only Windows would take as absolute: drive paths
// and UNC paths written with backslashes. A relative `a\.netrc` is a POSIX
// file name with a backslash in it (often a regex), not a path.
func isWinLike(s string) bool {
	return isDrive(s) || strings.HasPrefix(s, `\\`) || (len(s) == 2 && s[1] == ':' && s[0]|0x20 >= 'a' && s[0]|0x20 <= 'z')
}

func isAbsLike(s string) bool {
	return strings.HasPrefix(s, "/") || isWinLike(s)
}

// cleanAny cleans POSIX and Windows-shaped paths into slash form. Windows
// paths keep their `C:` or `//server` prefix and get an upper-case drive.
func cleanAny(s string) (string, bool) {
	if !isWinLike(s) {
		return path.Clean(s), false
	}
	s = strings.ReplaceAll(s, `\`, "/")
	if strings.HasPrefix(s, "//") {
		rest := path.Clean("/" + strings.TrimLeft(s, "/"))
		return "/" + rest, true
	}
	drive := s[:2]
	if drive[0] >= 'a' && drive[0] <= 'z' {
		drive = string(drive[0]-32) + ":"
	}
	return drive + path.Clean("/"+s[2:]), true
}

// expandHome expands a leading `~`, `~/`, `~\` (Windows homes) and
// `~name/`. Other users' homes are guessed from the shape of Home
// (/Users/<name> on macOS, /home/<name> elsewhere, /root for root) because
// the guard must not read /etc/passwd on every hook.
func expandHome(s string, env Env) string {
	if s == "" || s[0] != '~' {
		return s
	}
	if s == "~" {
		if env.Home == "" {
			return s
		}
		return env.Home
	}
	if s[1] == '/' || (s[1] == '\\' && isWinLike(env.Home)) {
		if env.Home == "" {
			return s
		}
		return env.Home + s[1:]
	}
	end := strings.IndexAny(s, `/\`)
	if end < 0 {
		end = len(s)
	}
	name := s[1:end]
	if !isUserName(name) {
		return s
	}
	if name == "root" {
		return "/root" + s[end:]
	}
	if strings.HasPrefix(env.Home, "/Users/") {
		return "/Users/" + name + s[end:]
	}
	return "/home/" + name + s[end:]
}

func isUserName(s string) bool {
	if s == "" || len(s) > 32 {
		return false
	}
	for i := 0; i < len(s); i++ {
		b := s[i]
		if !(b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || b == '_' || b == '-' || b == '.') {
			return false
		}
	}
	return true
}

// expandToFixpoint expands until nothing changes, so that Canonical is
// idempotent even for inputs whose expansion spells a new expansion
// (`$${A-HOME}`, `${A${A--}}`). That expands more than a shell would, which
// for a guard errs on the safe side. Input that has not settled after a
// few rounds is nonsense built to confuse; it is kept literal.
func expandToFixpoint(s string, env Env) string {
	cur := s
	for range 16 {
		next := expandVars(cur, env, 0)
		if next == cur {
			return cur
		}
		cur = next
	}
	return s
}

// lookupVar returns a variable's value: HOME/USERPROFILE from Home, then
// env.Vars, then the well-known default under Home.
func lookupVar(name string, env Env) (string, bool) {
	if name == "HOME" || name == "USERPROFILE" {
		return env.Home, env.Home != ""
	}
	if v, ok := env.Vars[name]; ok && v != "" {
		return v, true
	}
	if def, ok := varDefault(name); ok && env.Home != "" {
		return env.Home + "/" + def, true
	}
	return "", false
}

// expandVars expands `$NAME`, `${NAME}` and the shell defaulting forms
// `${NAME:-word}`, `${NAME-word}`, `${NAME:=word}`, `${NAME=word}`,
// `${NAME:?msg}`, `${NAME?msg}` for variables lookupVar knows. Unknown
// variables stay literal: guessing would make paths up.
func expandVars(s string, env Env, depth int) string {
	var b strings.Builder
	last := 0
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || i+1 >= len(s) {
			continue
		}
		var name, word string
		var op byte
		end := 0
		if s[i+1] == '{' {
			close := strings.IndexByte(s[i+2:], '}')
			if close < 0 {
				continue
			}
			inner := s[i+2 : i+2+close]
			end = i + 3 + close
			n := 0
			for n < len(inner) && isNameByte(inner[n], n) {
				n++
			}
			name = inner[:n]
			rest := inner[n:]
			switch {
			case rest == "":
			case strings.HasPrefix(rest, ":") && len(rest) >= 2 && strings.IndexByte("-=?", rest[1]) >= 0:
				op, word = rest[1], rest[2:]
			case strings.IndexByte("-=?", rest[0]) >= 0:
				op, word = rest[0], rest[1:]
			default:
				continue
			}
		} else {
			n := i + 1
			for n < len(s) && isNameByte(s[n], n-i-1) {
				n++
			}
			name = s[i+1 : n]
			end = n
		}
		if name == "" {
			continue
		}
		val, ok := lookupVar(name, env)
		if !ok {
			switch op {
			case '-', '=':
				val = expandHome(word, env)
				if depth < 2 && strings.IndexByte(val, '$') >= 0 {
					val = expandVars(val, env, depth+1)
				}
			default:
				continue
			}
		}
		b.WriteString(s[last:i])
		b.WriteString(val)
		last = end
		i = end - 1
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isNameByte(b byte, pos int) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || (pos > 0 && b >= '0' && b <= '9')
}
