package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// readmeFiles are the file lists of the README's fenced blocks whose info
// string is "files preset=P", by preset.
func readmeFiles(t *testing.T) map[string][]string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(moduleRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	var cur string
	in := false
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case !in && strings.HasPrefix(line, "```files preset="):
			cur, in = strings.TrimPrefix(line, "```files preset="), true
			out[cur] = []string{}
		case in && line == "```":
			in = false
		case in:
			out[cur] = append(out[cur], line)
		}
	}
	return out
}

func moduleRoot(t *testing.T) string {
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
}

// created lists every file under dir as the README does: relative, with
// prefix, and each file of a backups folder as the folder ("…/backups/").
func created(t *testing.T, dir, prefix string, skip ...string) []string {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if slices.Contains(skip, rel) {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		rel = prefix + filepath.ToSlash(rel)
		if i := strings.Index(rel, "/backups/"); i >= 0 {
			rel = rel[:i+len("/backups/")]
		}
		if !slices.Contains(out, rel) {
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(out)
	return out
}

// TestInitWritesWhatTheReadmeSays: in a scratch git project with a
// scratch HOME, 'atreides init --preset P --yes claude' creates exactly
// the files the README lists for P, and the list init printed before
// applying (--json's files) is that list too.
func TestInitWritesWhatTheReadmeSays(t *testing.T) {
	want := readmeFiles(t)
	for _, p := range []string{"guard", "standard", "full"} {
		t.Run(p, func(t *testing.T) {
			lines, ok := want[p]
			if !ok {
				t.Fatalf("README.md has no block ```files preset=%s", p)
			}
			root := t.TempDir()
			proj, home, bin := filepath.Join(root, "proj"), filepath.Join(root, "home"), filepath.Join(root, "bin")
			for _, d := range []string{proj, home, bin} {
				if err := os.MkdirAll(d, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			// atreides and atreides-mcp on PATH, as a release installs them.
			for _, n := range []string{"atreides", "atreides-mcp"} {
				if err := os.WriteFile(filepath.Join(bin, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
					t.Fatal(err)
				}
			}
			if out, err := exec.Command("git", "init", "-q", proj).CombinedOutput(); err != nil {
				t.Fatalf("git init: %v\n%s", err, out)
			}
			t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
			t.Setenv("HOME", home)
			t.Setenv("XDG_CONFIG_HOME", "")
			t.Setenv("XDG_STATE_HOME", "")
			t.Setenv("CLAUDE_PROJECT_DIR", "")
			t.Chdir(proj)
			var stdout, stderr bytes.Buffer
			if code := Main([]string{"atreides", "init", "--preset", p, "--yes", "--json", "claude"}, strings.NewReader(""), &stdout, &stderr); code != 0 {
				t.Fatalf("init exited %d: %s", code, stderr.String())
			}
			got := append(created(t, proj, "", ".git"), created(t, home, "~/")...)
			slices.Sort(got)
			slices.Sort(lines)
			if !slices.Equal(got, lines) {
				t.Errorf("init --preset %s created\n  %s\nthe README lists\n  %s", p, strings.Join(got, "\n  "), strings.Join(lines, "\n  "))
			}
			var doc struct {
				Files []struct{ Path string } `json:"files"`
			}
			if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
				t.Fatal(err)
			}
			var listed []string
			for _, f := range doc.Files {
				listed = append(listed, f.Path)
			}
			slices.Sort(listed)
			if !slices.Equal(listed, got) {
				t.Errorf("init listed\n  %s\nbut created\n  %s", strings.Join(listed, "\n  "), strings.Join(got, "\n  "))
			}
		})
	}
}
