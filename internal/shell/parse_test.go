package shell

import "testing"

func TestShapeCountsNesting(t *testing.T) {
	for _, tc := range []struct {
		src   string
		depth int
	}{
		{"ls", 0},
		{"(ls)", 1},
		{"echo $(echo $(ls))", 2},
		{`echo "$(echo "$(ls)")"`, 4},
		{"if true; then while x; do :; done; fi", 2},
		{"case x in (a) echo;; b) (ls);; esac", 2},
		{"echo 'if if if ((('", 0},
		{"echo if while (", 1},
		{"cat <<EOF\n((((\nEOF\nls", 0},
		{"cat <<'A' <<B\n(((\nA\n{{{\nB\n(", 1},
		{"echo ${a:-${b:-$(ls)}}", 3},
		{"echo `ls`; echo \"`ls`\"", 2},
		{"a=1 # (((( \nls", 0},
		{"echo a#((", 2},
	} {
		s := scanner{src: tc.src, cmdStart: true}
		if s.scan(); s.depth != tc.depth {
			t.Errorf("scan of %q: depth %d, want %d", tc.src, s.depth, tc.depth)
		}
	}
}
