package install

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/install/installtest"
)

// Add then remove gives back the file byte for byte, whatever it ended
// with; a file AddSection created is removed; adding twice changes nothing.
func TestSectionRoundTrip(t *testing.T) {
	for name, content := range map[string]*string{
		"no file":            nil,
		"empty":              installtest.Ptr(""),
		"no final newline":   installtest.Ptr("# Rules\n\nBe kind."),
		"final newline":      installtest.Ptr("# Rules\n\nBe kind.\n"),
		"ends in blank line": installtest.Ptr("# Rules\n\n"),
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "AGENTS.md")
			if content != nil {
				if err := os.WriteFile(path, []byte(*content), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			backups := filepath.Join(dir, ".atreides", "backups")
			r, err := AddSection(path, backups)
			if err != nil || r.Action != ActionInstalled {
				t.Fatalf("add: %+v, %v", r, err)
			}
			added := string(installtest.ReadFile(t, path))
			if !strings.Contains(added, SectionText) || (content != nil && !strings.HasPrefix(added, *content)) {
				t.Errorf("added: %q", added)
			}
			if r, err := AddSection(path, backups); err != nil || r.Action != ActionUnchanged {
				t.Errorf("second add: %+v, %v", r, err)
			}
			if r, err := RemoveSection(path, backups); err != nil || r.Action != ActionRemoved {
				t.Fatalf("remove: %+v, %v", r, err)
			}
			got, err := os.ReadFile(path)
			if content == nil {
				if err == nil {
					t.Errorf("the file install created is still there: %q", got)
				}
				return
			}
			if string(got) != *content {
				t.Errorf("got %q, want %q", got, *content)
			}
			// Without the backup (edited since), the block still goes.
			if _, err := AddSection(path, ""); err != nil {
				t.Fatal(err)
			}
			if _, err := RemoveSection(path, ""); err != nil {
				t.Fatal(err)
			}
			if got := string(installtest.ReadFile(t, path)); strings.Contains(got, "atreides:begin") || !strings.HasPrefix(*content, strings.TrimRight(got, "\n")) {
				t.Errorf("without backup: %q", got)
			}
		})
	}
}
