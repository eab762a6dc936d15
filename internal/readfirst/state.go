package readfirst

import (
	"slices"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/state"
)

// MaxKnown bounds the files a session remembers as read or written: the
// oldest are forgotten first, and a forgotten file only means one more
// "read it first" than needed.
const MaxKnown = 512

// Reads is what the read-before-write check remembers, its group of the
// session record: the files each agent of the session read or wrote
// itself, with their modification time then, so that a change made behind
// the agent's back is seen too.
type Reads struct {
	Known []KnownFile `json:"known,omitempty"` // oldest first
}

// KnownFile is one file an agent has in its context.
type KnownFile struct {
	Agent   string    `json:"agent,omitempty"` // "" for the lead agent
	Path    string    `json:"path"`            // absolute, cleaned
	ModTime time.Time `json:"mtime,omitzero"`  // zero: not known
}

// ReadsKey is the group's key; its section's tag, 10, is in records on
// disk.
var ReadsKey = state.SessionKey[Reads]{Tag: 10, Name: "reads", JSON: "reads", Fields: func(r *Reads, c *binrec.Codec) {
	binrec.List(c, &r.Known, func(k *KnownFile, c *binrec.Codec) {
		c.Str(&k.Agent, &k.Path)
		c.Time(&k.ModTime)
	})
}}

// Find returns the agent's record of the file, or nil.
func (r *Reads) Find(agent, path string) *KnownFile {
	i := slices.IndexFunc(r.Known, func(k KnownFile) bool { return k.Agent == agent && k.Path == path })
	if i < 0 {
		return nil
	}
	return &r.Known[i]
}

// Add records that the agent has the file in its context as of modTime,
// moving it to the newest end and forgetting the oldest beyond [MaxKnown].
func (r *Reads) Add(agent, path string, modTime time.Time) {
	r.Known = slices.DeleteFunc(r.Known, func(k KnownFile) bool { return k.Agent == agent && k.Path == path })
	r.Known = append(r.Known, KnownFile{Agent: agent, Path: path, ModTime: modTime})
	if over := len(r.Known) - MaxKnown; over > 0 {
		r.Known = append(r.Known[:0], r.Known[over:]...)
	}
}
