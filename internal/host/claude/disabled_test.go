package claude

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/install"
)

// TestDisableAllHooks: disableAllHooks in any settings file switches
// every hook off; doctor's line is a problem when atreides is installed
// in one of the files, a note when not, and absent when nothing says so.
func TestDisableAllHooks(t *testing.T) {
	dir := t.TempDir()
	installed := filepath.Join(dir, "settings.json")
	if _, err := Install(InstallOptions{SettingsPath: installed, BinaryPath: "atreides"}); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, local string
		withHooks   bool
		want        string // "" for no line
	}{
		{"not set", `{}`, true, ""},
		{"false", `{"disableAllHooks": false}`, true, ""},
		{"true beside our hooks", `{"disableAllHooks": true}`, true, host.Problem},
		{"true with nothing installed", `{"disableAllHooks": true}`, false, host.Note},
	} {
		t.Run(tc.name, func(t *testing.T) {
			local := filepath.Join(t.TempDir(), "settings.local.json")
			if err := os.WriteFile(local, []byte(tc.local), 0o644); err != nil {
				t.Fatal(err)
			}
			var found []install.Status
			if tc.withHooks {
				st, err := Inspect(installed)
				if err != nil {
					t.Fatal(err)
				}
				found = append(found, st)
			}
			st, err := Inspect(local)
			if err != nil {
				t.Fatal(err)
			}
			found = append(found, st)
			got := host.DisabledCheck(Host, found)
			switch {
			case tc.want == "" && len(got) != 0:
				t.Errorf("got %+v, want no line", got)
			case tc.want != "" && (len(got) != 1 || got[0].Status != tc.want || !strings.Contains(got[0].Detail, "disableAllHooks is true")):
				t.Errorf("got %+v, want one %s line", got, tc.want)
			}
		})
	}
}
