package confined

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// tree builds base/{.atreides/{log,sub/},outside/secret} and returns base
// and the outside file, which no test may change.
func tree(t *testing.T) (base, outside string) {
	t.Helper()
	root := t.TempDir()
	base = filepath.Join(root, "project")
	outside = filepath.Join(root, "outside", "secret")
	mustMkdir(t, filepath.Join(base, ".atreides", "sub"))
	mustMkdir(t, filepath.Dir(outside))
	mustWrite(t, outside, "precious\n")
	mustWrite(t, filepath.Join(base, ".atreides", "log"), "old line\n")
	mustWrite(t, filepath.Join(base, ".atreides", "sub", "f"), "f\n")
	return base, outside
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	_ = os.RemoveAll(link)
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func unchanged(t *testing.T, outside string) {
	t.Helper()
	if b, err := os.ReadFile(outside); err != nil || string(b) != "precious\n" {
		t.Fatalf("the file outside was touched: %q, %v", b, err)
	}
}

func TestOpenFile(t *testing.T) {
	const appendFlags = os.O_WRONLY | os.O_APPEND | os.O_CREATE
	tests := []struct {
		name  string
		setup func(t *testing.T, base, outside string)
		rel   string
		flag  int
		what  string // "" = opened; else the refusal's What; "notexist" = fs.ErrNotExist
	}{
		{name: "regular file", rel: ".atreides/log", flag: appendFlags},
		{name: "regular file read", rel: ".atreides/sub/f", flag: os.O_RDONLY},
		{name: "new file created", rel: ".atreides/new", flag: appendFlags},
		{name: "missing file", rel: ".atreides/none", flag: os.O_RDONLY, what: "notexist"},
		{name: "missing directory", rel: ".atreides/nodir/f", flag: appendFlags, what: "notexist"},
		{
			name: "final link", rel: ".atreides/log", flag: appendFlags, what: "a symbolic link",
			setup: func(t *testing.T, base, outside string) {
				mustSymlink(t, outside, filepath.Join(base, ".atreides", "log"))
			},
		},
		{
			name: "final link read", rel: ".atreides/log", flag: os.O_RDONLY, what: "a symbolic link",
			setup: func(t *testing.T, base, outside string) {
				mustSymlink(t, outside, filepath.Join(base, ".atreides", "log"))
			},
		},
		{
			name: "relative link inside the base", rel: ".atreides/log", flag: appendFlags, what: "a symbolic link",
			setup: func(t *testing.T, base, _ string) { mustSymlink(t, "sub/f", filepath.Join(base, ".atreides", "log")) },
		},
		{
			name: "dangling link with O_CREATE", rel: ".atreides/log", flag: appendFlags, what: "a symbolic link",
			setup: func(t *testing.T, base, outside string) {
				mustSymlink(t, outside+".new", filepath.Join(base, ".atreides", "log"))
			},
		},
		{
			name: "state directory is a link", rel: ".atreides/log", flag: appendFlags, what: "a symbolic link",
			setup: func(t *testing.T, base, outside string) {
				mustWrite(t, filepath.Join(filepath.Dir(outside), "log"), "precious\n")
				mustSymlink(t, filepath.Dir(outside), filepath.Join(base, ".atreides"))
			},
		},
		{
			name: "middle directory is a link", rel: ".atreides/sub/f", flag: appendFlags, what: "a symbolic link",
			setup: func(t *testing.T, base, outside string) {
				mustWrite(t, filepath.Join(filepath.Dir(outside), "f"), "precious\n")
				mustSymlink(t, filepath.Dir(outside), filepath.Join(base, ".atreides", "sub"))
			},
		},
		{
			name: "link to /dev/null", rel: ".atreides/log", flag: appendFlags, what: "a symbolic link",
			setup: func(t *testing.T, base, _ string) {
				mustSymlink(t, os.DevNull, filepath.Join(base, ".atreides", "log"))
			},
		},
		{name: "directory where the file belongs", rel: ".atreides/sub", flag: os.O_RDONLY, what: "a directory"},
		{name: "directory where the file belongs, for writing", rel: ".atreides/sub", flag: appendFlags, what: "a directory"},
		{name: "file where a directory belongs", rel: ".atreides/log/x", flag: appendFlags, what: "a file, not a directory"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			base, outside := tree(t)
			if tc.setup != nil {
				tc.setup(t, base, outside)
			}
			f, err := OpenFile(base, tc.rel, tc.flag, 0o644)
			switch tc.what {
			case "":
				if err != nil {
					t.Fatalf("OpenFile: %v", err)
				}
				if tc.flag&os.O_WRONLY != 0 {
					if _, err := f.WriteString("new line\n"); err != nil {
						t.Fatal(err)
					}
				}
				_ = f.Close()
			case "notexist":
				if !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("err = %v, want not exist", err)
				}
			default:
				var re *RefusedError
				if !errors.As(err, &re) || re.What != tc.what || !errors.Is(err, ErrRefused) {
					t.Fatalf("err = %v, want refusal %q", err, tc.what)
				}
				if f != nil {
					t.Fatal("a refused file was returned")
				}
				if !strings.Contains(err.Error(), "refusing "+base) {
					t.Errorf("message does not name the path: %v", err)
				}
			}
			unchanged(t, outside)
			if _, err := os.Lstat(outside + ".new"); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("a file was created through a dangling link: %v", err)
			}
		})
	}
}

