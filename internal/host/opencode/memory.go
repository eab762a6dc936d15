package opencode

import (
	"strings"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/subagents"
)

// Memory keeps in the project's store what the mapper must not lose with
// its process: which session a child session belongs to (a grandchild's
// events name only the grandchild; OpenCode says its parent once, in
// session.created), and the context placed in each conversation (OpenCode
// does not keep what the messages transform adds). A restarted serve, or
// another serve of the same project, reads them back. dir is the
// directory OpenCode runs in. An implementation fails open: what it cannot
// read is not there, and it logs what it could not write.
type Memory interface {
	Link(dir, child string) (subagents.Link, bool)
	SaveLink(dir string, l subagents.Link)
	Placed(dir, key string) []anchors.PlacedAt
	SavePlaced(dir, key string, list []anchors.PlacedAt)
}

// dirOf is the directory an event's memory is kept for.
func dirOf(ev *event.Event) string {
	if ev.ProjectDir != "" {
		return ev.ProjectDir
	}
	return ev.Cwd
}

// subagentTitle is how OpenCode 1.18.33's task tool ends the title of
// the child session it creates: the description, then "(@AGENT
// subagent)".
const subagentTitle = " subagent)"

// childAgent is the agent a child session runs as: the session's agent
// (the task tool creates it with the agent's name), else the one its
// title names; "" when neither says (a background task's child, whose
// agent comes with its first prompt).
func childAgent(info sessionInfo) string {
	if info.Agent != "" {
		return info.Agent
	}
	rest, ok := strings.CutSuffix(info.Title, subagentTitle)
	if i := strings.LastIndex(rest, "(@"); ok && i >= 0 && !strings.ContainsAny(rest[i+2:], " ()") {
		return rest[i+2:]
	}
	return ""
}

// setLink places the session in its chain.
func (t *tracked) setLink(l subagents.Link) {
	t.parent, t.root = l.Parent, l.Root
	if t.agent == "" {
		t.agent = l.Agent
	}
}

// link is the link of the session id: the mapper's, or once per process
// the memory's. ok is false for a session that is no one's child.
func (m *Mapper) link(dir, id string) (subagents.Link, bool) {
	m.mu.Lock()
	if t := m.sessions[id]; t != nil && t.resolved {
		l := subagents.Link{Child: id, Parent: t.parent, Root: t.root, Agent: t.agent}
		m.mu.Unlock()
		return l, l.Root != ""
	}
	m.mu.Unlock()
	var l subagents.Link
	ok := false
	if m.Memory != nil && id != "" {
		l, ok = m.Memory.Link(dir, id)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.session(id)
	if !t.resolved {
		t.resolved = true
		if ok {
			t.setLink(l)
		}
	}
	return subagents.Link{Child: id, Parent: t.parent, Root: t.root, Agent: t.agent}, t.root != ""
}

// resolve places the event's session in its chain before it is decided:
// a session created with a parent is linked to the root of the parent's
// chain (and the link kept in the memory); any other session is looked
// up, once per process.
func (m *Mapper) resolve(ev *event.Event, params []byte) {
	dir, id := dirOf(ev), ev.SessionID
	if ev.HostEvent != "session.created" {
		m.link(dir, id)
		return
	}
	info := createdInfo(params)
	if info.ParentID == "" || info.ParentID == id {
		m.mu.Lock()
		m.session(id).resolved = true
		m.mu.Unlock()
		return
	}
	root := subagents.RootOf(info.ParentID, func(p string) (subagents.Link, bool) { return m.link(dir, p) })
	if root == id {
		root = info.ParentID // a loop in what was kept: the parent is root enough
	}
	l := subagents.Link{Child: id, Parent: info.ParentID, Root: root, Agent: childAgent(info), Time: m.now()}
	if m.Memory != nil {
		m.Memory.SaveLink(dir, l)
	}
	m.mu.Lock()
	t := m.session(id)
	t.resolved = true
	t.setLink(l)
	m.mu.Unlock()
}
