package guard

import "testing"

// TestFileServerRoot: static file servers serving /, a home or a system
// directory, beside the same servers serving the project.
func TestFileServerRoot(t *testing.T) {
	cases := []struct {
		cmd  string
		want Verdict
		rule string
	}{
		{"python3 -m http.server 8000 --directory ~", Deny, "access.public"},
		{"python3 -m http.server 8000 --directory dist", Allow, ""},
		{"python3 -m http.server 8000", Allow, ""},
		{"python3 -m http.server --bind 127.0.0.1 --directory /etc", Ask, "access.grant"},
		{"php -S 0.0.0.0:8000 -t /", Deny, "access.public"},
		{"php -S localhost:8000 -t public", Allow, ""},
		{"npx http-server ~ -p 8080", Deny, "access.public"},
		{"npx http-server ./build -p 8080", Allow, ""},
	}
	for _, tc := range cases {
		got := check(t, DefaultPolicy(), tc.cmd)
		if got.Verdict != tc.want || tc.rule != "" && got.Rule != tc.rule {
			t.Errorf("%q = %s %s (%s), want %s %s", tc.cmd, got.Verdict, got.Rule, got.Evidence, tc.want, tc.rule)
		}
	}
}
