package dashboard

import (
	"net/http"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/governance"
)

// action wraps a state-changing endpoint: the CSRF check, the
// confirmation code (see [Server.Confirmation]), the project, and, once it
// succeeded, the news that the store changed.
func (s *Server) action(h func(r *http.Request, root string) (any, int, error)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if !s.csrfOK(r) {
			writeError(w, http.StatusForbidden, "missing or wrong %s header: actions come from the dashboard's own page", csrfHeader)
			return
		}
		if !s.confirmed(r) {
			// confirm tells the page to ask for the code (again).
			writeJSON(w, http.StatusForbidden, map[string]any{"confirm": true,
				"error": "missing or wrong confirmation code: type the code atreides ui printed in the terminal that started it"})
			return
		}
		root, err := s.project(r)
		if err != nil {
			projectError(w, err)
			return
		}
		out, status, err := h(r, root)
		if err != nil {
			writeError(w, status, "%v", err)
			return
		}
		s.cfg.Logf("ui: %s %s", r.Method, r.URL.Path)
		s.source(root).changed()
		writeJSON(w, http.StatusOK, out)
	}
}

// release drops the lease the session holds, as `atreides intent release
// --session ID` does.
func (s *Server) release(r *http.Request, root string) (any, int, error) {
	id := r.PathValue("id")
	released, err := governance.Release(r.Context(), root, id)
	if err != nil {
		return nil, http.StatusInternalServerError, err
	}
	return map[string]string{"session": id, "released": released}, 0, nil
}

// cancelTask cancels a background task, as `atreides bg cancel ID` does.
func (s *Server) cancelTask(r *http.Request, root string) (any, int, error) {
	id := r.PathValue("id")
	if err := background.Open(root, background.LoadOptions(root)).Cancel(r.Context(), id); err != nil {
		return nil, http.StatusConflict, err
	}
	return map[string]string{"cancelled": id}, 0, nil
}
