package state

import "slices"

// appliedKept is how many event ids a session remembers. An event kept in
// the outbox is replayed in order, behind every event of its session that
// was queued before it; so only a session's last few events can have
// committed without their hook knowing (a COMMIT whose answer the
// connection lost), and a few more cover the session's parallel tool
// calls.
const appliedKept = 32

// AppliedEvent reports whether the event with this id was applied to the
// session's state: an event of the outbox whose first attempt committed
// after all is not applied twice. Needs GroupApplied.
func (s *Session) AppliedEvent(id string) bool { return slices.Contains(s.Applied, id) }

// MarkApplied remembers that the event with this id was applied, keeping
// the newest appliedKept ids. Needs GroupApplied.
func (s *Session) MarkApplied(id string) {
	s.Applied = append(s.Applied, id)
	if n := len(s.Applied) - appliedKept; n > 0 {
		s.Applied = slices.Delete(s.Applied, 0, n)
	}
}
