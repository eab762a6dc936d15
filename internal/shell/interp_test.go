package shell

import (
	"slices"
	"testing"
)

// TestInterpFamilies: familyOf's binary search needs the table sorted,
// one row per family; versioned names map to their family.
func TestInterpFamilies(t *testing.T) {
	for i := 1; i < len(interpFamilies); i++ {
		if interpFamilies[i-1].name >= interpFamilies[i].name {
			t.Errorf("interpFamilies: %q before %q: want strictly sorted names", interpFamilies[i-1].name, interpFamilies[i].name)
		}
	}
	for _, tc := range []struct {
		name, fam string
		code      []string
		valued    string
	}{
		{"python3.11", "python", []string{"-c"}, "WXm"},
		{"node", "node", []string{"-e", "--eval", "-p", "--print"}, "rC"},
		{"tsx", "tsx", []string{"-e", "--eval", "-p"}, ""},
		{"bun", "bun", []string{"-e", "--eval", "-p", "--print"}, "r"},
		{"irb", "irb", []string{}, ""},
		{"pypy3", "pypy", []string{"-c"}, "WXm"},
		{"bash", "", nil, ""},
		{"", "", nil, ""},
	} {
		fam := InterpFamily(tc.name)
		if fam != tc.fam || !slices.Equal(CodeFlags(fam), tc.code) || ValuedOptions(fam) != tc.valued {
			t.Errorf("%q: family %q, code %q, valued %q; want %q, %q, %q", tc.name, fam, CodeFlags(fam), ValuedOptions(fam), tc.fam, tc.code, tc.valued)
		}
	}
	if n := len(slices.Collect(Interpreters())); n != len(interpFamilies) {
		t.Errorf("Interpreters lists %d families, want %d", n, len(interpFamilies))
	}
}
