package shell

import (
	"strings"
	"testing"
)

func TestDecodeEscapes(t *testing.T) {
	cases := []struct {
		in   string
		mode escMode
		want string
		stop bool
	}{
		{`\x72\x6d\x2F\x7e`, escDollar, "rm/~", false},
		{`\x7`, escDollar, "\x07", false},
		{`\xg`, escDollar, `\xg`, false},
		{`\162\155`, escFormat, "rm", false},
		{`\0162`, escArg, "r", false},
		{`\0162`, escDollar, "\x0e2", false},
		{`\u00e9\U0001F600`, escFormat, "é😀", false},
		{`\cA`, escDollar, "\x01", false},
		{`ab\cd`, escArg, "ab", true},
		{`\'\"`, escFormat, `'"`, false},
		{`\'`, escArg, `\'`, false},
	}
	for _, tc := range cases {
		got, stop := decodeEscapes(tc.in, tc.mode)
		if got != tc.want || stop != tc.stop {
			t.Errorf("decodeEscapes(%q, %d) = %q, %v; want %q, %v", tc.in, tc.mode, got, stop, tc.want, tc.stop)
		}
	}
	if got := printfText(`%s-%d-%x-%o-%c|%5s|%-3s|%%`, []string{"a", "'A", "255", "8", "xyz", "r", "m"}); got != "a-65-ff-10-x|    r|m  |%" {
		t.Errorf("printfText = %q", got)
	}
	if got := printfText(`%s\n`, []string{"a", "b"}); got != "a\nb\n" {
		t.Errorf("printfText reuse = %q", got)
	}
}

func TestPrintfWidthBounded(t *testing.T) {
	if got := printfText(`%999999999s|%.99999999d`, []string{"x", "1"}); len(got) > 1024 {
		t.Errorf("printf width not bounded: %d bytes", len(got))
	}
}

// FuzzEscapes: the escape decoder and printf never panic (the guard would
// hide a panic), and a text without a backslash decodes to itself.
func FuzzEscapes(f *testing.F) {
	for _, s := range []string{`\x72\x6d -rf ~`, `%b\0162%c%.2s`, `\u`, `\U0010FFFF\uD800`, `%`, `\`, `\c`, `%999999999s`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, m := range []escMode{escDollar, escFormat, escArg} {
			out, _ := decodeEscapes(s, m)
			if !strings.Contains(s, `\`) && out != s {
				t.Fatalf("decodeEscapes(%q, %d) = %q, want the text itself", s, m, out)
			}
		}
		printfText(s, []string{s, "'x", "12"})
	})
}
