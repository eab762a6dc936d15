//go:build unix

package config

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
)

// TestConfigFilesAreRegular reproduces a FIFO (or a link, or a device) put
// where a config file belongs: Load must answer at once with an error that
// names the file, never block, and never read through a project link.
func TestConfigFilesAreRegular(t *testing.T) {
	const valid = "audit: {max_mib: 7}\n"
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, root, user string) Paths
		want  string // in the error; "" = loads, with max_mib 7
	}{
		{"project FIFO", func(t *testing.T, root, user string) Paths {
			p := filepath.Join(root, ".atreides", "config.yaml")
			mkfifo(t, p)
			return Paths{User: user, Project: p}
		}, "refusing %ROOT%/.atreides/config.yaml: it is a named pipe (FIFO)"},
		{"user FIFO", func(t *testing.T, root, user string) Paths {
			mkfifo(t, user)
			return Paths{User: user, Project: filepath.Join(root, ".atreides", "config.yaml")}
		}, "refusing %USER%: it is a named pipe (FIFO)"},
		{"user link to a FIFO", func(t *testing.T, root, user string) Paths {
			fifo := filepath.Join(root, "fifo")
			mkfifo(t, fifo)
			symlink(t, fifo, user)
			return Paths{User: user}
		}, "refusing %ROOT%/fifo: it is a named pipe (FIFO)"},
		{"project link to a valid file", func(t *testing.T, root, user string) Paths {
			p := filepath.Join(root, ".atreides", "config.yaml")
			write(t, filepath.Join(root, "elsewhere.yaml"), valid)
			symlink(t, filepath.Join(root, "elsewhere.yaml"), p)
			return Paths{User: user, Project: p}
		}, "refusing %ROOT%/.atreides/config.yaml: it is a symbolic link"},
		{"project link to /dev/zero", func(t *testing.T, root, user string) Paths {
			p := filepath.Join(root, ".atreides", "config.yaml")
			symlink(t, "/dev/zero", p)
			return Paths{User: user, Project: p}
		}, "refusing %ROOT%/.atreides/config.yaml: it is a symbolic link"},
		{"project state directory is a link", func(t *testing.T, root, user string) Paths {
			other := filepath.Join(root, "other")
			write(t, filepath.Join(other, "config.yaml"), valid)
			if err := os.Remove(filepath.Join(root, ".atreides")); err != nil {
				t.Fatal(err)
			}
			symlink(t, other, filepath.Join(root, ".atreides"))
			return Paths{User: user, Project: filepath.Join(root, ".atreides", "config.yaml")}
		}, "refusing %ROOT%/.atreides: it is a symbolic link"},
		{"user link to a valid file (dotfile managers)", func(t *testing.T, root, user string) Paths {
			write(t, filepath.Join(root, "dotfiles.yaml"), valid)
			symlink(t, filepath.Join(root, "dotfiles.yaml"), user)
			return Paths{User: user}
		}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			if err := os.Mkdir(filepath.Join(root, ".atreides"), 0o755); err != nil {
				t.Fatal(err)
			}
			user := filepath.Join(t.TempDir(), "config.yaml")
			p := tc.plant(t, root, user)
			if !p.Exist() {
				t.Fatal("Exist: false; the hook would skip loading")
			}
			var (
				c   *Config
				err error
			)
			done := make(chan struct{})
			go func() { defer close(done); c, err = Load(p) }()
			select {
			case <-done:
			case <-time.After(5 * time.Second):
				t.Fatal("Load blocked")
			}
			if tc.want == "" {
				if err != nil || c.Audit.MaxMiB != 7 {
					t.Fatalf("Load = %v, %v", c, err)
				}
				return
			}
			want := strings.NewReplacer("%ROOT%", root, "%USER%", user).Replace(tc.want)
			if !errors.Is(err, confined.ErrRefused) || !strings.Contains(err.Error(), want) {
				t.Fatalf("Load error = %v\nwant one containing %q", err, want)
			}
		})
	}
}

// TestDanglingProjectLinkCounts: a project link to nothing is not "no
// file": Exist sees it and Load refuses it.
func TestDanglingProjectLinkCounts(t *testing.T) {
	root := t.TempDir()
	p := Paths{Project: filepath.Join(root, ".atreides", "config.yaml")}
	if err := os.Mkdir(filepath.Dir(p.Project), 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(root, "nothing"), p.Project)
	if !p.Exist() {
		t.Fatal("Exist: false")
	}
	if _, err := Load(p); !errors.Is(err, confined.ErrRefused) {
		t.Fatalf("Load error = %v, want a refusal", err)
	}
}

func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func write(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}
