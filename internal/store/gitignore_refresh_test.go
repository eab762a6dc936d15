package store

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// An older .gitignore atreides wrote gains the lines a newer atreides
// keeps; one the user wrote or edited, or a missing one, is left as is.
func TestRefreshGitignore(t *testing.T) {
	older := "# Written by atreides. Machine state that must not be committed.\n# config.yaml, intents.yaml and trace.jsonl are meant to be committed.\nstate.db\nstate.db.lock\n*.corrupt-*\nlog\n"
	edited := older + "my-notes.txt\n"
	trimmed := strings.Replace(gitignoreText, "exports/\n", "", 1) // the user commits exports
	own := "state.db\n"
	for _, tc := range []struct {
		name, before, after string
	}{
		{"older atreides file", older, gitignoreText},
		{"current file", gitignoreText, gitignoreText},
		{"edited by the user", edited, edited},
		{"a line taken away by the user", trimmed, trimmed},
		{"the user's own", own, own},
		{"missing", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), ".atreides")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, ".gitignore")
			if tc.before != "" {
				if err := os.WriteFile(path, []byte(tc.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := Open(dir).RefreshGitignore(); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if tc.after == "" {
				if !os.IsNotExist(err) {
					t.Fatalf("created %q (%v)", got, err)
				}
				return
			}
			if string(got) != tc.after {
				t.Errorf("got\n%s\nwant\n%s", got, tc.after)
			}
			left, _ := filepath.Glob(filepath.Join(dir, ".gitignore.tmp-*"))
			if len(left) > 0 {
				t.Errorf("temporary files left: %v", left)
			}
		})
	}
}

// A .gitignore that is a link is not written through.
func TestRefreshGitignoreLink(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, ".atreides")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(base, "elsewhere")
	old := "# Written by atreides. Machine state that must not be committed.\nstate.db\n"
	if err := os.WriteFile(target, []byte(old), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, filepath.Join(dir, ".gitignore")); err != nil {
		t.Fatal(err)
	}
	_ = Open(dir).RefreshGitignore()
	if got, _ := os.ReadFile(target); string(got) != old {
		t.Errorf("wrote through the link: %q", got)
	}
}

// TestRecordSetRefreshesGitignore: the first record written into an
// existing project, whose .gitignore an older atreides wrote, brings the
// .gitignore up to date at once (the record files would otherwise show in
// git status until the daily housekeeping).
func TestRecordSetRefreshesGitignore(t *testing.T) {
	older := "# Written by atreides. Machine state that must not be committed.\n# config.yaml, intents.yaml and trace.jsonl are meant to be committed.\nstate.db\nstate.db.lock\n*.corrupt-*\nlog\n"
	s, _ := newStore(t)
	if err := os.MkdirAll(s.Dir(), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(s.Dir(), ".gitignore")
	if err := os.WriteFile(path, []byte(older), 0o644); err != nil {
		t.Fatal(err)
	}
	mustUpdate(t, s, func(tx *Tx) error { return tx.PutRecord("sessions", "s", []byte("v")) })
	if got, _ := os.ReadFile(path); string(got) != gitignoreText {
		t.Errorf(".gitignore after the first record:\n%s", got)
	}
}

// currentGitignore is the digest of gitignoreText. When the text changes,
// this test fails until the old digest joins previousGitignores (so that
// projects holding it are upgraded) and this one is the new text's.
const currentGitignore = "22cd499e2d09042f9ac739d20e584f0b316162c99cea2c0c7277564b85bc3f62"

func TestGitignoreVersions(t *testing.T) {
	sum := sha256.Sum256([]byte(gitignoreText))
	got := hex.EncodeToString(sum[:])
	if got != currentGitignore {
		t.Errorf("gitignoreText changed (sha256 %s): add %s to previousGitignores and set currentGitignore", got, currentGitignore)
	}
	prev := previousGitignores()
	if slices.Contains(prev, got) {
		t.Error("the current text is listed as a previous one: it would be rewritten forever")
	}
	if !strings.HasPrefix(gitignoreText, gitignoreHeader) {
		t.Error("gitignoreText lost the header older files are recognised by")
	}
}

// EnsureGitignore (install's backups) writes a missing .gitignore,
// upgrades an older atreides's and leaves the user's.
func TestEnsureGitignore(t *testing.T) {
	older := "# Written by atreides. Machine state that must not be committed.\n# config.yaml, intents.yaml and trace.jsonl are meant to be committed.\nstate.db\nstate.db.lock\n*.corrupt-*\nlog\n"
	for _, tc := range []struct{ name, before, after string }{
		{"missing", "", gitignoreText},
		{"older atreides file", older, gitignoreText},
		{"the user's own", "state.db\n", "state.db\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), ".atreides")
			if err := os.Mkdir(dir, 0o755); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join(dir, ".gitignore")
			if tc.before != "" {
				if err := os.WriteFile(path, []byte(tc.before), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := EnsureGitignore(dir); err != nil {
				t.Fatal(err)
			}
			if got, _ := os.ReadFile(path); string(got) != tc.after {
				t.Errorf("got\n%s\nwant\n%s", got, tc.after)
			}
		})
	}
}
