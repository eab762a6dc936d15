package sanitize

import "strings"

// Long random-looking words that no rule names are keys more often than
// not: API keys are hex or base64 strings without a telling prefix.
// maskTokens masks them whole, with two exceptions that keep logs useful.
//
//   - Hex of exactly 40 or 64 digits is kept: those are the lengths of
//     SHA-1 and SHA-256 digests, which commands and logs are full of (git
//     object ids in `git show <sha>`, sha256sum output, container ids,
//     the sha256:… hashes atreides writes in its trace). A key of those
//     lengths is still masked when a key word or option names it
//     (TOKEN=…, --secret …, Authorization: …); only a bare one is kept.
//     Every other hex word of 32 digits or more is masked (md5-length
//     API keys are common, md5 sums in a log are not worth a leak).
//   - A digest named by its algorithm (sha512:…, md5=…, h1:…,
//     sha384-… in package locks) is kept at any length.
//
// Base64-ish words (letters, digits, + / _ -) of at least 40 characters
// are masked when they mix upper case, lower case and digits the way
// random text does: at least 40% of neighbouring letters and digits
// change class. Identifiers (TestStringMasksSecrets2) and paths
// (Documents/Projects2024/MyRepo) change class far less often, and
// lower-case-only words (UUIDs, package names, paths) never qualify.
const (
	minHex        = 32
	minBase64     = 40
	minChangesPct = 40
)

func maskTokens(s string) string {
	var spans [][2]int
	for i := 0; i < len(s); {
		if !isTokenByte(s[i]) {
			i++
			continue
		}
		j := i + 1
		for j < len(s) && isTokenByte(s[j]) {
			j++
		}
		if j-i >= minHex && !digestNamed(s, i) {
			spans = tokenSpans(s, i, j, spans)
		}
		i = j
	}
	if spans == nil {
		return s
	}
	return replaceSpans(s, spans)
}

// tokenSpans appends what to mask in the word s[i:j]: all of it if it
// looks like base64, else its long hex parts.
func tokenSpans(s string, i, j int, spans [][2]int) [][2]int {
	if j-i >= minBase64 && looksRandom(s[i:j]) {
		return append(spans, [2]int{i, j})
	}
	for a := i; a < j; {
		if !isHex(s[a]) {
			a++
			continue
		}
		b := a + 1
		for b < j && isHex(s[b]) {
			b++
		}
		standalone := (a == i || !isAlnum(s[a-1])) && (b == j || !isAlnum(s[b]))
		if n := b - a; standalone && n >= minHex && n != 40 && n != 64 && !digestNamed(s, a) {
			spans = append(spans, [2]int{a, b})
		}
		a = b
	}
	return spans
}

// looksRandom reports a word that mixes upper case, lower case and digits
// with frequent changes of class between neighbours.
func looksRandom(w string) bool {
	var upper, lower, digit, pairs, changes int
	prev := byte(0)
	for i := 0; i < len(w); i++ {
		c := charClass(w[i])
		switch c {
		case 'U':
			upper++
		case 'l':
			lower++
		case 'd':
			digit++
		}
		if c != 0 && prev != 0 {
			pairs++
			if c != prev {
				changes++
			}
		}
		prev = c
	}
	return upper > 0 && lower > 0 && digit > 0 && changes*100 >= minChangesPct*pairs
}

// digestNamed reports a word at s[i:] that names its hash algorithm:
// `sha512:<hex>`, `md5=<hex>`, `h1:<base64>`, or `sha384-<base64>` (the
// name inside the word).
func digestNamed(s string, i int) bool {
	if i > 0 && (s[i-1] == ':' || s[i-1] == '=' || s[i-1] == '-') {
		k := i - 1
		for k > 0 && isAlnum(s[k-1]) {
			k--
		}
		if isDigestName(s[k : i-1]) {
			return true
		}
	}
	if d := strings.IndexByte(s[i:min(len(s), i+12)], '-'); d > 0 {
		return isDigestName(s[i : i+d])
	}
	return false
}

func isDigestName(w string) bool {
	switch strings.ToLower(w) {
	case "sha1", "sha224", "sha256", "sha384", "sha512", "sha3", "md5",
		"blake2b", "blake2s", "blake3", "xxh3", "xxh64", "xxh128", "crc32", "h1":
		return true
	}
	return false
}

func charClass(c byte) byte {
	switch {
	case 'A' <= c && c <= 'Z':
		return 'U'
	case 'a' <= c && c <= 'z':
		return 'l'
	case '0' <= c && c <= '9':
		return 'd'
	}
	return 0
}

func isAlnum(c byte) bool { return charClass(c) != 0 }

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// isTokenByte: the characters of base64 (standard and URL-safe) without
// the padding, which would glue `KEY=value` into one word.
func isTokenByte(c byte) bool {
	return isAlnum(c) || c == '+' || c == '/' || c == '_' || c == '-'
}
