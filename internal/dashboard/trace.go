package dashboard

import (
	"net/http"
	"time"

	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/view"
)

// apiTrace is GET /api/sessions/{id}/trace?since=&until=: the session's
// spans (view.Trace), those that start in the range and their ancestors.
func (s *Server) apiTrace(w http.ResponseWriter, r *http.Request, snap *view.Snapshot) {
	id := r.PathValue("id")
	if snap.Session(id) == nil {
		writeError(w, http.StatusNotFound, "no session %s", id)
		return
	}
	f := view.SpanFilter{}
	var ok bool
	if f.Since, ok = sinceParam(w, r); !ok {
		return
	}
	if f.Until, ok = timeParam(w, r, "until"); !ok {
		return
	}
	tr, err := snap.Trace(trail(snap.Root), id, f)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, tr)
}

// explainTool reports whether the guard judges the tool by one argument.
func explainTool(tool string) bool {
	switch tool {
	case "shell", "read", "write", "edit", "search":
		return true
	}
	return false
}

// apiExplain is GET /api/explain?tool=&target=&cwd=: the guard's
// explanation of a call (as `atreides check --explain`), judged with the
// project's configuration of now, and the configuration line that would
// change it. It reads; it changes nothing.
func (s *Server) apiExplain(w http.ResponseWriter, r *http.Request, snap *view.Snapshot) {
	q := r.URL.Query()
	tool, target := q.Get("tool"), q.Get("target")
	if tool == "" {
		tool = "shell"
	}
	if !explainTool(tool) || target == "" {
		writeError(w, http.StatusBadRequest, "want ?tool= (shell, read, write, edit or search) and ?target=")
		return
	}
	// A broken configuration gives the fallback policy, as the hooks
	// judge with it (policy.Usable); only a policy not built at all fails.
	pol, err := policy.Usable(hook.NewSettings(snap.Root).Policy())
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	cwd := q.Get("cwd")
	if cwd == "" {
		cwd = snap.Root
	}
	req := policy.NewRequest(tool, target, cwd, snap.Root)
	all.Guard().Apply(&req)
	res := guard.Result{Verdict: guard.Allow, Reason: "the guard is switched off in the configuration"}
	if pol != nil {
		res = pol.Check(req)
	}
	ex := view.Explain{Verdict: res.Verdict.String(), Rule: res.Rule, Category: res.Category, Reason: res.Reason,
		Effect: res.Effect, Evidence: res.Evidence, Commands: view.List(res.Commands)}
	ex.Config, ex.ConfigWhy = view.ConfigChange(ex.Verdict, ex.Rule, tool, target)
	writeJSON(w, http.StatusOK, ex)
}

func timeParam(w http.ResponseWriter, r *http.Request, name string) (time.Time, bool) {
	v := r.URL.Query().Get(name)
	if v == "" {
		return time.Time{}, true
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		writeError(w, http.StatusBadRequest, "%s %q: want an RFC 3339 time", name, v)
		return t, false
	}
	return t, true
}
