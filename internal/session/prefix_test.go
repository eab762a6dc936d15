package session

import "testing"

func TestPrefixed(t *testing.T) {
	const p = "Muad'Dib"
	for in, want := range map[string]string{
		"Done.":                          "[Muad'Dib]: Done.",
		"[Muad'Dib]: Done.":              "[Muad'Dib]: Done.",
		"  [Muad'Dib]:Done.":             "[Muad'Dib]: Done.",
		"[Muad'Dib]: [Muad'Dib]: Done.":  "[Muad'Dib]: Done.",
		"**[Muad'Dib]:** Done.":          "[Muad'Dib]: Done.",
		"**[Muad'Dib]**: Done.":          "[Muad'Dib]: Done.",
		"\n\n[Muad'Dib]: Line\nnext":     "[Muad'Dib]: Line\nnext",
		"[Stilgar]: not ours to rewrite": "[Muad'Dib]: [Stilgar]: not ours to rewrite",
		"   ":                            "   ",
		"":                               "",
	} {
		if got := Prefixed(in, p); got != want {
			t.Errorf("Prefixed(%q) = %q, want %q", in, got, want)
		}
	}
	if got := Prefixed("x", ""); got != "x" {
		t.Errorf("no persona: %q", got)
	}
}
