package shell

import "testing"

func TestDecodeEscapes(t *testing.T) {
	cases := []struct {
		in   string
		mode EscapeMode
		want string
		stop bool
	}{
		{`\x72\x6d\x2F\x7e`, DollarQuote, "rm/~", false},
		{`\x7`, DollarQuote, "\x07", false},
		{`\xg`, DollarQuote, `\xg`, false},
		{`\162\155`, PrintfFormat, "rm", false},
		{`\0162`, PrintfArg, "r", false},
		{`\0162`, DollarQuote, "\x0e2", false},
		{`\u00e9\U0001F600`, PrintfFormat, "é😀", false},
		{`\cA`, DollarQuote, "\x01", false},
		{`ab\cd`, PrintfArg, "ab", true},
		{`\'\"`, PrintfFormat, `'"`, false},
		{`\'`, PrintfArg, `\'`, false},
	}
	for _, tc := range cases {
		got, stop := DecodeEscapes(tc.in, tc.mode)
		if got != tc.want || stop != tc.stop {
			t.Errorf("DecodeEscapes(%q, %d) = %q, %v; want %q, %v", tc.in, tc.mode, got, stop, tc.want, tc.stop)
		}
	}
	if got := Printf(`%s-%d-%x-%o-%c|%5s|%-3s|%%`, []string{"a", "'A", "255", "8", "xyz", "r", "m"}); got != "a-65-ff-10-x|    r|m  |%" {
		t.Errorf("Printf = %q", got)
	}
	if got := Printf(`%s\n`, []string{"a", "b"}); got != "a\nb\n" {
		t.Errorf("Printf reuse = %q", got)
	}
}

func TestPrintfWidthBounded(t *testing.T) {
	if got := Printf(`%999999999s|%.99999999d`, []string{"x", "1"}); len(got) > 1024 {
		t.Errorf("printf width not bounded: %d bytes", len(got))
	}
}
