package shell

import (
	"fmt"
	"strconv"
	"strings"
)

// escMode selects which backslash escapes a decoder honours. The three
// places that decode share one decoder and differ only where bash does.
type escMode uint8

const (
	// escDollar: bash $'...' (\cX is a control character).
	escDollar escMode = iota
	// escFormat: the format of printf(1); \c ends the output.
	escFormat
	// escArg: printf's %b arguments and echo -e; \0NNN takes up to three
	// octal digits after the 0, \c ends the output.
	escArg
)

// ANSIC decodes bash $'...' escapes.
func ANSIC(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	out, _ := decodeEscapes(s, escDollar)
	return out
}

// decodeEscapes decodes every backslash escape of s; stop reports a \c
// that ends the output (printf, echo -e).
func decodeEscapes(s string, m escMode) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			b.WriteByte(s[i])
			i++
			continue
		}
		next, stop := escapeAt(&b, s, i, m)
		if stop {
			return b.String(), true
		}
		i = next
	}
	return b.String(), false
}

// escapeAt decodes the escape that starts at s[i] (a backslash), writes
// its value to b and returns the index after it. All hex digits count in
// \xHH (one or two), \uHHHH (up to four) and \UHHHHHHHH (up to eight);
// octal takes up to three digits.
func escapeAt(b *strings.Builder, s string, i int, m escMode) (next int, stop bool) {
	if i+1 >= len(s) {
		b.WriteByte('\\')
		return i + 1, false
	}
	c := s[i+1]
	j := i + 2
	switch c {
	case 'n':
		b.WriteByte('\n')
	case 't':
		b.WriteByte('\t')
	case 'r':
		b.WriteByte('\r')
	case 'a':
		b.WriteByte(7)
	case 'b':
		b.WriteByte(8)
	case 'e', 'E':
		b.WriteByte(27)
	case 'f':
		b.WriteByte(12)
	case 'v':
		b.WriteByte(11)
	case '\\':
		b.WriteByte('\\')
	case '\'', '"', '?':
		if m == escArg {
			b.WriteByte('\\') // echo -e and %b keep these backslashes
		}
		b.WriteByte(c)
	case 'x':
		n, k := digits(s, j, 2, 16)
		if k == j {
			b.WriteString(`\x`)
			return j, false
		}
		b.WriteByte(byte(n))
		j = k
	case 'u', 'U':
		width := 4
		if c == 'U' {
			width = 8
		}
		n, k := digits(s, j, width, 16)
		if k == j || n > 0x10FFFF {
			b.WriteString("\uFFFD")
		} else {
			b.WriteRune(rune(n))
		}
		j = k
	case 'c':
		if m != escDollar {
			return j, true
		}
		if j < len(s) {
			b.WriteByte(s[j] & 0x1f)
			j++
		}
	default:
		if c < '0' || c > '7' {
			b.WriteByte('\\')
			b.WriteByte(c)
			break
		}
		start, width := i+1, 3
		if m == escArg && c == '0' {
			start = i + 2 // \0NNN
		}
		n, k := digits(s, start, width, 8)
		b.WriteByte(byte(n))
		j = max(k, i+2)
	}
	return j, false
}

// digits reads up to width digits of the base from s[i:].
func digits(s string, i, width, base int) (uint64, int) {
	var n uint64
	k := i
	for k < len(s) && k < i+width {
		d := digitVal(s[k])
		if d < 0 || d >= base {
			break
		}
		n = n*uint64(base) + uint64(d)
		k++
	}
	return n, k
}

func digitVal(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// printfText formats like printf(1): escapes in the format, %b arguments
// decoded like echo -e, %s/%c/%d/%o/%x/%X/%u with flags, width and
// precision, and the format reused while arguments remain.
func printfText(format string, rest []string) string {
	var b strings.Builder
	for pass := 0; pass < 64; pass++ {
		consumed := 0
		next := func() (string, bool) {
			if consumed < len(rest) {
				consumed++
				return rest[consumed-1], true
			}
			consumed++
			return "", false
		}
		for i := 0; i < len(format); {
			ch := format[i]
			if ch == '\\' {
				k, stop := escapeAt(&b, format, i, escFormat)
				if stop {
					return b.String()
				}
				i = k
				continue
			}
			if ch != '%' || i+1 >= len(format) {
				b.WriteByte(ch)
				i++
				continue
			}
			j := i + 1
			for j < len(format) && strings.IndexByte("-+ #0123456789.", format[j]) >= 0 {
				j++
			}
			if j >= len(format) {
				b.WriteString(format[i:])
				break
			}
			spec, verb := clampSpec(format[i+1:j]), format[j]
			i = j + 1
			if verb == '%' {
				b.WriteByte('%')
				continue
			}
			arg, _ := next()
			switch verb {
			case 'b':
				s, stop := decodeEscapes(arg, escArg)
				b.WriteString(fmt.Sprintf("%"+spec+"s", s))
				if stop {
					return b.String()
				}
			case 's', 'q':
				b.WriteString(fmt.Sprintf("%"+spec+"s", arg))
			case 'c':
				if arg != "" {
					b.WriteByte(arg[0])
				}
			case 'd', 'i', 'o', 'x', 'X', 'u':
				n := printfNumber(arg)
				v := verb
				if v == 'i' || v == 'u' {
					v = 'd'
				}
				b.WriteString(fmt.Sprintf("%"+spec+string(v), n))
			}
		}
		if consumed == 0 || consumed >= len(rest) {
			break
		}
		rest = rest[consumed:]
	}
	return b.String()
}

// printfNumber reads a printf numeric argument: decimal, 0x hex, 0 octal,
// or 'c / "c for the character's code.
func printfNumber(s string) int64 {
	if len(s) >= 2 && (s[0] == '\'' || s[0] == '"') {
		return int64([]rune(s[1:])[0])
	}
	n, err := strconv.ParseInt(strings.TrimSpace(s), 0, 64)
	if err != nil {
		return 0
	}
	return n
}

// clampSpec bounds the width and precision of a printf conversion so
// that a hostile `%999999999s` cannot make the guard allocate.
func clampSpec(spec string) string {
	var b strings.Builder
	for i := 0; i < len(spec); {
		if spec[i] < '0' || spec[i] > '9' {
			b.WriteByte(spec[i])
			i++
			continue
		}
		j := i
		for j < len(spec) && spec[j] >= '0' && spec[j] <= '9' {
			j++
		}
		if n, err := strconv.Atoi(spec[i:j]); err != nil || n > 256 {
			b.WriteString("256")
		} else {
			b.WriteString(spec[i:j])
		}
		i = j
	}
	return b.String()
}
