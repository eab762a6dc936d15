package codex

import (
	"bytes"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/install"
	"github.com/rogpeppe/go-internal/txtar"
)

const testCodexBin = "/opt/bin/atreides"

// TestCodexConfigGolden runs each testdata/codexmcp case: config.toml is
// the file read; installed is what install writes (error: what it refuses
// with); removed is what uninstall leaves of config.toml (absent: the
// file as it was).
func TestCodexConfigGolden(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "codexmcp", "*.txtar"))
	if len(files) == 0 {
		t.Fatal("no cases")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			a, err := txtar.ParseFile(file)
			if err != nil {
				t.Fatal(err)
			}
			sec := map[string][]byte{}
			for _, f := range a.Files {
				sec[f.Name] = f.Data
			}
			src := sec["config.toml"]
			c, err := parseConfig("config.toml", src)
			if err != nil {
				if want, ok := sec["error"]; !ok || !strings.Contains(err.Error(), strings.TrimSpace(string(want))) {
					t.Fatalf("parse: %v", err)
				}
				return
			}
			out, action, err := c.install(testCodexBin)
			if want, ok := sec["error"]; ok {
				if err == nil || !strings.Contains(err.Error(), strings.TrimSpace(string(want))) {
					t.Errorf("install: %v, want an error with %q", err, want)
				}
			} else if err != nil {
				t.Fatalf("install: %v", err)
			} else {
				if action == install.ActionUnchanged {
					out = src
				}
				if want := sec["installed"]; string(out) != string(want) {
					t.Errorf("installed:\n%s\nwant:\n%s", out, want)
				}
				again, _ := parseConfig("config.toml", out)
				if _, a2, err := again.install(testCodexBin); a2 != install.ActionUnchanged || err != nil {
					t.Errorf("install twice: %s, %v", a2, err)
				}
				if c.server == nil {
					if back, err := again.uninstall(); err != nil || string(back) != string(src) {
						t.Errorf("uninstall after install: %v\n%q\nwant\n%q", err, back, src)
					}
				}
			}
			removed, err := c.uninstall()
			if err != nil {
				t.Fatalf("uninstall: %v", err)
			}
			if removed == nil {
				removed = src // nothing of ours: not written
			}
			want, ok := sec["removed"]
			if !ok {
				want = src
			}
			if string(removed) != string(want) {
				t.Errorf("removed:\n%s\nwant:\n%s", removed, want)
			}
		})
	}
}

// TestCodexConfigLayouts: CRLF line endings are kept and a file without a
// final newline gets exactly that back on uninstall.
func TestCodexConfigLayouts(t *testing.T) {
	for _, tt := range []struct{ name, src, installed string }{
		{"crlf", "a = 1\r\n[t]\r\nb = 2\r\n", "a = 1\r\n[t]\r\nb = 2\r\n\r\n[mcp_servers.atreides]\r\ncommand = \"/opt/bin/atreides\"\r\nargs = [\"mcp\", \"--host\", \"codex\"]\r\n"},
		{"no final newline", "a = 1", "a = 1\n[mcp_servers.atreides]\ncommand = \"/opt/bin/atreides\"\nargs = [\"mcp\", \"--host\", \"codex\"]\n"},
		{"crlf, no final newline", "a = 1\r\nb = 2", "a = 1\r\nb = 2\r\n[mcp_servers.atreides]\r\ncommand = \"/opt/bin/atreides\"\r\nargs = [\"mcp\", \"--host\", \"codex\"]\r\n"},
		{"blank lines at the end", "a = 1\n\n\n", "a = 1\n\n\n\n[mcp_servers.atreides]\ncommand = \"/opt/bin/atreides\"\nargs = [\"mcp\", \"--host\", \"codex\"]\n"},
		{"comment last, no newline", "a = 1 # c", "a = 1 # c\n[mcp_servers.atreides]\ncommand = \"/opt/bin/atreides\"\nargs = [\"mcp\", \"--host\", \"codex\"]\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := roundTrip(t, []byte(tt.src))
			if string(got) != tt.installed {
				t.Errorf("installed %q\nwant      %q", got, tt.installed)
			}
		})
	}
}

// roundTrip installs into src, checks the result and that uninstall
// gives src back, and returns the installed text.
func roundTrip(t *testing.T, src []byte) []byte {
	t.Helper()
	c, err := parseConfig("config.toml", src)
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	out, action, err := c.install(testCodexBin)
	if err != nil || action != install.ActionInstalled {
		t.Fatalf("install: %s, %v", action, err)
	}
	again, err := parseConfig("config.toml", out)
	if err != nil {
		t.Fatalf("installed text does not parse: %v\n%s", err, out)
	}
	if !again.ours || again.server["command"] != testCodexBin {
		t.Fatalf("installed text has no server of ours: %v\n%s", again.server, out)
	}
	back, err := again.uninstall()
	if err != nil {
		t.Fatalf("uninstall: %v", err)
	}
	if !bytes.Equal(back, src) {
		t.Fatalf("uninstall gave\n%q\nwant\n%q", back, src)
	}
	return out
}

// FuzzCodexConfig: for any text that parses as TOML without a server named
// atreides, install then uninstall gives the text back byte for byte, and
// the installed text parses and has our server (or install refuses, with
// nothing written); text that does not parse is refused with file:line.
func FuzzCodexConfig(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "codexmcp", "*.txtar"))
	for _, file := range files {
		a, err := txtar.ParseFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, s := range a.Files {
			f.Add(s.Data)
			f.Add(bytes.ReplaceAll(s.Data, []byte("\n"), []byte("\r\n")))
			f.Add(bytes.TrimSuffix(s.Data, []byte("\n")))
		}
	}
	f.Add([]byte("x = nan\n"))
	f.Add([]byte("a = \"\"\"\nmulti\n\"\"\"\n[[arr]]\nb = 1\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		c, err := parseConfig("config.toml", src)
		if err != nil {
			var te *TOMLError
			var se *install.ShapeError
			switch {
			case errors.As(err, &te):
				if te.Line < 1 || !strings.HasPrefix(err.Error(), "config.toml:") {
					t.Fatalf("parse error without a position: %v", err)
				}
			case errors.As(err, &se):
			default:
				t.Fatalf("unexpected parse error: %v", err)
			}
			return
		}
		if c.server != nil {
			if c.ours {
				if out, err := c.uninstall(); err == nil && out != nil {
					if after, err := parseConfig("config.toml", out); err != nil || after.server != nil {
						t.Fatalf("uninstall left %v, %v:\n%q", after, err, out)
					}
				}
			}
			return
		}
		out, action, err := c.install(testCodexBin)
		if err != nil {
			return // refused: nothing is written
		}
		if action != install.ActionInstalled {
			t.Fatalf("action %s", action)
		}
		again, err := parseConfig("config.toml", out)
		if err != nil || !again.ours {
			t.Fatalf("installed text: %v, ours %v\n%q", err, again != nil && again.ours, out)
		}
		back, err := again.uninstall()
		if err != nil || !bytes.Equal(back, src) {
			t.Fatalf("uninstall after install: %v\n%q\nwant\n%q", err, back, src)
		}
	})
}
