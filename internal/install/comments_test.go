package install

import "testing"

func TestStripJSONComments(t *testing.T) {
	for in, want := range map[string]string{
		`{"a": "//x"} // c`:        `{"a": "//x"}     `,
		"{/* a\nb */\"k\": 1}":     "{    \n    \"k\": 1}",
		`{"a": "\"/*"} /*x*/`:      `{"a": "\"/*"}      `,
		`{"u": "http://x"}`:        `{"u": "http://x"}`,
		"// only\n{}":              "       \n{}",
		`{"s": "a\\"} // trailing`: `{"s": "a\\"}            `,
	} {
		if got := string(stripJSONComments([]byte(in))); got != want {
			t.Errorf("strip(%q) = %q, want %q", in, got, want)
		}
	}
}
