package guard

import "testing"

// TestEscapes: commands assembled through every escape form are judged as
// what they spell; printing the same text is allowed.
func TestEscapes(t *testing.T) {
	cases := []struct {
		cmd  string
		want Verdict
	}{
		// printf format: hex with digits 8-9 and a-f (\x6d is m).
		{`printf '\x72\x6d -rf ~' | bash`, Deny},
		{`printf '\x72\x6d\x20\x2d\x72\x66\x20\x7e' | sh`, Deny},
		{`$(printf '\x62\x61\x73\x68') -c 'rm -rf ~'`, Deny},
		{`printf '\162\155 -rf ~' | sh`, Deny},
		{`printf '\u0072\u006d -rf ~' | sh`, Deny},
		{`printf '\U00000072\U0000006d -rf ~' | sh`, Deny},
		{`printf '\x72\x6d -rf ~'`, Allow},
		{`$(printf '\x62\x61\x73\x68') -c 'echo hi'`, Allow},
		{`printf '\x66\x6f\x6f\n'`, Allow},
		// printf %b: \0NNN, \NNN, \x, \u.
		{`printf '%b' '\0162\0155 -rf ~' | sh`, Deny},
		{`printf '%b' '\162\155 -rf ~' | sh`, Deny},
		{`printf '%b' '\x72\x6d -rf ~' | sh`, Deny},
		{`printf '%b\n' '\u0072\u006d -rf ~' | sh`, Deny},
		{`printf '%b\n' '\0162\0155 -rf ~'`, Allow},
		// other conversions and printf -v
		{`printf '%c%c -rf ~' rx mx | sh`, Deny},
		{`printf '%.2s -rf ~' rmxx | sh`, Deny},
		{`printf "\\$(printf %o "'r")\\$(printf %o "'m") -rf ~" | bash`, Deny},
		{`printf -v c '\x72\x6d'; $c -rf ~`, Deny},
		{`printf -v c '\x6c\x73'; $c -la`, Allow},
		{`printf 'ls\c rm -rf ~' | sh`, Allow}, // \c ends the output
		// echo -e
		{`echo -e '\x72\x6d -rf ~' | sh`, Deny},
		{`echo -e '\0162\0155 -rf ~' | sh`, Deny},
		{`echo -e '\u0072\u006d -rf ~' | sh`, Deny},
		{`$(echo -ne '\x72\x6d') -rf ~`, Deny},
		{`echo -e '\x72\x6d -rf ~'`, Allow},
		{`echo -eE '\x72\x6d -rf ~' | sh`, Allow}, // -E cancels -e
		{`echo -e 'ls\c rm -rf ~' | sh`, Allow},
		// $'...'
		{`$'\x72\x6d' -rf ~`, Deny},
		{`$'\162\155' -rf ~`, Deny},
		{`$'\u0072\u006d' -rf ~`, Deny},
		{`$'\U00000072\U0000006d' -rf ~`, Deny},
		{`bash -c $'\x72\x6d -rf ~'`, Deny},
		{`echo $'\x72\x6d -rf ~'`, Allow},
	}
	p := DefaultPolicy()
	for _, tc := range cases {
		if got := check(t, p, tc.cmd); got.Verdict != tc.want {
			t.Errorf("%s: got %v (%s), want %v", tc.cmd, got.Verdict, got.Rule, tc.want)
		}
	}
}

// FuzzTextHelpers: the call scanners of inline code must not panic on
// any input (Check would hide a panic); shell's FuzzEscapes covers the
// escape decoder and printf.
func FuzzTextHelpers(f *testing.F) {
	for _, s := range []string{`\x72\x6d -rf ~`, `%b\0162%c%.2s`, `f("a", [1, (2)], 'b')`, `%x(rm -rf ~) qx{ls}`, `open F, ">$ENV{HOME}/x" or die`, `\u`, `%`, `\`, `(`, `)`, `qx(`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for i := range min(len(s), 8) {
			callArgs(s, i)
			receiver(s, i)
		}
		quotedCommands(reQuotedCommand.get().FindAllStringSubmatchIndex(newCodeText(s), -1), s)
		(&Request{Home: "/home/u"}).argPath(s)
	})
}
