package export

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/view"
	"github.com/atreides-dev/atreides/internal/view/viewtest"
)

// TestExportAgreesWithStatus: the export and status read one model, so
// for a session with open todos (its own and one added at a terminal), a
// pending strike and a failed call they give the same counts, and the
// Markdown report says them.
func TestExportAgreesWithStatus(t *testing.T) {
	root := viewtest.Project(t)
	doc := export(t, root, viewtest.Active)
	st, err := view.ReadStatus(context.Background(), root, view.StatusQuery{Session: viewtest.Active, Calls: -1}, viewtest.At(120))
	if err != nil || len(st.Sessions) != 1 {
		t.Fatalf("status: %v, %d sessions", err, len(st.Sessions))
	}
	ss := st.Sessions[0]
	statusOpen := 0
	for _, td := range st.Todos {
		if td.Open() {
			statusOpen++
		}
	}
	agentOpen := 0
	for _, a := range ss.AgentTodos {
		if a.Open() {
			agentOpen++
		}
	}
	statusFailed := 0
	for _, c := range ss.LastCalls {
		if c.Outcome == "failed" {
			statusFailed++
		}
	}
	exportFailed := 0
	for _, c := range doc.ToolCalls {
		if c.Outcome == "failed" {
			exportFailed++
		}
	}
	sessionOpen := openTodos(view.ExportTodos{Atreides: doc.Todos.Atreides})
	projectOpen := openTodos(view.ExportTodos{Atreides: doc.Todos.Project})
	for _, c := range []struct {
		what           string
		status, export int
	}{
		{"tool calls", ss.Counters.ToolCalls, doc.Session.Counters.ToolCalls},
		{"denied", ss.Counters.Denied, doc.Session.Counters.Denied},
		{"asked", ss.Counters.Asked, doc.Session.Counters.Asked},
		{"failed (counter)", ss.Counters.Failed, doc.Session.Counters.Failed},
		{"failed calls", statusFailed, exportFailed},
		{"strikes", len(ss.Strikes), len(doc.Strikes)},
		{"atreides todos open", statusOpen, sessionOpen + projectOpen},
		{"agent todos open", agentOpen, openTodos(view.ExportTodos{Agent: doc.Todos.Agent})},
		{"transitions", len(ss.Transitions), len(doc.Phases)},
		{"delegations", len(ss.Delegations), len(doc.Delegations)},
		{"background", len(st.Background), len(doc.Background)},
	} {
		if c.status != c.export || c.status == 0 {
			t.Errorf("%s: status %d, export %d (the fixture has some)", c.what, c.status, c.export)
		}
	}
	if ss.Phase != doc.Session.Phase {
		t.Errorf("phase: status %q, export %q", ss.Phase, doc.Session.Phase)
	}
	var md bytes.Buffer
	if err := Markdown(&md, doc); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"## Strikes pending (1)",
		"- open todos: 2 of the session, 1 of the project; 1 strike(s) pending",
		"| Bash | go test ./... | allow | failed | 61.0 s |",
		"#3 task: Update the changelog (pending)",
	} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the report lacks %q:\n%s", want, md.String())
		}
	}
}

// TestCellLines: text of several lines (real newlines, or the \n the
// sanitizer writes) is lines joined by <br> in a cell, never a literal
// \n; pipes and HTML are escaped.
func TestCellLines(t *testing.T) {
	for in, want := range map[string]string{
		`FAIL TestLogin\n    login_test.go:12: got 1\nFAIL`: "FAIL TestLogin<br>login_test.go:12: got 1<br>FAIL",
		"cat <<EOF > a\nx | y\nEOF\n":                       "cat &lt;&lt;EOF &gt; a<br>x \\| y<br>EOF",
		"  one  line  ":                                     "one line",
		"":                                                  "–",
	} {
		if got := cell(in); got != want {
			t.Errorf("cell(%q) = %q, want %q", in, got, want)
		}
	}
}
