package state

import "slices"

// QueueError keeps an error a hook saw in the session's outbox until the
// task board records it (package tasks drains it on the session's rare
// events); past MaxErrorOutbox the oldest go first, since the newest say
// the most about what is failing now.
func (s *Session) QueueError(e ErrorEvent) {
	s.ErrorOutbox = append(s.ErrorOutbox, e)
	if over := len(s.ErrorOutbox) - MaxErrorOutbox; over > 0 {
		s.ErrorOutbox = slices.Delete(s.ErrorOutbox, 0, over)
	}
}
