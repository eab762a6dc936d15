package session

import (
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// RulesCache remembers the last AGENTS.md atreides read, keyed by its
// modification time and size, so that the file is read and checked again
// only when it changes.
type RulesCache struct {
	Path     string    `json:"path"`
	Opts     string    `json:"opts,omitempty"` // the check's settings; a change re-checks
	ModTime  time.Time `json:"mtime"`
	Size     int64     `json:"size"`
	Problems []string  `json:"problems,omitempty"` // empty: the file is usable
	// Missing is set when there is no rules file: a project may have
	// none, and then its host's own instruction file may stand in.
	Missing bool `json:"missing,omitempty"`
	// Text is the file's content as it will be injected (already cut to
	// the rules budget at a section boundary); empty when it has problems.
	Text string `json:"text,omitempty"`
}

// RulesKey is the cache's group of the project record (nil: none yet);
// its section's tag, 3, is in records on disk.
var RulesKey = state.ProjectKey[*RulesCache]{Tag: 3, Name: "rules", JSON: "rules", Fields: func(r **RulesCache, c *binrec.Codec) {
	binrec.Last(c, r, (*RulesCache).fields)
}}

func (r *RulesCache) fields(c *binrec.Codec) {
	c.Str(&r.Path, &r.Opts)
	c.Time(&r.ModTime)
	c.Int64(&r.Size)
	c.Strs(&r.Problems)
	c.Bool(&r.Missing)
	c.Str(&r.Text)
}

// Describe implements [state.Describer]: what a damaged project record
// that lost the cache lost.
func (*RulesCache) Describe() string {
	return "the AGENTS.md cache (rebuilt at the next session start)"
}
