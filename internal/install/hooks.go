package install

import (
	"fmt"
	"slices"
)

// This file holds the merge machinery for the three-level hooks shape that
// Claude Code's settings.json, Gemini CLI's settings.json and Codex's
// hooks.json share:
//
//	{"hooks": {"<Event>": [{"matcher": "...", "hooks": [{handler}, ...]}, ...]}}
//
// A host plugs in only what differs: how to recognise our handler and what
// handler and matcher to write for each event.

// wantGroup is the matcher group atreides wants under one event.
type wantGroup struct {
	Event   string
	Matcher string // "" writes no matcher key (all / not applicable)
	Handler *Node  // our handler object; its keys are written over ours in place
}

// isOursFunc recognises atreides' own handler objects.
type isOursFunc func(handler *Node) bool

// hookChanges lists, per event, what an edit did.
type hookChanges struct {
	Added, Updated, Removed []string
}

func (c hookChanges) empty() bool {
	return len(c.Added)+len(c.Updated)+len(c.Removed) == 0
}

// hooksObject returns root's "hooks" object, creating it at the end of root
// when create is set. It refuses shapes the host would reject or that make
// the edit ambiguous, rather than guessing.
func hooksObject(root *Node, create bool) (*Node, error) {
	if root.Kind() != KindObject {
		return nil, fmt.Errorf("the top-level value is a JSON %s, but a settings file must be an object ({...})", root.Kind())
	}
	n := 0
	for _, m := range root.Members() {
		if m.Key == "hooks" {
			n++
		}
	}
	if n > 1 {
		return nil, fmt.Errorf(`the key "hooks" appears %d times; the host uses only the last one, so merge them into one`, n)
	}
	h := root.Get("hooks")
	if h == nil {
		if !create {
			return nil, nil
		}
		h = NewObject()
		root.Set("hooks", h)
		return h, nil
	}
	if h.Kind() != KindObject {
		return nil, fmt.Errorf(`"hooks" is a JSON %s, but it must be an object mapping event names to lists`, h.Kind())
	}
	if k, dup := h.DuplicateKey(); dup {
		return nil, fmt.Errorf(`the event %q appears more than once under "hooks"; the host uses only the last one, so merge them into one`, k)
	}
	return h, nil
}

// groupHandlers returns a matcher group's handler array, or nil for
// entries of the wrong shape (they cannot hold our handler, and we
// leave them exactly as they are).
func groupHandlers(group *Node) *Node {
	if group.Kind() != KindObject {
		return nil
	}
	if hs := group.Get("hooks"); hs.Kind() == KindArray {
		return hs
	}
	return nil
}

// countOurs counts our handlers in an event list.
func countOurs(list *Node, isOurs isOursFunc) int {
	n := 0
	for _, g := range list.Elems() {
		for _, h := range groupHandlers(g).Elems() {
			if isOurs(h) {
				n++
			}
		}
	}
	return n
}

// removeOurs deletes our handlers from an event list except keep (may be
// nil), drops groups that only we emptied, and reports whether it removed
// anything. Groups the user left empty stay.
func removeOurs(list *Node, isOurs isOursFunc, keep *Node) bool {
	removed := false
	groups := list.Elems()
	kept := make([]*Node, 0, len(groups))
	for _, g := range groups {
		hs := groupHandlers(g)
		if hs == nil {
			kept = append(kept, g)
			continue
		}
		before := hs.Elems()
		after := make([]*Node, 0, len(before))
		for _, h := range before {
			if h != keep && isOurs(h) {
				continue
			}
			after = append(after, h)
		}
		if len(after) == len(before) {
			kept = append(kept, g)
			continue
		}
		removed = true
		if len(after) > 0 {
			hs.SetElems(after)
			kept = append(kept, g)
		}
	}
	if removed {
		list.SetElems(kept)
	}
	return removed
}

// newGroup builds the matcher group for w: matcher first, as in the hosts'
// documentation.
func newGroup(w wantGroup) *Node {
	g := NewObject()
	if w.Matcher != "" {
		g.Set("matcher", NewString(w.Matcher))
	}
	g.Set("hooks", NewArray(cloneNode(w.Handler)))
	return g
}

