package sanitize

import (
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
	"unsafe"
)

// CommandMax is the cap Command applies: long enough for nearly every
// command a human would read in a log, short enough that heredocs and
// generated one-liners do not swamp it.
const CommandMax = 500

// String returns s made safe for one log field: secrets masked, control
// and format characters escaped (`\n`, `\t`, `\r`, `\xNN`, `\uNNNN`) so the
// field stays on one line, invalid UTF-8 replaced, and the result capped at
// max bytes plus a `…(+N bytes)` marker (N counts the escaped bytes cut).
// max <= 0 means no cap.
func String(s string, max int) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	s = maskSecrets(s)
	s = escape(s)
	return capLen(s, max)
}

// Printable is s with its control and format characters escaped as
// String escapes them, and nothing else changed (no secret is masked, no
// cap): for text a terminal shows, where an escape sequence in a title
// an agent wrote (a todo, a task) would drive the user's terminal, set
// its clipboard or redraw what it shows.
func Printable(s string) string {
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	return escape(s)
}

// Command is String for shell commands with the CommandMax cap. The
// last command's result is kept: one event's command is logged by
// several writers (the session's history, the audit trail), and masking
// a megabyte command costs tens of milliseconds each time.
func Command(s string) string {
	lastCommand.Lock()
	// The same bytes in memory are the same string: strings are
	// immutable, so comparing where they are is enough.
	hit := len(s) == len(lastCommand.in) && unsafe.StringData(s) == unsafe.StringData(lastCommand.in)
	out := lastCommand.out
	lastCommand.Unlock()
	if hit {
		return out
	}
	// Masked without the lock: serve masks the commands of several
	// requests at once.
	out = String(s, CommandMax)
	lastCommand.Lock()
	lastCommand.in, lastCommand.out = s, out
	lastCommand.Unlock()
	return out
}

var lastCommand struct {
	sync.Mutex
	in, out string
}

// unsafeRune reports runes that must not reach a log verbatim: C0/C1
// controls, DEL, and invisible format characters (bidi overrides, zero-width
// joiners, BOM) that make a log line read differently from what it holds.
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

func escape(s string) string {
	if isClean(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for _, r := range s {
		if !unsafeRune(r) {
			b.WriteRune(r)
			continue
		}
		switch r {
		case '\n':
			b.WriteString(`\n`)
		case '\t':
			b.WriteString(`\t`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x100 {
				b.WriteString(`\x`)
				if r < 0x10 {
					b.WriteByte('0')
				}
				b.WriteString(strconv.FormatInt(int64(r), 16))
			} else {
				b.WriteString(`\u`)
				h := strconv.FormatInt(int64(r), 16)
				b.WriteString(strings.Repeat("0", max(0, 4-len(h))))
				b.WriteString(h)
			}
		}
	}
	return b.String()
}

// isClean reports text without unsafe runes; printable ASCII, nearly all
// of what is logged, is checked a byte at a time.
func isClean(s string) bool {
	for i := 0; i < len(s); {
		if c := s[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if unsafeRune(r) {
			return false
		}
		i += n
	}
	return true
}

// capLen cuts s to at most max bytes on a rune boundary and appends the
// marker. The marker always fits in MarkerMax bytes.
func capLen(s string, max int) string {
	if max <= 0 || len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…(+" + strconv.Itoa(len(s)-cut) + " bytes)"
}

// MarkerMax bounds the length of the truncation marker: String's output is
// at most max+MarkerMax bytes.
const MarkerMax = len("…(+") + 19 + len(" bytes)")