func TestTrustedBaseMayBeALink(t *testing.T) {
	base, _ := tree(t)
	link := filepath.Join(t.TempDir(), "link")
	mustSymlink(t, base, link)
	if _, err := ReadFile(link, ".atreides/log", 100); err != nil {
		t.Fatalf("a link in the base itself is the user's choice: %v", err)
	}
}

func TestReadFile(t *testing.T) {
	base, _ := tree(t)
	if b, err := ReadFile(base, ".atreides/log", 9); err != nil || string(b) != "old line\n" {
		t.Fatalf("ReadFile = %q, %v", b, err)
	}
	if _, err := ReadFile(base, ".atreides/log", 8); err == nil || !strings.Contains(err.Error(), "larger than 8 bytes") {
		t.Fatalf("a file over the bound: err = %v", err)
	}
}

func TestNamesStayBelow(t *testing.T) {
	base, _ := tree(t)
	for _, rel := range []string{"../outside/secret", "/etc/passwd", ".atreides/../../outside/secret"} {
		if _, err := OpenFile(base, rel, os.O_RDONLY, 0); err == nil {
			t.Errorf("%s: opened", rel)
		}
	}
	d, err := OpenDir(base, ".atreides")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, name := range []string{"", ".", "..", "sub/f", "../x"} {
		if _, err := d.OpenFile(name, os.O_RDONLY, 0); err == nil {
			t.Errorf("Dir.OpenFile(%q): opened", name)
		}
		if err := d.Rename("log", name); err == nil {
			t.Errorf("Dir.Rename(log, %q): renamed", name)
		}
	}
}

func TestMkdirAll(t *testing.T) {
	base, outside := tree(t)
	d, err := MkdirAll(base, "a/b/c", 0o755)
	if err != nil {
		t.Fatal(err)
	}
	_ = d.Close()
	if fi, err := os.Lstat(filepath.Join(base, "a", "b", "c")); err != nil || !fi.IsDir() {
		t.Fatalf("not created: %v", err)
	}
	mustSymlink(t, filepath.Dir(outside), filepath.Join(base, ".atreides"))
	if _, err := MkdirAll(base, ".atreides/new", 0o755); !errors.Is(err, ErrRefused) {
		t.Fatalf("MkdirAll through a link: err = %v", err)
	}
	if _, err := os.Lstat(filepath.Join(filepath.Dir(outside), "new")); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal("a directory was created through the link")
	}
}

// TestOpenRead reads a file at offsets, with its size, and refuses what
// OpenFile refuses.
func TestOpenRead(t *testing.T) {
	base, outside := tree(t)
	d, err := OpenDir(base, ".atreides")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	r, size, err := d.OpenRead("log")
	if err != nil {
		t.Fatal(err)
	}
	b := make([]byte, 4)
	if n, err := r.ReadAt(b, 4); size != 9 || n != 4 || err != nil || string(b) != "line" {
		t.Errorf("size %d, read %d %q, %v; want 9, \"line\"", size, n, b, err)
	}
	if n, err := r.ReadAt(b, 7); n != 2 || !errors.Is(err, io.EOF) {
		t.Errorf("read past the end: %d, %v", n, err)
	}
	if err := r.Close(); err != nil {
		t.Error(err)
	}
	mustSymlink(t, outside, filepath.Join(base, ".atreides", "link"))
	if _, _, err := d.OpenRead("link"); !errors.Is(err, ErrRefused) {
		t.Errorf("a link: err = %v", err)
	}
	if _, _, err := d.OpenRead("sub"); !errors.Is(err, ErrRefused) {
		t.Errorf("a directory: err = %v", err)
	}
	if _, _, err := d.OpenRead("missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing file: err = %v", err)
	}
}

