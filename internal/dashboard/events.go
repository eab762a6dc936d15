package dashboard

import (
	"net/http"
	"time"
)

// heartbeat is how often an idle stream sends a comment, so proxies and
// the browser keep it open and a dead client is noticed.
const heartbeat = 15 * time.Second

// apiEvents is GET /api/events: a server-sent event stream of "audit" and
// "state" events of ?project= (else of every project served), and
// "resync" when events were dropped for a slow reader.
func (s *Server) apiEvents(w http.ResponseWriter, r *http.Request) {
	roots := []string{}
	if r.URL.Query().Get("project") != "" {
		root, err := s.project(r)
		if err != nil {
			projectError(w, err)
			return
		}
		roots = append(roots, root)
	} else {
		var err error
		if roots, err = s.projects(); err != nil {
			s.cfg.Logf("ui: %v", err)
		}
	}
	rc := http.NewResponseController(w)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Accel-Buffering", "no")
	w.WriteHeader(http.StatusOK)

	sub := &subscriber{ch: make(chan message, 64)}
	for _, root := range roots {
		src := s.source(root)
		src.add(sub)
		defer src.unsubscribe(sub)
	}
	send := func(b []byte) bool {
		if _, err := w.Write(b); err != nil {
			return false
		}
		return rc.Flush() == nil
	}
	if !send([]byte("retry: 1000\n\n" + string(message{Event: "hello", Data: map[string]any{"projects": roots}}.encode()))) {
		return
	}
	tick := time.NewTicker(heartbeat)
	defer tick.Stop()
	for {
		var b []byte
		select {
		case <-r.Context().Done():
			return
		case <-s.ctx.Done():
			return
		case <-tick.C:
			b = []byte(": heartbeat\n\n")
		case m := <-sub.ch:
			b = m.encode()
		}
		if sub.lost.Swap(false) {
			b = append(b, message{Event: "resync", Data: map[string]any{}}.encode()...)
		}
		if !send(b) {
			return
		}
	}
}
