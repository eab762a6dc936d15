package state

import (
	"os"
	"path/filepath"
)

// busySession is a session after a long day: a full history, agent todos,
// strikes, a phase history, a compaction snapshot, pending file snapshots
// and subagents, as the hook of a busy session loads and saves it. It is
// the committed record (testdata/session-busy.rec), so that its groups
// include those of the features, which live in their own packages, and
// every build measures the same bytes.
func busySession(id string) *Session {
	s, err := DecodeSession(goldenBytes("session-busy.rec"))
	if err != nil {
		panic(err)
	}
	s.ID = id
	return s
}

// busyProject is a project with todos, anchors, the AGENTS.md cache and
// governance in use: the committed record (testdata/project-busy.rec).
func busyProject() *Project {
	p, err := DecodeProject(goldenBytes("project-busy.rec"))
	if err != nil {
		panic(err)
	}
	return p
}

func goldenBytes(name string) []byte {
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		panic(err)
	}
	return b
}