// TestSub opens and creates one directory from one already open: as
// OpenDir and MkdirAll would from the base, never through a link.
func TestSub(t *testing.T) {
	base, outside := tree(t)
	d, err := OpenDir(base, ".atreides")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	if _, err := d.Sub("missing", false, 0); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing directory: err = %v", err)
	}
	made, err := d.Sub("made", true, 0o700)
	if err != nil {
		t.Fatal(err)
	}
	defer made.Close()
	if fi, err := os.Lstat(filepath.Join(base, ".atreides", "made")); err != nil || !fi.IsDir() || fi.Mode().Perm()&0o077 != 0 {
		t.Errorf("created: %v, %v", fi, err)
	}
	if made.Path("x") != filepath.Join(base, ".atreides", "made", "x") {
		t.Errorf("path %s", made.Path("x"))
	}
	if _, err := d.Sub("log", false, 0); !errors.Is(err, ErrRefused) {
		t.Errorf("a file where a directory belongs: err = %v", err)
	}
	mustSymlink(t, filepath.Dir(outside), filepath.Join(base, ".atreides", "link"))
	for _, create := range []bool{false, true} {
		if _, err := d.Sub("link", create, 0o700); !errors.Is(err, ErrRefused) {
			t.Errorf("a link (create %v): err = %v", create, err)
		}
	}
	if _, err := d.Sub("../outside", true, 0o700); err == nil {
		t.Error("a name that is not one plain name was opened")
	}
}

// TestDirOps covers what the log rotation, the state store's move-aside
// and the atomic writes need: none of them acts through a link.
func TestDirOps(t *testing.T) {
	base, outside := tree(t)
	d, err := OpenDir(base, ".atreides")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()

	// A link where the new name goes is replaced, not written through.
	mustSymlink(t, outside, d.Path("log.1"))
	if err := d.Rename("log", "log.1"); err != nil {
		t.Fatal(err)
	}
	unchanged(t, outside)
	if b, err := d.ReadFile("log.1", 100); err != nil || string(b) != "old line\n" {
		t.Fatalf("log.1 = %q, %v", b, err)
	}

	// Link never takes a name that is already a link.
	mustSymlink(t, outside, d.Path(".gitignore"))
	tmp, err := d.CreateTemp(".gitignore.tmp-*")
	if err != nil {
		t.Fatal(err)
	}
	_ = tmp.Close()
	name := filepath.Base(tmp.Name())
	if !strings.HasPrefix(name, ".gitignore.tmp-") {
		t.Fatalf("temp name %q", name)
	}
	if err := d.Link(name, ".gitignore"); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("Link over a link: %v", err)
	}
	if err := d.Remove(name); err != nil {
		t.Fatal(err)
	}
	if err := d.Sync(); err != nil {
		t.Fatal(err)
	}
	unchanged(t, outside)
}

func TestSplit(t *testing.T) {
	for _, tc := range []struct {
		path      string
		n         int
		base, rel string
	}{
		{"/p/.atreides/log", 2, "/p", filepath.Join(".atreides", "log")},
		{"/p/.atreides", 1, "/p", ".atreides"},
		{"/p/.atreides/", 1, "/p", ".atreides"},
		{"rel/.atreides", 1, "rel", ".atreides"},
	} {
		base, rel := Split(filepath.FromSlash(tc.path), tc.n)
		if base != filepath.FromSlash(tc.base) || rel != tc.rel {
			t.Errorf("Split(%q, %d) = %q, %q", tc.path, tc.n, base, rel)
		}
	}
}

func TestBaseForms(t *testing.T) {
	base, _ := tree(t)
	t.Chdir(base)
	for _, b := range []string{base, base + string(filepath.Separator), ".", ""} {
		if data, err := ReadFile(b, filepath.Join(".atreides", "log"), 100); err != nil || string(data) != "old line\n" {
			t.Errorf("base %q: %q, %v", b, data, err)
		}
	}
	if _, err := OpenDir(filepath.Join(base, ".atreides", "log"), ""); err == nil {
		t.Error("a file opened as the base directory")
	}
}

