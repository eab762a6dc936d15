package shell

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// listing is a Recorder that writes down every call.
type listing struct{ calls []string }

func (l *listing) add(format string, args ...any) {
	l.calls = append(l.calls, fmt.Sprintf(format, args...))
}

func (l *listing) Wrote(c *Command, w Word, what string) {
	l.add("wrote %s in %s by %s", w.Display(), c.Scope.Cwd, what)
}
func (l *listing) WroteContent(c *Command, w Word, what string) {
	l.add("content %s by %s", w.Display(), what)
}
func (l *listing) UnknownWrite(why string, certain bool, _ string) {
	l.add("unknown %v: %s", certain, why)
}
func (l *listing) Changed(what string)     { l.add("changed %s", what) }
func (l *listing) Tree(_ *Command, w Word) { l.add("tree %s", w.Text) }
func (l *listing) Link(_ *Command, target, link Word, intoDir bool) {
	l.add("link %s -> %s %v", link.Text, target.Text, intoDir)
}
func (l *listing) Landed(_ *Command, dst Word, srcs []Landing, recursive bool) {
	l.add("landed %d in %s %v", len(srcs), dst.Text, recursive)
}
func (l *listing) Copied(_ *Command, src, dst Word) { l.add("copied %s %s", src.Text, dst.Text) }
func (l *listing) Extracted(_ *Command, dir *Word, what string) {
	d := "."
	if dir != nil {
		d = dir.Text
	}
	l.add("extracted into %s by %s", d, what)
}
func (l *listing) ExtractsAnywhere(*Command)       { l.add("anywhere") }
func (l *listing) DeletesUnder(_ *Command, w Word) { l.add("deletes under %s", w.Text) }

func TestWriters(t *testing.T) {
	for _, tc := range []struct {
		cmd  string
		want []string
	}{
		{"rm -rf a b", []string{"wrote a in /p by rm", "tree a", "wrote b in /p by rm", "tree b"}},
		{"cp -r x y", []string{"content y by cp", "copied x y", "landed 1 in y true"}},
		{"ln -s t", []string{"wrote t in /p by ln", "link t -> t false"}},
		{"git -C sub checkout -- f", []string{"changed git checkout", "wrote f in /p/sub by git checkout"}},
		{"git status", nil},
		{"tar -xzf a.tgz -C out", []string{"wrote out in /p by tar -x", "extracted into out by tar -x"}},
		{"tar -xPf a.tar", []string{"unknown true: tar -P extracts members to the paths they name", "anywhere"}},
		{"find . -name x -delete", []string{"deletes under .", "unknown true: find -delete removes the matches under ."}},
		{"sed -i s/a/b/ f g", []string{"content f by sed -i", "content g by sed -i"}},
		{"sed s/a/b/ f", nil},
		{"gofmt -l .", nil},
		{"gofmt -w x.go", []string{"wrote x.go in /p by gofmt -w"}},
	} {
		f := strings.Fields(tc.cmd)
		c := &Command{Name: f[0], Args: words(strings.Join(f[1:], " ")), Scope: NewScope("/p")}
		w := WriterOf(c.Name)
		if w == nil {
			t.Fatalf("no writer for %s", c.Name)
		}
		var l listing
		w(&l, c, "/home/u")
		if !slices.Equal(l.calls, tc.want) {
			t.Errorf("%s:\n got %q\nwant %q", tc.cmd, l.calls, tc.want)
		}
	}
	if WriterOf("ls") != nil || WriterOf("curl") != nil {
		t.Error("a writer for a program shell does not model")
	}
}
