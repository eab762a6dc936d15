package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestStringMasks(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain", "git status", "git status"},
		{"aws key", "export AWS_ACCESS_KEY_ID=AKIAIOSFODNN7EXAMPLE", "export AWS_ACCESS_KEY_ID=AKIA****"},
		{"aws secret", "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "aws_secret_access_key = ****"},
		{"github classic", "git clone https://x/y ghp_abcdefghijklmnopqrstuvwxyz0123456789", "git clone https://x/y ghp_****"},
		{"github oauth", "gho_16C7e42F292c6912E7710c838347Ae178B4a", "gho_****"},
		{"github fine-grained", "github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz", "github_pat_****"},
		{"slack", "curl -d token=xoxb-123456789012-abcdefghijkl", "curl -d token=****"},
		{"slack bare", "xoxp-123456789012-abcdefghijkl", "xoxp-****"},
		{"anthropic", "ANTHROPIC_KEY sk-ant-api03-abcdefghijklmnopqrstuvwx", "ANTHROPIC_KEY sk-ant-****"},
		{"openai", "key sk-proj-abcdefghijklmnopqrstuvwx", "key sk-proj-****"},
		{"google", "AIzaSyA1234567890abcdefghijklmnopqrstu", "AIza****"},
		{"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJ****"},
		{"bearer", `curl -H "Authorization: Bearer abc.def-123" https://api`, `curl -H "Authorization: Bearer ****" https://api`},
		{"basic", "authorization=Basic dXNlcjpwYXNz", "authorization=Basic ****"},
		{"url creds", "git clone https://user:hunter2@github.com/o/r", "git clone https://user:****@github.com/o/r"},
		{"url no creds", "curl https://example.com:8443/x", "curl https://example.com:8443/x"},
		{"password assign", "PASSWORD=hunter2 ./run", "PASSWORD=**** ./run"},
		{"json password", `{"password": "hunter2", "user": "bob"}`, `{"password": ****, "user": "bob"}`},
		{"yaml token", "github_token: abc123", "github_token: ****"},
		{"api key", "api_key='s3cr3t value'", "api_key=****"},
		{"flag password", "psql --password hunter2 -h db", "psql --password **** -h db"},
		{"flag token eq", "gh --token=abc123 api", "gh --token=**** api"},
		{"mysql -p", "mysql -u root -phunter2 db", "mysql -u root -p**** db"},
		{"mysql -p quoted", "mysqldump -u r -p'a b' db", "mysqldump -u r -p**** db"},
		{"mkdir -p untouched", "mkdir -p build && find . -print", "mkdir -p build && find . -print"},
		{"max_tokens untouched", "max_tokens=100 password_file=/run/pw", "max_tokens=100 password_file=/run/pw"},
		{"grep password untouched", "grep -i password config.yml", "grep -i password config.yml"},
		{"private key", "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk\n-----END OPENSSH PRIVATE KEY-----\nafter",
			`-----BEGIN OPENSSH PRIVATE KEY-----****\nafter`},
		{"truncated private key", "-----BEGIN RSA PRIVATE KEY-----\nMIIEow", "-----BEGIN RSA PRIVATE KEY-----****"},
		{"public key untouched", "-----BEGIN PUBLIC KEY-----", "-----BEGIN PUBLIC KEY-----"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in, 0); got != tt.want {
				t.Errorf("String(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestStringEscapesAndCaps(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		want     string
	}{
		{"newline tab cr", "a\nb\tc\rd", 0, `a\nb\tc\rd`},
		{"ansi", "\x1b[31mred\x1b[0m", 0, `\x1b[31mred\x1b[0m`},
		{"nul del", "a\x00b\x7f", 0, `a\x00b\x7f`},
		{"c1", "a\u0085b", 0, `a\x85b`},
		{"bidi override", "x\u202eevil", 0, `x\u202eevil`},
		{"zero width", "a\u200bb\ufeff", 0, `a\u200bb\ufeff`},
		{"line separator", "a\u2028b", 0, `a\u2028b`},
		{"invalid utf8", "a\xffb", 0, "a\uFFFDb"},
		{"unicode kept", "héllo ✓", 0, "héllo ✓"},
		{"no cap needed", "abc", 3, "abc"},
		{"cap", "abcdef", 3, "abc…(+3 bytes)"},
		{"cap on rune boundary", "ééé", 3, "é…(+4 bytes)"},
		{"cap counts escapes", "a\nbc", 2, `a\…(+3 bytes)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := String(tt.in, tt.max); got != tt.want {
				t.Errorf("String(%q, %d) = %q, want %q", tt.in, tt.max, got, tt.want)
			}
		})
	}
}

func TestCommand(t *testing.T) {
	long := "echo " + strings.Repeat("x", 1000)
	got := Command(long)
	if !strings.HasPrefix(got, "echo xxx") || !strings.HasSuffix(got, "…(+505 bytes)") {
		t.Errorf("Command(long) = …%q", got[len(got)-30:])
	}
	if got := Command("cat .env | curl -H 'Authorization: token ghp_abcdefghijklmnopqrstuvwxyz012345' x"); strings.Contains(got, "abcdef") {
		t.Errorf("token leaked: %q", got)
	}
}

// The masking must not depend on the cap: a secret cut in half by the cap
// must not have its visible half printed.
func TestMaskBeforeCap(t *testing.T) {
	in := "x ghp_abcdefghijklmnopqrstuvwxyz0123456789"
	for max := 1; max < len(in); max++ {
		if got := String(in, max); strings.Contains(got, "abcdefghij") {
			t.Fatalf("max %d leaked: %q", max, got)
		}
	}
}

func TestNoAllocCleanInput(t *testing.T) {
	String("git status --short", 500) // compile the rules outside the measurement
	if n := testing.AllocsPerRun(100, func() { String("go test ./...", 500) }); n > 1 {
		t.Errorf("clean input: %.0f allocs", n)
	}
}

func FuzzString(f *testing.F) {
	for _, s := range []string{"", "a\nb", "\x1b[0m", "password=x", "ghp_abcdefghijklmnopqrstuvwxyz0123",
		"-----BEGIN PRIVATE KEY-----\nabc", "https://u:p@h", "\xff\xfe", "é\u202e", "mysql -pX"} {
		f.Add(s, 10)
	}
	f.Fuzz(func(t *testing.T, s string, max int) {
		max %= 1000
		out := String(s, max)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8: %q", out)
		}
		if max > 0 && len(out) > max+MarkerMax {
			t.Fatalf("len %d > %d+%d", len(out), max, MarkerMax)
		}
		for _, r := range out {
			if unsafeRune(r) {
				t.Fatalf("unsafe rune %U in %q", r, out)
			}
		}
	})
}

func BenchmarkCommand(b *testing.B) {
	cmds := []string{
		"git status --short",
		"curl -sS -H 'Authorization: Bearer abcdef123456' https://api.example.com/v1/items?limit=10 | jq .",
		"PGPASSWORD=hunter2 psql -h db -U app -c 'select 1'\nexit",
		strings.Repeat("echo build step; ", 60),
	}
	Command(cmds[0])
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		Command(cmds[i%len(cmds)])
	}
}

// TestCommandRemembersOnlyTheSameString: the kept result is given back
// for the very same string only, never for another one of equal length.
func TestCommandRemembersOnlyTheSameString(t *testing.T) {
	a := "echo ghp_" + strings.Repeat("a", 36)
	b := "echo hello-" + strings.Repeat("b", 34)
	for i, s := range []string{a, a, b, a, strings.Clone(a), "", b} {
		if got, want := Command(s), String(s, CommandMax); got != want {
			t.Errorf("%d: Command(%q) = %q, want %q", i, s, got, want)
		}
	}
}
