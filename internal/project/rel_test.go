package project

import "testing"

func TestRel(t *testing.T) {
	for _, tt := range []struct {
		root, cwd, p, want string
		ok                 bool
	}{
		{"/p", "", "/p/a/b.go", "a/b.go", true},
		{"/p", "", "/p", ".", true},
		{"/p", "/p/a", "b.go", "a/b.go", true},
		{"/p", "", "b.go", "b.go", true},
		{"/p", "/p/a", "../../x", "", false},
		{"/p", "", "/p/../q/x", "", false},
		{"/p", "", "/pq/x", "", false},
		{"/p", "", "/p/..a", "..a", true},
		{"", "", "/p/x", "", false},
		{"/p", "", "", "", false},
	} {
		if got, ok := Rel(tt.root, tt.cwd, tt.p); got != tt.want || ok != tt.ok {
			t.Errorf("Rel(%q, %q, %q) = %q, %v; want %q, %v", tt.root, tt.cwd, tt.p, got, ok, tt.want, tt.ok)
		}
	}
}