func cloneNode(n *Node) *Node {
	if n == nil {
		return nil
	}
	c := *n
	c.members = nil
	c.elems = nil
	for _, m := range n.members {
		c.members = append(c.members, Member{Key: m.Key, keyRaw: m.keyRaw, Value: cloneNode(m.Value)})
	}
	for _, e := range n.elems {
		c.elems = append(c.elems, cloneNode(e))
	}
	if n.kind == KindObject && c.members == nil {
		c.members = []Member{}
	}
	return &c
}

// snapshot is a cheap, exact fingerprint of a subtree for change detection.
func snapshot(n *Node) string {
	if n == nil {
		return "\x00absent"
	}
	return string(n.Encode(Format{}))
}

// applyHooks makes the hooks object hold exactly one handler of ours per
// wanted event and none elsewhere, touching nothing of the user's:
//   - an event without our handler gets our group appended at the end;
//   - an existing handler of ours is updated in place (first one kept, any
//     duplicates removed), so a new binary path never duplicates it;
//   - the matcher is rewritten only on a group holding nothing but our
//     handler: a group the user shares with us keeps their matcher;
//   - our handlers under events no longer wanted are removed.
func applyHooks(root *Node, want []wantGroup, isOurs isOursFunc) (hookChanges, error) {
	var ch hookChanges
	hooks, err := hooksObject(root, true)
	if err != nil {
		return ch, err
	}
	wanted := make(map[string]bool, len(want))
	for _, w := range want {
		wanted[w.Event] = true
		list := hooks.Get(w.Event)
		if list == nil {
			hooks.Set(w.Event, NewArray(newGroup(w)))
			ch.Added = append(ch.Added, w.Event)
			continue
		}
		if list.Kind() != KindArray {
			return ch, fmt.Errorf("%s is a JSON %s, but it must be a list of matcher groups", jsonPath("hooks", w.Event), list.Kind())
		}
		before := snapshot(list)
		keepGroup, keep := firstOurs(list, isOurs)
		if keep == nil {
			list.Append(newGroup(w))
			ch.Added = append(ch.Added, w.Event)
			continue
		}
		removeOurs(list, isOurs, keep)
		for _, m := range w.Handler.Members() {
			keep.Set(m.Key, cloneNode(m.Value))
		}
		if onlyOurs(keepGroup, isOurs) {
			if w.Matcher == "" {
				keepGroup.Delete("matcher")
			} else {
				keepGroup.Insert(0, "matcher", NewString(w.Matcher))
			}
		}
		if snapshot(list) != before {
			ch.Updated = append(ch.Updated, w.Event)
		}
	}
	for _, m := range hooks.Members() {
		if wanted[m.Key] || m.Value.Kind() != KindArray {
			continue
		}
		if removeOurs(m.Value, isOurs, nil) {
			ch.Removed = append(ch.Removed, m.Key)
		}
	}
	// Delete after the loop: Delete compacts the slice being ranged over.
	for _, ev := range ch.Removed {
		if len(hooks.Get(ev).Elems()) == 0 {
			hooks.Delete(ev)
		}
	}
	return ch, nil
}

func firstOurs(list *Node, isOurs isOursFunc) (group, handler *Node) {
	for _, g := range list.Elems() {
		for _, h := range groupHandlers(g).Elems() {
			if isOurs(h) {
				return g, h
			}
		}
	}
	return nil, nil
}

func onlyOurs(group *Node, isOurs isOursFunc) bool {
	hs := groupHandlers(group).Elems()
	return len(hs) > 0 && !slices.ContainsFunc(hs, func(h *Node) bool { return !isOurs(h) })
}

// removeHooks deletes every handler of ours, then the matcher groups, event
// keys and "hooks" key that our removal emptied. Containers the user had
// left empty themselves are not ours to tidy and stay.
func removeHooks(root *Node, isOurs isOursFunc) ([]string, error) {
	hooks, err := hooksObject(root, false)
	if err != nil || hooks == nil {
		return nil, err
	}
	var removed []string
	for _, m := range hooks.Members() {
		if m.Value.Kind() != KindArray {
			continue
		}
		if removeOurs(m.Value, isOurs, nil) {
			removed = append(removed, m.Key)
		}
	}
	for _, ev := range removed {
		if len(hooks.Get(ev).Elems()) == 0 {
			hooks.Delete(ev)
		}
	}
	if len(removed) > 0 && len(hooks.Members()) == 0 {
		root.Delete("hooks")
	}
	return removed, nil
}
