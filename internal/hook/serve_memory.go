package hook

import (
	"context"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/host/opencode"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/subagents"
)

// memoryTimeout bounds one read or write of the mapper's memory: it waits
// for the state lock like an event does, and fails open after.
const memoryTimeout = 3 * time.Second

// servedMemory is the OpenCode mapper's [opencode.Memory] in each
// project's store: the child sessions' links in the project record, the
// placed context in a record of its own. Both are read only when the
// mapper meets a session it has not seen in this process, and written
// only when they change (a child session starts; new context is placed).
type servedMemory struct {
	roots *servedRoots
	host  string
	now   func() time.Time
}

var _ opencode.Memory = servedMemory{}

// view reads the groups of the project at dir; false when it could not.
func (sm servedMemory) view(dir string, groups state.Groups, fn func(*state.Project)) bool {
	return sm.run(dir, false, groups, fn)
}

// run loads the groups of the project at dir, hands them to fn and, when
// write is set, saves what fn changed, in one transaction.
func (sm servedMemory) run(dir string, write bool, groups state.Groups, fn func(*state.Project)) bool {
	root := project.Root("", dir)
	if root == "" {
		return false
	}
	s, log := sm.roots.get(root)
	ctx, cancel := context.WithTimeout(context.Background(), memoryTimeout)
	defer cancel()
	body := func(tx *store.Tx) error {
		l, err := state.Load(tx, "", sm.host, sm.now(), groups)
		if err != nil {
			return err
		}
		fn(l.Project)
		if !write {
			return nil
		}
		return l.Save(tx)
	}
	st := s.store(log)
	var err error
	if write {
		err = st.Update(ctx, body)
	} else {
		err = st.View(ctx, body)
	}
	if err != nil {
		log.Logf("serve: session memory (%s): %v", map[bool]string{false: "read", true: "write"}[write], err)
		return false
	}
	return true
}

// Link implements [opencode.Memory].
func (sm servedMemory) Link(dir, child string) (l subagents.Link, ok bool) {
	sm.view(dir, subagents.LinksKey.Group(), func(p *state.Project) {
		l, ok = subagents.LinksKey.Read(p).Find(child)
	})
	return l, ok
}

// SaveLink implements [opencode.Memory].
func (sm servedMemory) SaveLink(dir string, l subagents.Link) {
	sm.run(dir, true, subagents.LinksKey.Group(), func(p *state.Project) {
		subagents.LinksKey.Of(p).Add(l)
	})
}

// Placed implements [opencode.Memory].
func (sm servedMemory) Placed(dir, key string) (list []anchors.PlacedAt) {
	sm.view(dir, anchors.PlacedKey.Group(), func(p *state.Project) {
		list = anchors.PlacedKey.Read(p).Of(key)
	})
	return list
}

// SavePlaced implements [opencode.Memory].
func (sm servedMemory) SavePlaced(dir, key string, list []anchors.PlacedAt) {
	sm.run(dir, true, anchors.PlacedKey.Group(), func(p *state.Project) {
		anchors.PlacedKey.Of(p).Set(key, list, sm.now())
	})
}
