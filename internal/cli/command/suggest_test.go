package command

import "testing"

func TestClosest(t *testing.T) {
	flags := []string{"session", "since", "verdict", "rule", "host", "json", "stats"}
	for _, tc := range []struct{ name, want string }{
		{"sesion", "session"}, {"verdcit", "verdict"}, {"jsno", "json"}, {"sess", "session"},
		{"stat", "stats"}, {"x", ""}, {"frobnicate", ""},
	} {
		got := Closest(tc.name, flags)
		if (tc.want == "" && len(got) > 0) || (tc.want != "" && (len(got) == 0 || got[0] != tc.want)) {
			t.Errorf("Closest(%q) = %q, want first %q", tc.name, got, tc.want)
		}
	}
}
