package initplan

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/host"
)

// TestSetPreset: the preset is set in place or appended; every other byte
// of the file stays, comments included; what is not a block mapping is
// refused rather than rewritten.
func TestSetPreset(t *testing.T) {
	for _, tc := range []struct{ name, in, want, err string }{
		{"empty", "", "preset: guard\n", ""},
		{"comment only", "# mine\n", "# mine\npreset: guard\n", ""},
		{"appended, no final newline", "audit:\n  max_mib: 50", "audit:\n  max_mib: 50\npreset: guard\n", ""},
		{"replaced, comment kept", "# top\npreset: full   # was full\naudit: {max_mib: 50}\n", "# top\npreset: guard # was full\naudit: {max_mib: 50}\n", ""},
		{"quoted", "preset: \"full\"\n", "preset: guard\n", ""},
		{"same value", "preset: guard\n", "preset: guard\n", ""},
		{"flow mapping", "{preset: full}\n", "", "not a block mapping"},
		{"a list", "- a\n", "", "not a block mapping"},
		{"a mapping as preset", "preset:\n  a: b\n", "", "not a single word"},
		{"broken", "preset: [\n", "", "not valid YAML"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := setPreset([]byte(tc.in), config.PresetGuard)
			if tc.err != "" {
				if err == nil || !contains(err.Error(), tc.err) {
					t.Fatalf("err = %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || string(got) != tc.want {
				t.Errorf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestWritePreset: a missing file is created with its folder; a file
// that already says so is not written.
func TestWritePreset(t *testing.T) {
	path := filepath.Join(t.TempDir(), ".atreides", "config.yaml")
	if err := WritePreset(path, config.PresetStandard); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || !strings.HasSuffix(string(data), "\npreset: standard\n") {
		t.Fatalf("the new file: %q, %v", data, err)
	}
	fi, _ := os.Stat(path)
	if err := os.Chmod(path, 0o444); err != nil {
		t.Fatal(err)
	}
	if err := WritePreset(path, config.PresetStandard); err != nil {
		t.Errorf("an unchanged file was written: %v", err)
	}
	if fi2, _ := os.Stat(path); !fi2.ModTime().Equal(fi.ModTime()) {
		t.Error("an unchanged file was touched")
	}
}

// TestSkip: what each preset's install leaves out; governance keeps the
// MCP server (the intent tool) in guard.
func TestSkip(t *testing.T) {
	lean := host.PartMCP | host.PartAgents | host.PartCommands
	for _, tc := range []struct {
		p    config.Preset
		gov  bool
		want host.Part
	}{
		{config.PresetGuard, false, lean},
		{config.PresetGuard, true, host.PartAgents | host.PartCommands},
		{config.PresetStandard, false, host.PartAgents | host.PartCommands},
		{config.PresetFull, false, 0},
		{config.PresetFull, true, 0},
		{"", false, 0},
	} {
		if got := Skip(tc.p, tc.gov); got != tc.want {
			t.Errorf("Skip(%q, %v) = %b, want %b", tc.p, tc.gov, got, tc.want)
		}
	}
	if _, err := ParsePreset("Minimal"); err == nil {
		t.Error("an unknown preset parsed")
	}
	if p, err := ParsePreset(" Guard "); err != nil || p != config.PresetGuard {
		t.Errorf("ParsePreset(Guard) = %q, %v", p, err)
	}
}

// TestWriteSchemaThroughLink: a repository whose .atreides holds a link
// where the schema goes (to a file of the user's) gets the schema in its
// place; the link's target is not written.
func TestWriteSchemaThroughLink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "bashrc")
	if err := os.WriteFile(victim, []byte("export PATH\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "repo", ".atreides", "config.yaml")
	if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(cfg, []byte(config.SchemaComment+"\npreset: full\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	schema := filepath.Join(filepath.Dir(cfg), config.SchemaFile)
	if err := os.Symlink(victim, schema); err != nil {
		t.Fatal(err)
	}
	if err := WritePreset(cfg, config.PresetStandard); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(victim); string(b) != "export PATH\n" {
		t.Fatalf("the link's target was written: %.60q", b)
	}
	if fi, err := os.Lstat(schema); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("schema: %v %v, want a regular file", fi, err)
	}
}

// TestWritePresetThroughLink: a repository's .atreides/config.yaml, or
// its .atreides, that is a link is refused: init neither reads nor writes
// through it, and the link's target is left as it was.
func TestWritePresetThroughLink(t *testing.T) {
	for _, link := range []string{"config.yaml", ".atreides"} {
		t.Run(link, func(t *testing.T) {
			dir := t.TempDir()
			victim := filepath.Join(dir, "victim")
			if err := os.MkdirAll(victim, 0o755); err != nil {
				t.Fatal(err)
			}
			bashrc := filepath.Join(victim, "config.yaml")
			if err := os.WriteFile(bashrc, []byte("keep: this\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			cfg := filepath.Join(dir, "repo", ".atreides", "config.yaml")
			if link == "config.yaml" {
				if err := os.MkdirAll(filepath.Dir(cfg), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(bashrc, cfg); err != nil {
					t.Fatal(err)
				}
			} else {
				if err := os.MkdirAll(filepath.Join(dir, "repo"), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.Symlink(victim, filepath.Dir(cfg)); err != nil {
					t.Fatal(err)
				}
			}
			if err := WritePreset(cfg, config.PresetStandard); err == nil {
				t.Error("init wrote through a link, want it refused")
			}
			if b, _ := os.ReadFile(bashrc); string(b) != "keep: this\n" {
				t.Fatalf("the link's target was changed: %.60q", b)
			}
			if _, err := os.Stat(filepath.Join(victim, config.SchemaFile)); err == nil {
				t.Error("the schema was written through the link")
			}
		})
	}
}
