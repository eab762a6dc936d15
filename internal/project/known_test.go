package project

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"
)

var seen0 = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

// knownHere points the registry at a fresh state home and returns the
// registry's path.
func knownHere(t *testing.T) string {
	t.Helper()
	state := filepath.Join(t.TempDir(), "state")
	t.Setenv("XDG_STATE_HOME", state)
	return filepath.Join(state, "atreides", knownName)
}

func writeKnown(t *testing.T, path string, ps []KnownProject) {
	t.Helper()
	data, _ := json.Marshal(knownFile{Projects: ps})
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func stored(t *testing.T, path string) []KnownProject {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var f knownFile
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("registry %s is not valid: %v", data, err)
	}
	return f.Projects
}

// dirs makes n project directories.
func dirs(t *testing.T, n int) []string {
	base := t.TempDir()
	var out []string
	for i := range n {
		d := filepath.Join(base, fmt.Sprint("p", i))
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
		out = append(out, d)
	}
	return out
}

func roots(ps []KnownProject) []string {
	var out []string
	for _, p := range ps {
		out = append(out, p.Root)
	}
	return out
}

func TestRemember(t *testing.T) {
	d := dirs(t, 3)
	many := make([]KnownProject, MaxKnown+5)
	for i := range many {
		many[i] = KnownProject{Root: fmt.Sprint("/gone/", i), Seen: seen0.Add(-time.Duration(i) * time.Minute)}
	}
	for _, tc := range []struct {
		name   string
		before []KnownProject // nil: no file
		root   string
		now    time.Time
		want   []KnownProject // the file after
	}{
		{"new registry", nil, d[0], seen0, []KnownProject{{d[0], seen0}}},
		{"new root goes first", []KnownProject{{d[1], seen0}}, d[0], seen0.Add(time.Minute),
			[]KnownProject{{d[0], seen0.Add(time.Minute)}, {d[1], seen0}}},
		{"seen within the hour: not written", []KnownProject{{d[0], seen0}}, d[0], seen0.Add(59 * time.Minute),
			[]KnownProject{{d[0], seen0}}},
		{"seen an hour ago: written", []KnownProject{{d[1], seen0}, {d[0], seen0}}, d[0], seen0.Add(time.Hour),
			[]KnownProject{{d[0], seen0.Add(time.Hour)}, {d[1], seen0}}},
		{"a sighting in the future (clock set back) is rewritten", []KnownProject{{d[0], seen0.Add(48 * time.Hour)}}, d[0], seen0,
			[]KnownProject{{d[0], seen0}}},
		{"one entry per root, its latest", []KnownProject{{d[1], seen0}, {d[2], seen0}, {d[1], seen0.Add(time.Minute)}}, d[0], seen0.Add(2 * time.Hour),
			[]KnownProject{{d[0], seen0.Add(2 * time.Hour)}, {d[1], seen0.Add(time.Minute)}, {d[2], seen0}}},
		{"cleaned", nil, d[0] + "/./", seen0, []KnownProject{{d[0], seen0}}},
		{"bounded to the most recently seen", many, d[0], seen0,
			append([]KnownProject{{d[0], seen0}}, many[:MaxKnown-1]...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := knownHere(t)
			if tc.before != nil {
				writeKnown(t, path, tc.before)
			}
			if err := Remember(tc.root, tc.now); err != nil {
				t.Fatal(err)
			}
			got := stored(t, path)
			if !slices.EqualFunc(got, tc.want, func(a, b KnownProject) bool { return a.Root == b.Root && a.Seen.Equal(b.Seen) }) {
				t.Errorf("registry %v, want %v", got, tc.want)
			}
			if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
				t.Errorf("registry mode %v, %v; want 0600", fi.Mode(), err)
			}
			if tmp, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".*tmp*")); len(tmp) > 0 {
				t.Errorf("temporary files left: %v", tmp)
			}
		})
	}
}

func TestRememberRefuses(t *testing.T) {
	knownHere(t)
	if err := Remember("relative/dir", seen0); err == nil {
		t.Error("a relative root was remembered")
	}
	// A link in place of atreides's directory is not written through.
	state := filepath.Join(t.TempDir(), "state")
	t.Setenv("XDG_STATE_HOME", state)
	elsewhere := t.TempDir()
	os.MkdirAll(state, 0o700)
	if err := os.Symlink(elsewhere, filepath.Join(state, "atreides")); err != nil {
		t.Fatal(err)
	}
	if err := Remember(dirs(t, 1)[0], seen0); err == nil {
		t.Error("wrote through a link")
	}
	if es, _ := os.ReadDir(elsewhere); len(es) != 0 {
		t.Errorf("wrote %v through the link", es)
	}
}

