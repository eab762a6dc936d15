package dashboard

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/view"
)

// Bounds of ?limit=: a page never asks for the whole of a long trail.
const (
	defaultLimit = 500
	maxLimit     = 5000
)

func (s *Server) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", s.page)
	m.Handle("GET /app.js", static("app.js"))
	m.Handle("GET /trace.js", static("trace.js"))
	m.Handle("GET /style.css", static("style.css"))
	m.HandleFunc("GET /api/projects", s.apiProjects)
	m.HandleFunc("GET /api/sessions", s.apiSessions)
	m.HandleFunc("GET /api/sessions/{id}", s.withSnap(s.apiSession))
	m.HandleFunc("GET /api/sessions/{id}/timeline", s.withSnap(s.apiTimeline))
	m.HandleFunc("GET /api/sessions/{id}/trace", s.withSnap(s.apiTrace))
	m.HandleFunc("GET /api/explain", s.withSnap(s.apiExplain))
	m.HandleFunc("GET /api/decisions", s.apiDecisions)
	m.HandleFunc("GET /api/governance", s.withSnap(s.apiGovernance))
	m.HandleFunc("GET /api/ledger", s.withSnap(s.apiLedger))
	m.HandleFunc("GET /api/ledger/{seq}/diff", s.withSnap(s.apiLedgerDiff))
	m.HandleFunc("GET /api/tasks", s.withSnap(s.apiTasks))
	m.HandleFunc("GET /api/background", s.withSnap(s.apiBackground))
	m.HandleFunc("GET /api/health", s.withSnap(s.apiHealth))
	m.HandleFunc("GET /api/events", s.apiEvents)
	m.HandleFunc("POST /api/sessions/{id}/release", s.action(s.release))
	m.HandleFunc("POST /api/background/{id}/cancel", s.action(s.cancelTask))
	s.mux = m
}

// serve routes r, answering an unknown endpoint or method in JSON.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if _, p := s.mux.Handler(r); p != "" || !strings.HasPrefix(r.URL.Path, "/api/") {
		s.mux.ServeHTTP(w, r)
		return
	}
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		r2 := r.Clone(r.Context())
		r2.Method = m
		if _, p := s.mux.Handler(r2); p != "" {
			w.Header().Set("Allow", m)
			writeError(w, http.StatusMethodNotAllowed, "%s %s: use %s", r.Method, r.URL.Path, m)
			return
		}
	}
	writeError(w, http.StatusNotFound, "no endpoint %s", r.URL.Path)
}

// withSnap resolves ?project= and reads its snapshot for h.
func (s *Server) withSnap(h func(http.ResponseWriter, *http.Request, *view.Snapshot)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		snap, ok := s.snap(w, r)
		if ok {
			h(w, r, snap)
		}
	}
}

func (s *Server) snap(w http.ResponseWriter, r *http.Request) (*view.Snapshot, bool) {
	root, err := s.project(r)
	if err != nil {
		projectError(w, err)
		return nil, false
	}
	snap, err := s.source(root).snapshot(r.Context())
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return nil, false
	}
	return snap, true
}

func projectError(w http.ResponseWriter, err error) {
	if errors.Is(err, errUnknownProject) {
		writeError(w, http.StatusNotFound, "unknown project: not one this dashboard serves")
		return
	}
	writeError(w, http.StatusInternalServerError, "%v", err)
}

func (s *Server) apiProjects(w http.ResponseWriter, _ *http.Request) {
	roots, err := s.projects()
	writeJSON(w, http.StatusOK, view.ProjectsOf(roots, s.cfg.Root, s.cfg.Projects != nil, err))
}

// apiSessions lists the sessions of ?project= (else the current one), or
// with ?all=1 of every project served, newest activity first per project.
func (s *Server) apiSessions(w http.ResponseWriter, r *http.Request) {
	roots := []string{}
	if r.URL.Query().Get("all") == "1" {
		var err error
		if roots, err = s.projects(); err != nil {
			s.cfg.Logf("ui: %v", err)
		}
	} else {
		root, err := s.project(r)
		if err != nil {
			projectError(w, err)
			return
		}
		roots = append(roots, root)
	}
	rows := []view.ProjectSession{}
	for _, root := range roots {
		snap, err := s.source(root).snapshot(r.Context())
		if err != nil {
			writeError(w, http.StatusInternalServerError, "%v", err)
			return
		}
		first := len(rows)
		for _, row := range snap.SessionRows() {
			rows = append(rows, view.ProjectSession{SessionRow: row, Project: root})
		}
		s.titles.fill(root, rows[first:], s.cfg.Logf)
	}
	writeJSON(w, http.StatusOK, view.SessionList{Sessions: rows})
}

func (s *Server) apiSession(w http.ResponseWriter, r *http.Request, snap *view.Snapshot) {
	id := r.PathValue("id")
	d, ok := snap.SessionDetail(id)
	if !ok {
		writeError(w, http.StatusNotFound, "no session %s", id)
		return
	}
	writeJSON(w, http.StatusOK, d)
}

