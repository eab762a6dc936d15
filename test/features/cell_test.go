package features

import "strings"

// Kind is how a cell is proven.
type Kind int

const (
	// EndToEnd: a test drives the host's real, pinned CLI (against a fake
	// model) and the feature shows in what the CLI sends or does.
	EndToEnd Kind = iota
	// Process: a test feeds the host's real payload shapes (captured from
	// the pinned CLI, or its decoded events and facts) through atreides;
	// the CLI itself is not run for this feature.
	Process
	// Cannot: the host has no event or field for it; the reason says
	// which, and the tests (when named) show it with the real CLI.
	Cannot
	// Missing: the host could, but atreides does not do it there yet (an
	// open gap); the note says what is missing and where it is tracked.
	Missing
	// Unproven: claimed before, but no test names it yet; the note says
	// what is missing. A cell is never left out: the table is complete.
	Unproven
)

// Mark is the cell's symbol in the tables.
func (k Kind) Mark() string {
	return [...]string{"✓", "○", "✗", "—", "?"}[k]
}

// Cell is one feature on one host.
type Cell struct {
	Kind  Kind
	Tests []string // "dir.TestName" or "dir.TestName/subtest", dir relative to the module root
	Note  string   // how it works there, or why not; for Cannot, the reason and evidence
}

// Row is one line of the table: a feature on a host.
type Row struct {
	Feature string // a Feature's ID
	Host    string // a host's name in internal/host/all
	Cell
}

// e2eDir is where the end-to-end tests live; e2e names tests there
// without repeating it.
const e2eDir = "test/e2e"

// e2e is a cell proven end to end by the named tests of test/e2e.
func e2e(tests ...string) Cell { return Cell{Kind: EndToEnd, Tests: qualify(e2eDir, tests)} }

// proc is a cell proven by process tests with the host's payload shapes;
// each test is "dir.TestName".
func proc(tests ...string) Cell { return Cell{Kind: Process, Tests: tests} }

// cannot is a cell the host cannot do, with the reason and the evidence;
// tests (of test/e2e unless qualified) show it with the real CLI.
func cannot(reason string, tests ...string) Cell {
	return Cell{Kind: Cannot, Note: reason, Tests: qualify(e2eDir, tests)}
}

// missing is a cell atreides does not do yet on a host that could.
func missing(note string) Cell { return Cell{Kind: Missing, Note: note} }

// unproven is a cell no test proves yet, with what is missing.
func unproven(note string) Cell { return Cell{Kind: Unproven, Note: note} }

// with adds a note to a proven cell: how the feature takes shape there.
func (c Cell) with(note string) Cell { c.Note = note; return c }

// qualify puts dir before each test that names no directory.
func qualify(dir string, tests []string) []string {
	out := make([]string, len(tests))
	for i, t := range tests {
		if strings.HasPrefix(t, "Test") {
			t = dir + "." + t
		}
		out[i] = t
	}
	return out
}

// splitRef parses "dir.TestName/sub" into its directory, function and
// subtest path.
func splitRef(ref string) (dir, fn, sub string) {
	i := strings.LastIndex(ref, ".Test")
	if i < 0 {
		return "", ref, ""
	}
	dir, rest := ref[:i], ref[i+1:]
	fn, sub, _ = strings.Cut(rest, "/")
	return dir, fn, sub
}