// Without an absolute XDG_STATE_HOME the registry is in ~/.local/state.
func TestRememberDefaultsToLocalState(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, xdg := range []string{"", "relative/state"} {
		t.Setenv("XDG_STATE_HOME", xdg)
		root := dirs(t, 1)[0]
		if err := Remember(root, seen0); err != nil {
			t.Fatal(err)
		}
		if got := roots(stored(t, filepath.Join(home, ".local", "state", "atreides", knownName))); got[0] != root {
			t.Errorf("XDG_STATE_HOME=%q: registry %v", xdg, got)
		}
	}
}

// A damaged registry is an error to Known and started afresh by Remember.
func TestDamagedRegistry(t *testing.T) {
	path := knownHere(t)
	os.MkdirAll(filepath.Dir(path), 0o700)
	os.WriteFile(path, []byte(`{"projects":[{"root":`), 0o600)
	if _, err := Known(); err == nil {
		t.Error("Known read a damaged registry")
	}
	root := dirs(t, 1)[0]
	if err := Remember(root, seen0); err != nil {
		t.Fatal(err)
	}
	if got := roots(stored(t, path)); !slices.Equal(got, []string{root}) {
		t.Errorf("registry %v", got)
	}
}

func TestKnown(t *testing.T) {
	path := knownHere(t)
	if ps, err := Known(); err != nil || len(ps) != 0 {
		t.Fatalf("no registry: %v, %v", ps, err)
	}
	d := dirs(t, 2)
	file := filepath.Join(t.TempDir(), "file")
	os.WriteFile(file, nil, 0o600)
	all := []KnownProject{{d[0], seen0}, {"/no/such/project", seen0.Add(time.Hour)}, {d[1], seen0.Add(2 * time.Hour)}, {file, seen0}}
	writeKnown(t, path, all)
	ps, err := Known()
	if err != nil {
		t.Fatal(err)
	}
	if got := roots(ps); !slices.Equal(got, []string{d[1], d[0]}) {
		t.Errorf("known %v, want the existing directories, most recent first", got)
	}
	if len(stored(t, path)) != len(all) {
		t.Error("Known removed projects from the file")
	}
}

// Two writers at once both get in, and the file stays valid throughout.
func TestRememberConcurrently(t *testing.T) {
	path := knownHere(t)
	d := dirs(t, 40)
	var wg sync.WaitGroup
	for w := range 2 {
		wg.Go(func() {
			for i := w; i < len(d); i += 2 {
				if err := Remember(d[i], seen0.Add(time.Duration(i)*time.Second)); err != nil {
					t.Error(err)
				}
				if _, err := Known(); err != nil {
					t.Errorf("read while writing: %v", err)
				}
			}
		})
	}
	wg.Wait()
	got := roots(stored(t, path))
	slices.Sort(got)
	want := slices.Clone(d)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("registry holds %d of %d projects", len(got), len(d))
	}
}

// BenchmarkRememberKnown is a session start's cost in a project seen
// within the hour: one read of a registry of MaxKnown projects.
func BenchmarkRememberKnown(b *testing.B) {
	state := filepath.Join(b.TempDir(), "state")
	b.Setenv("XDG_STATE_HOME", state)
	now := time.Now()
	for i := range MaxKnown {
		if err := Remember(fmt.Sprintf("/home/dev/src/project-%03d", i), now); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := Remember("/home/dev/src/project-100", now); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzSeenIn: the quick look finds a root's sighting in a registry as
// Remember writes it, whatever the root holds, and no other root's.
func FuzzSeenIn(f *testing.F) {
	f.Add("/home/dev/p", "/home/dev/p2")
	f.Add(`/a"b\c`, "/a")
	f.Fuzz(func(t *testing.T, root, other string) {
		data, err := json.Marshal(knownFile{Projects: []KnownProject{{other, seen0}, {root, seen0.Add(time.Hour)}}})
		if err != nil {
			t.Skip()
		}
		want := seen0.Add(time.Hour)
		if q1, _ := json.Marshal(root); string(q1) == string(mustJSON(other)) {
			want = seen0 // the same root once encoded: the first sighting
		}
		if at, ok := seenIn(data, root); !ok || !at.Equal(want) {
			t.Fatalf("seenIn(%s, %q) = %v, %v; want %v", data, root, at, ok, want)
		}
	})
}

func mustJSON(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}
