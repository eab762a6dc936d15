package shell

import (
	"errors"
	"testing"
)

// A fake file system: /p/real is a link to /srv/real; /p/notes.txt is a
// dangling link to /p/.cfg/settings.json, which does not exist yet.
func fakeFS() (resolve, readlink func(string) (string, error)) {
	exists := map[string]string{"/": "/", "/p": "/p", "/p/real": "/srv/real", "/srv": "/srv", "/srv/real": "/srv/real", "/p/.cfg": "/p/.cfg", "/home/u": "/home/u"}
	links := map[string]string{"/p/notes.txt": ".cfg/settings.json"}
	resolve = func(p string) (string, error) {
		if r, ok := exists[p]; ok {
			return r, nil
		}
		return "", errors.New("no such file")
	}
	readlink = func(p string) (string, error) {
		if t, ok := links[p]; ok {
			return t, nil
		}
		return "", errors.New("not a link")
	}
	return resolve, readlink
}

func TestPathsCanon(t *testing.T) {
	resolve, readlink := fakeFS()
	always := func(int) bool { return true }
	for _, tc := range []struct {
		s, cwd string
		known  bool
		want   string
	}{
		{"a/../b.txt", "/p", true, "/p/b.txt"},
		{"~/x", "/p", true, "/home/u/x"},
		{"real/f", "/p", true, "/srv/real/f"},
		{"notes.txt", "/p", true, "/p/.cfg/settings.json"}, // the dangling link is followed
		{"/abs", "", false, "/abs"},
		{"rel", "", false, ""}, // relative in an unknown directory
	} {
		p := NewPaths("/home/u", resolve, readlink)
		got, ok := p.Canon(tc.s, tc.cwd, tc.known, always)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Canon(%q in %q) = %q %v, want %q", tc.s, tc.cwd, got, ok, tc.want)
		}
	}
	// Without budget the dangling link is not read.
	p := NewPaths("/home/u", resolve, readlink)
	if got, _ := p.Canon("notes.txt", "/p", true, func(int) bool { return false }); got != "/p/notes.txt" {
		t.Errorf("out of budget: %q", got)
	}
	// A link the command creates is followed by the paths after it, and
	// an answer worked out before it is dropped.
	p = NewPaths("/home/u", resolve, readlink)
	if got, _ := p.Canon("cfg/config.yaml", "/p", true, always); got != "/p/cfg/config.yaml" {
		t.Fatalf("before the link: %q", got)
	}
	p.Link("/p/cfg", "/p/.atreides")
	if got, _ := p.Canon("cfg/config.yaml", "/p", true, always); got != "/p/.atreides/config.yaml" {
		t.Errorf("after the link: %q", got)
	}
	// Without a resolver paths are only cleaned.
	bare := NewPaths("", nil, nil)
	if got, _ := bare.Canon("./x/../y", "/q", true, always); got != "/q/y" {
		t.Errorf("no resolver: %q", got)
	}
}
