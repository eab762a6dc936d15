package work

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
)

// TestConfirm: only "y" or "yes" runs a command the guard asks about; the
// question names the command and why it is asked. A stdin that is no
// terminal gets no question at all.
func TestConfirm(t *testing.T) {
	for answer, want := range map[string]bool{"y\n": true, " YES \n": true, "yes": true, "n\n": false, "\n": false, "": false, "yes please\n": false} {
		var errOut bytes.Buffer
		io := &command.IO{Process: hook.Process{In: strings.NewReader(answer), Err: &errOut}}
		if got := confirm(io, "npm publish", errors.New("it needs the user's confirmation (publish.package): publishing")); got != want {
			t.Errorf("answer %q: confirmed %v, want %v", answer, got, want)
		}
		if q := errOut.String(); !strings.Contains(q, "`npm publish`: it needs the user's confirmation (publish.package)") || !strings.HasSuffix(q, "run it? [y/N] ") {
			t.Errorf("question %q", q)
		}
	}
	if confirmAtTerminal(&command.IO{Process: hook.Process{In: strings.NewReader("y\n")}}) != nil {
		t.Error("a stdin that is no terminal was asked")
	}
}
