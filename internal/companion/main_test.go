package companion

import (
	"context"
	"errors"
	"flag"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/buildinfo"
)

// TestMainVersion: a companion answers --version with its own name and
// the build, exits 0, and does not run. Main exits the process, so it
// runs in a child: this test binary again, told by the environment.
func TestMainVersion(t *testing.T) {
	if os.Getenv("COMPANION_MAIN_TEST") == "1" {
		os.Args = []string{"atreides-x", "--version"}
		Main(flag.NewFlagSet("atreides-x", flag.ContinueOnError), "atreides x", func(context.Context, string) error {
			return errors.New("ran instead of printing the version")
		})
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestMainVersion$")
	cmd.Env = append(os.Environ(), "COMPANION_MAIN_TEST=1")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("--version: %v\n%s", err, out)
	}
	if got, want := strings.TrimSpace(string(out)), buildinfo.SummaryOf("atreides-x"); got != want {
		t.Errorf("--version printed %q, want %q", got, want)
	}
}