// ReplaceFile leaves the new content whole under the name and no
// temporary file, and on failure leaves the directory as it was.
func TestReplaceFile(t *testing.T) {
	base := t.TempDir()
	d, err := OpenDir(base, ".")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for _, text := range []string{"first", "second, longer"} {
		if err := d.ReplaceFile("f", []byte(text), true); err != nil {
			t.Fatal(err)
		}
		if got, err := os.ReadFile(filepath.Join(base, "f")); err != nil || string(got) != text {
			t.Fatalf("got %q, %v; want %q", got, err, text)
		}
	}
	if err := os.Mkdir(filepath.Join(base, "dir"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(base, "dir", "x"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := d.ReplaceFile("dir", []byte("x"), false); err == nil {
		t.Fatal("replaced a non-empty directory")
	}
	entries, err := os.ReadDir(base)
	if err != nil {
		t.Fatal(err)
	}
	if len(entries) != 2 {
		t.Fatalf("left behind: %v", entries)
	}
}

// TestEntries lists a directory twice through one Dir: the second listing
// must start from the top again, and both come sorted by name with the
// entries' types.
func TestEntries(t *testing.T) {
	base, _ := tree(t)
	mustWrite(t, filepath.Join(base, ".atreides", "a"), "a\n")
	d, err := OpenDir(base, ".atreides")
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	for range 2 {
		es, err := d.Entries()
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, e := range es {
			got = append(got, e.Name()+":"+strconv.FormatBool(e.Type().IsRegular()))
		}
		if want := "a:true log:true sub:false"; strings.Join(got, " ") != want {
			t.Errorf("Entries = %q, want %q", got, want)
		}
	}
}

// TestSameFile: a name is the file held open while nothing replaced it,
// moved it, put a link in its place or changed its size.
func TestSameFile(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, dir string)
		want   bool
	}{
		{"unchanged", func(*testing.T, string) {}, true},
		{"written in place", func(t *testing.T, dir string) {
			f, err := os.OpenFile(filepath.Join(dir, "log"), os.O_RDWR, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if _, err := f.WriteAt([]byte("OLD"), 0); err != nil {
				t.Fatal(err)
			}
		}, true},
		{"grown", func(t *testing.T, dir string) { mustWrite(t, filepath.Join(dir, "log"), "a longer line\n") }, false},
		{"replaced", func(t *testing.T, dir string) {
			mustWrite(t, filepath.Join(dir, "new"), "old line\n")
			if err := os.Rename(filepath.Join(dir, "new"), filepath.Join(dir, "log")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"removed", func(t *testing.T, dir string) {
			if err := os.Remove(filepath.Join(dir, "log")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"a link to it in its place", func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, "log"), filepath.Join(dir, "moved")); err != nil {
				t.Fatal(err)
			}
			mustSymlink(t, "moved", filepath.Join(dir, "log"))
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, outside := tree(t)
			d, err := OpenDir(base, ".atreides")
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			f, err := d.OpenFile("log", os.O_RDONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			fi, err := f.Stat()
			if err != nil {
				t.Fatal(err)
			}
			tt.change(t, filepath.Join(base, ".atreides"))
			if got := d.SameFile("log", fi); got != tt.want {
				t.Errorf("SameFile = %v, want %v", got, tt.want)
			}
			unchanged(t, outside)
		})
	}
}

// TestSameDir: a name is the directory held open while nothing replaced
// it or put a link in its place.
func TestSameDir(t *testing.T) {
	tests := []struct {
		name   string
		change func(t *testing.T, dir string)
		want   bool
	}{
		{"unchanged", func(*testing.T, string) {}, true},
		{"a file added", func(t *testing.T, dir string) { mustWrite(t, filepath.Join(dir, "sub", "g"), "g\n") }, true},
		{"made again", func(t *testing.T, dir string) {
			if err := os.RemoveAll(filepath.Join(dir, "sub")); err != nil {
				t.Fatal(err)
			}
			mustMkdir(t, filepath.Join(dir, "sub"))
		}, false},
		{"a link to it in its place", func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, "sub"), filepath.Join(dir, "moved")); err != nil {
				t.Fatal(err)
			}
			mustSymlink(t, "moved", filepath.Join(dir, "sub"))
		}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base, outside := tree(t)
			d, err := OpenDir(base, ".atreides")
			if err != nil {
				t.Fatal(err)
			}
			defer d.Close()
			sub, err := d.Sub("sub", false, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer sub.Close()
			fi, err := sub.Stat()
			if err != nil || !fi.IsDir() {
				t.Fatalf("Stat: %v, %v", fi, err)
			}
			tt.change(t, filepath.Join(base, ".atreides"))
			if got := d.SameFile("sub", fi); got != tt.want {
				t.Errorf("SameFile = %v, want %v", got, tt.want)
			}
			unchanged(t, outside)
		})
	}
}
