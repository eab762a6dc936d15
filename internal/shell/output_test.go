package shell

import "testing"

func TestOutputs(t *testing.T) {
	for _, tc := range []struct {
		name string
		got  Feed
		want string
	}{
		{"echo a b", EchoOutput(words("a b")), "a b\n"},
		{"echo -n a", EchoOutput(words("-n a")), "a"},
		{`echo -e a\tb`, EchoOutput(words(`-e a\tb`)), "a\tb\n"},
		{"printf %s-%s x y", PrintfOutput(words("%s-%s x y"), nil), "x-y"},
	} {
		if !tc.got.Known || tc.got.Text != tc.want {
			t.Errorf("%s: %+v, want %q", tc.name, tc.got, tc.want)
		}
	}
	if f := EchoOutput([]Word{Lit("a"), dynWord()}); f.Known || f.Taint&TaintUnknown == 0 {
		t.Errorf("echo of an unknown word: %+v", f)
	}
	sc := NewScope("/p")
	if f := PrintfOutput(words("-v X %s val"), sc); f.Known || sc.Vars["X"].Text != "val" {
		t.Errorf("printf -v: %+v, X=%q", f, sc.Vars["X"].Text)
	}
	if s, ok := DecodeBase64("aGVs\nbG8="); !ok || s != "hello" {
		t.Errorf("DecodeBase64: %q %v", s, ok)
	}
	if s, ok := Tr("hello", "a-z", "A-Z"); !ok || s != "HELLO" {
		t.Errorf("Tr: %q %v", s, ok)
	}
	if _, ok := Tr("x", "[:lower:]", "[:upper:]"); ok {
		t.Error("Tr took a class it does not model")
	}
	if ReverseLines("ab\ncd\n") != "ba\ndc\n" || !IsName("_a1") || IsName("1a") || IsName("") {
		t.Error("ReverseLines or IsName")
	}
}