// apiTimeline is GET /api/sessions/{id}/timeline?since=&limit=: since is
// the time of the last item the page has (RFC 3339), and only later items
// come back.
func (s *Server) apiTimeline(w http.ResponseWriter, r *http.Request, snap *view.Snapshot) {
	id := r.PathValue("id")
	if snap.Session(id) == nil {
		writeError(w, http.StatusNotFound, "no session %s", id)
		return
	}
	f := view.TimelineFilter{}
	var ok bool
	if f.Since, ok = sinceParam(w, r); !ok {
		return
	}
	if f.Limit, ok = limitParam(w, r); !ok {
		return
	}
	items, err := snap.Timeline(trail(snap.Root), id, f)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, view.Timeline{Items: view.List(items)})
}

// trail is the project's audit trail: the shared one of a team's project.
func trail(root string) audit.Reader { return audit.Of(fleet.Open(root)) }

// apiDecisions is GET /api/decisions?verdict=&rule=&host=&session=&since=&limit=.
func (s *Server) apiDecisions(w http.ResponseWriter, r *http.Request) {
	root, err := s.project(r)
	if err != nil {
		projectError(w, err)
		return
	}
	q := r.URL.Query()
	f := audit.Filter{Rule: q.Get("rule"), Host: q.Get("host"), Session: q.Get("session")}
	for _, v := range q["verdict"] {
		if v == "" {
			continue
		}
		if !slices.Contains(audit.FilterVerdicts, v) {
			writeError(w, http.StatusBadRequest, "verdict %q: want allow, ask, deny, none or block", v)
			return
		}
		f.Verdicts = append(f.Verdicts, v)
	}
	var ok bool
	if f.Since, ok = sinceParam(w, r); !ok {
		return
	}
	limit, ok := limitParam(w, r)
	if !ok {
		return
	}
	if limit == 0 {
		limit = defaultLimit
	}
	recs, total, err := view.Decisions(trail(root), f, limit)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, view.DecisionPage{Records: view.List(recs), Total: total})
}

func (s *Server) apiGovernance(w http.ResponseWriter, _ *http.Request, snap *view.Snapshot) {
	writeJSON(w, http.StatusOK, snap.Governance())
}

// apiLedger is GET /api/ledger?file=&intent=&session=&limit=.
func (s *Server) apiLedger(w http.ResponseWriter, r *http.Request, snap *view.Snapshot) {
	q := r.URL.Query()
	limit, ok := limitParam(w, r)
	if !ok {
		return
	}
	if limit == 0 {
		limit = defaultLimit
	}
	writeJSON(w, http.StatusOK, snap.Ledger(view.LedgerFilter{File: q.Get("file"), Intent: q.Get("intent"), Session: q.Get("session"), Limit: limit}))
}

// apiLedgerDiff is GET /api/ledger/{seq}/diff: the record's change where
// git history proves it, else {"diff": null, "why": ...}.
func (s *Server) apiLedgerDiff(w http.ResponseWriter, r *http.Request, snap *view.Snapshot) {
	seq, err := strconv.ParseUint(r.PathValue("seq"), 10, 64)
	if err != nil {
		writeError(w, http.StatusBadRequest, "seq %q is not a record number", r.PathValue("seq"))
		return
	}
	rec, err := snap.LedgerRecord(seq)
	switch {
	case err != nil:
		writeError(w, http.StatusInternalServerError, "%v", err)
	case rec == nil:
		writeError(w, http.StatusNotFound, "no ledger record %d", seq)
	default:
		writeJSON(w, http.StatusOK, view.LedgerDiff(r.Context(), snap.Root, rec))
	}
}

// apiTasks is GET /api/tasks: the task board, its errors and each task's
// plans.
func (s *Server) apiTasks(w http.ResponseWriter, _ *http.Request, snap *view.Snapshot) {
	writeJSON(w, http.StatusOK, snap.Board())
}

// apiBackground is GET /api/background?session=: the background tasks.
func (s *Server) apiBackground(w http.ResponseWriter, r *http.Request, snap *view.Snapshot) {
	writeJSON(w, http.StatusOK, snap.BackgroundList(r.URL.Query().Get("session")))
}

// apiHealth is GET /api/health: damaged and quarantined records, and how
// long the last snapshot held the store's lock.
func (s *Server) apiHealth(w http.ResponseWriter, _ *http.Request, snap *view.Snapshot) {
	writeJSON(w, http.StatusOK, snap.Health())
}

func sinceParam(w http.ResponseWriter, r *http.Request) (time.Time, bool) {
	v := r.URL.Query().Get("since")
	if v == "" {
		return time.Time{}, true
	}
	t, err := time.Parse(time.RFC3339Nano, v)
	if err != nil {
		writeError(w, http.StatusBadRequest, "since %q: want an RFC 3339 time", v)
		return t, false
	}
	return t, true
}

func limitParam(w http.ResponseWriter, r *http.Request) (int, bool) {
	v := r.URL.Query().Get("limit")
	if v == "" {
		return 0, true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > maxLimit {
		writeError(w, http.StatusBadRequest, "limit %q: want a number from 0 to %d", v, maxLimit)
		return 0, false
	}
	return n, true
}
