package guard

import "testing"

// TestHexPackages: Hex owners added, archives from outside Hex,
// retiring and staging-repository releases, with their reads.
func TestHexPackages(t *testing.T) {
	cases := []struct {
		cmd  string
		want Verdict
		rule string
	}{
		{"mix hex.owner add app_core someone@example.com", Ask, "access.grant"},
		{"mix hex.owner list app_core", Allow, ""},
		{"mix archive.install github someuser/some_tools --force", Ask, "supply.outside-source"},
		{"mix archive.install git https://example.com/tools.git", Ask, "supply.outside-source"},
		{"mix archive.install hex phx_new", Allow, ""},
		{`mix hex.retire app_core 1.2.0 security --message "fixed in 1.2.1"`, Ask, "publish.package"},
		{"mix hex.info app_core", Allow, ""},
		{"mvn nexus-staging:release", Ask, "publish.package"},
		{"mvn package", Allow, ""},
	}
	for _, tc := range cases {
		got := check(t, DefaultPolicy(), tc.cmd)
		if got.Verdict != tc.want || tc.rule != "" && got.Rule != tc.rule {
			t.Errorf("%q = %s %s (%s), want %s %s", tc.cmd, got.Verdict, got.Rule, got.Evidence, tc.want, tc.rule)
		}
	}
}
