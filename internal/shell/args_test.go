package shell

import (
	"slices"
	"testing"
)

func texts(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = w.Text
	}
	return out
}

func TestOptions(t *testing.T) {
	args := words("-sSLo out.txt --header=x -v -- -file url")
	if v, ok := OptValue(args, 'o', "--output"); !ok || v.Text != "out.txt" {
		t.Errorf("OptValue -o: %q %v", v.Text, ok)
	}
	if v, ok := OptValue(words("--output=a.txt"), 'o', "--output"); !ok || v.Text != "a.txt" {
		t.Errorf("OptValue --output=: %q %v", v.Text, ok)
	}
	if v, ok := OptValue(words("-oa.txt"), 'o', ""); !ok || v.Text != "a.txt" {
		t.Errorf("OptValue -oFILE: %q %v", v.Text, ok)
	}
	if _, ok := OptValue(words("-- -o x"), 'o', ""); ok {
		t.Error("OptValue read past --")
	}
	if got, want := texts(Operands(args, "o", "--header")), []string{"-file", "url"}; !slices.Equal(got, want) {
		t.Errorf("Operands = %q, want %q", got, want)
	}
	if got, want := texts(Operands(words("cp -t dir a b"), "t")), []string{"cp", "a", "b"}; !slices.Equal(got, want) {
		t.Errorf("Operands with a valued cluster = %q, want %q", got, want)
	}
	if !HasOption(words("-rf x"), "r") || HasOption(words("-- -r"), "r") || !HasOption(words("--force"), "", "--force") {
		t.Error("HasOption")
	}
	if !anyFlag(words("--fix=true"), []string{"--fix"}) || anyFlag(words("--fixed"), []string{"--fix"}) {
		t.Error("anyFlag")
	}
	if FirstOperand(words("-v run x")) != "run" || FirstOperand([]Word{dynWord(), Lit("x")}) != "" {
		t.Error("FirstOperand")
	}
}

func TestInterpreters(t *testing.T) {
	for name, fam := range map[string]string{"python3.11": "python", "pypy3": "pypy", "nodejs": "nodejs", "node": "node", "bash": "", "ruby": "ruby"} {
		if got := InterpFamily(name); got != fam {
			t.Errorf("InterpFamily(%s) = %q, want %q", name, got, fam)
		}
	}
	if !slices.Contains(CodeFlags("node"), "-e") || ValuedOptions("python") == "" || !slices.Contains(slices.Collect(Interpreters()), "perl") {
		t.Error("interpreter tables")
	}
}

func TestInPlaceAndNames(t *testing.T) {
	for args, want := range map[string]bool{"-i s/a/b/ f": true, "-i.bak x": true, "-ni p": true, "-e s/a/b/ f": false,
		"-fi script": false, "--in-place=.b f": true, "-- -i": false} {
		if got := inPlace(words(args), "ef"); got != want {
			t.Errorf("inPlace(%q) = %v, want %v", args, got, want)
		}
	}
	for in, want := range map[string]string{"/usr/bin/../bin/rm": "rm", `C:\Git\bin\GIT.EXE`: "git", "Tee": "tee"} {
		if got := NormName(in); got != want {
			t.Errorf("NormName(%q) = %q, want %q", in, got, want)
		}
	}
}
