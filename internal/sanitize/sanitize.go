package sanitize

import (
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// CommandMax is the cap Command applies: long enough for nearly every
// command a human would read in a log, short enough that heredocs and
// generated one-liners do not swamp it.
const CommandMax = 500

// Mask replaces the secret part of a match.
const Mask = "****"

// maskRule finds secrets. The regexp has a group named "v" (the secret
// itself, replaced by Mask); everything else in the match is kept, which is
// how `ghp_`, `password=` or `https://user:` stay readable. trigger is a
// lower-case substring every match contains: rules whose trigger is absent
// cost one strings.Contains instead of a regexp scan.
type maskRule struct {
	trigger string
	re      *regexp.Regexp
	v       int // index of group "v"
}

var rules = sync.OnceValue(func() []maskRule {
	defs := []struct{ trigger, re string }{
		// PEM private key blocks, up to the END line or the end of text
		// (a truncated key is still a key).
		{"private key-----", `(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?P<v>.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$))`},
		// Credentials in URLs: scheme://user:password@host.
		{"://", `[A-Za-z][A-Za-z0-9+.-]*://[^/\s:@]*:(?P<v>[^/\s@]+)@`},
		// Authorization headers: keep the scheme word.
		{"authorization", `(?i)\bauthorization["']?\s*[:=]\s*["']?(?:(?:bearer|basic|token|bot)\s+)?(?P<v>[^\s"',;]+)`},
		// Vendor token formats, prefix kept.
		{"akia", `(?i)\b(?:AKIA|ASIA)(?P<v>[A-Z0-9]{16})\b`},
		{"gh", `\b(?:gh[pousr]_)(?P<v>[A-Za-z0-9]{20,})`},
		{"github_pat_", `\bgithub_pat_(?P<v>[A-Za-z0-9_]{20,})`},
		{"xox", `\bxox[abposr]-(?P<v>[A-Za-z0-9-]{10,})`},
		{"sk-", `\bsk-(?:ant-|proj-)?(?P<v>[A-Za-z0-9_-]{16,})`},
		{"aiza", `\bAIza(?P<v>[0-9A-Za-z_-]{30,})`},
		{"eyj", `\beyJ(?P<v>[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*)`},
		// mysql -pSECRET / -p'SECRET' (only in mysql-family commands: -p is
		// -print, -parents, a port... elsewhere).
		{"-p", `(?i)\b(?:mysql|mysqldump|mysqladmin|mysqlimport|mysqlsh|mariadb|mariadb-dump)\b[^|;&\n]*?\s-p(?P<v>'[^']*'|"[^"]*"|[^\s'"]+)`},
		// --password xyz, --token=xyz, --api-key xyz ...
		{"--", `(?i)(?:^|\s)--?(?:password|passwd|passphrase|token|auth-token|access-token|api-key|apikey|secret|client-secret)(?:=|\s+)(?P<v>'[^']*'|"[^"]*"|[^\s'"]+)`},
		// key=value / "key": "value" where the key ends in a secret word.
		// Keys must end with the word, so max_tokens and password_file are
		// not masked.
		{"", `(?i)\b[A-Za-z0-9_.-]*(?:password|passwd|passphrase|token|secret|secret_key|api_key|apikey|api-key|access_key|private_key|client_secret|credentials?)["']?\s*[:=]\s*(?P<v>"[^"]*"|'[^']*'|[^\s"'&;,]+)`},
	}
	out := make([]maskRule, len(defs))
	for i, d := range defs {
		re := regexp.MustCompile(d.re)
		out[i] = maskRule{trigger: d.trigger, re: re, v: re.SubexpIndex("v")}
	}
	return out
})

// assignmentWords gate the last (trigger-less) rule cheaply.
var assignmentWords = []string{"pass", "token", "secret", "key", "credential"}

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

// Command is String for shell commands with the CommandMax cap.
func Command(s string) string { return String(s, CommandMax) }

func maskSecrets(s string) string {
	lower := strings.ToLower(s)
	for _, r := range rules() {
		if r.trigger != "" && !strings.Contains(lower, r.trigger) {
			continue
		}
		if r.trigger == "" && !containsAny(lower, assignmentWords) {
			continue
		}
		idx := r.re.FindAllStringSubmatchIndex(s, -1)
		if idx == nil {
			continue
		}
		var b strings.Builder
		last := 0
		for _, m := range idx {
			vs, ve := m[2*r.v], m[2*r.v+1]
			if vs < 0 || ve <= vs || s[vs:ve] == Mask {
				continue
			}
			b.WriteString(s[last:vs])
			b.WriteString(Mask)
			last = ve
		}
		if last == 0 {
			continue
		}
		b.WriteString(s[last:])
		s = b.String()
		lower = strings.ToLower(s)
	}
	return s
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// unsafeRune reports runes that must not reach a log verbatim: C0/C1
// controls, DEL, and invisible format characters (bidi overrides, zero-width
// joiners, BOM) that make a log line read differently from what it holds.
func unsafeRune(r rune) bool {
	return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) || r == '\u2028' || r == '\u2029'
}

func escape(s string) string {
	clean := true
	for _, r := range s {
		if unsafeRune(r) {
			clean = false
			break
		}
	}
	if clean {
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
