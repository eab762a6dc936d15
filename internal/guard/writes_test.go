package guard

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestShellWrites(t *testing.T) {
	cwd := t.TempDir()
	os.Mkdir(filepath.Join(cwd, "dir"), 0o755)
	j := func(p ...string) string { return filepath.Join(append([]string{cwd}, p...)...) }
	cases := []struct {
		cmd     string
		paths   []string
		unknown bool
	}{
		{"echo hi > a.txt", []string{j("a.txt")}, false},
		{"echo hi >> 'b c.txt' 2>&1", []string{j("b c.txt")}, false},
		{"cat x | tee -a out.log other.log >/dev/null", []string{j("out.log"), j("other.log")}, false},
		{"sed -i 's/a/b/' f.go g.go", []string{j("f.go"), j("g.go")}, false},
		{"sed -i.bak -e s/a/b/ f.go", []string{j("f.go")}, false},
		{"sed 's/a/b/' f.go", nil, false},
		{"perl -pi -e 's/a/b/' f.pl", []string{j("f.pl")}, false},
		{"cp a.go b.go", []string{j("b.go")}, false},
		{"cp a.go b.go dir", []string{j("dir/a.go"), j("dir/b.go")}, false},
		{"mv old.go new.go", []string{j("new.go"), j("old.go")}, false},
		{"rm -rf build out.txt", []string{j("build"), j("out.txt")}, false},
		{"touch x && mkdir -p y/z", []string{j("x"), j("y/z")}, false},
		{"cd dir && echo > f", []string{j("dir/f")}, false},
		{"(cd dir; echo > f); echo > g", []string{j("dir/f"), j("g")}, false},
		{"bash -c 'echo x > inner.txt'", []string{j("inner.txt")}, false},
		{"echo $(echo y > sub.txt)", []string{j("sub.txt")}, false},
		{"dd if=/dev/zero of=disk.img", []string{j("disk.img")}, false},
		{"git checkout -- a.go", []string{j("a.go")}, false},
		{"git restore --source HEAD b.go", []string{j("b.go")}, false},
		{"git rm --cached c.go", nil, false},
		{"git apply fix.patch", nil, true},
		{"git checkout main", nil, true},
		{"git reset --hard", nil, true},
		{"echo > $OUT", nil, true},
		{"ls -la; cat a.go; grep -r x .", nil, false},
		{"echo x > /dev/null", nil, false},
		{"sudo tee /etc/hosts", []string{"/etc/hosts"}, false},
		{"go test ./...", nil, false},
	}
	for _, c := range cases {
		w := ShellWrites(c.cmd, cwd, "/home/u")
		if !slices.Equal(w.Paths, c.paths) {
			t.Errorf("%q: paths %q, want %q", c.cmd, w.Paths, c.paths)
		}
		if (len(w.Unknown) > 0) != c.unknown {
			t.Errorf("%q: unknown %q, want unknown=%v", c.cmd, w.Unknown, c.unknown)
		}
	}
}
