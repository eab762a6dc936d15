package dashboard

import (
	"errors"
	"net/http"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/fleet"
	"github.com/atreides-dev/atreides/internal/snapshot"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/tasks"
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
	m.Handle("GET /style.css", static("style.css"))
	m.HandleFunc("GET /api/projects", s.apiProjects)
	m.HandleFunc("GET /api/sessions", s.apiSessions)
	m.HandleFunc("GET /api/sessions/{id}", s.withSnap(s.apiSession))
	m.HandleFunc("GET /api/sessions/{id}/timeline", s.withSnap(s.apiTimeline))
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
func (s *Server) withSnap(h func(http.ResponseWriter, *http.Request, *snapshot.Snapshot)) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		snap, ok := s.snap(w, r)
		if ok {
			h(w, r, snap)
		}
	}
}

func (s *Server) snap(w http.ResponseWriter, r *http.Request) (*snapshot.Snapshot, bool) {
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

// projectInfo is one project of GET /api/projects.
type projectInfo struct {
	Root    string `json:"root"`
	Name    string `json:"name"`
	Current bool   `json:"current"`
}

func (s *Server) apiProjects(w http.ResponseWriter, _ *http.Request) {
	roots, err := s.projects()
	out := struct {
		All      bool          `json:"all"`
		Projects []projectInfo `json:"projects"`
		Error    string        `json:"error,omitempty"`
	}{All: s.cfg.Projects != nil, Projects: []projectInfo{}}
	if err != nil {
		out.Error = err.Error()
	}
	for _, r := range roots {
		out.Projects = append(out.Projects, projectInfo{Root: r, Name: filepath.Base(r), Current: r == s.cfg.Root})
	}
	writeJSON(w, http.StatusOK, out)
}

// sessionRow is a session of GET /api/sessions with its project.
type sessionRow struct {
	snapshot.SessionRow
	Project string `json:"project"`
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
	rows := []sessionRow{}
	for _, root := range roots {
		snap, err := s.source(root).snapshot(r.Context())
		if err != nil {
			writeError(w, http.StatusInternalServerError, "%v", err)
			return
		}
		for _, row := range snap.SessionRows() {
			rows = append(rows, sessionRow{SessionRow: row, Project: root})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"sessions": rows})
}

// sessionDetail is GET /api/sessions/{id}.
type sessionDetail struct {
	Session     snapshot.SessionRow `json:"session"`
	Todos       []snapshot.Todo     `json:"todos"`
	Anchors     []snapshot.Anchor   `json:"anchors"`
	Delegations []state.Delegation  `json:"delegations"`
	Background  []state.BgTask      `json:"background"`
	Strikes     []state.Strike      `json:"strikes"`
	Transitions []state.Transition  `json:"transitions"`
	Task        *tasks.SessionTask  `json:"task"`
	Compaction  *state.Snapshot     `json:"compaction"`
}

func (s *Server) apiSession(w http.ResponseWriter, r *http.Request, snap *snapshot.Snapshot) {
	id := r.PathValue("id")
	sess := snap.Session(id)
	if sess == nil {
		writeError(w, http.StatusNotFound, "no session %s", id)
		return
	}
	d := sessionDetail{
		Session: snap.Row(sess), Todos: nonNil(snapshot.Todos(sess, snap.Project)), Anchors: nonNil(snap.Anchors(id)),
		Delegations: nonNil(sess.Delegation.Agents), Background: nonNil(snap.Background(id)),
		Strikes: nonNil(sess.Strikes.Targets), Transitions: nonNil(sess.Phase.Transitions),
		Compaction: sess.Memory.Snapshot,
	}
	if t := tasks.SessionTaskKey.Of(sess); t.Number != 0 {
		d.Task = t
	}
	writeJSON(w, http.StatusOK, d)
}

func nonNil[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// apiTimeline is GET /api/sessions/{id}/timeline?since=&limit=: since is
// the time of the last item the page has (RFC 3339), and only later items
// come back.
func (s *Server) apiTimeline(w http.ResponseWriter, r *http.Request, snap *snapshot.Snapshot) {
	id := r.PathValue("id")
	if snap.Session(id) == nil {
		writeError(w, http.StatusNotFound, "no session %s", id)
		return
	}
	f := snapshot.TimelineFilter{}
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
	writeJSON(w, http.StatusOK, map[string]any{"items": nonNil(items)})
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
	recs, total, err := snapshot.Decisions(trail(root), f, limit)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "%v", err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"records": nonNil(recs), "total": total})
}

func (s *Server) apiGovernance(w http.ResponseWriter, _ *http.Request, snap *snapshot.Snapshot) {
	writeJSON(w, http.StatusOK, snap.Governance())
}

// apiLedger is GET /api/ledger?file=&intent=&session=&limit=.
func (s *Server) apiLedger(w http.ResponseWriter, r *http.Request, snap *snapshot.Snapshot) {
	q := r.URL.Query()
	limit, ok := limitParam(w, r)
	if !ok {
		return
	}
	if limit == 0 {
		limit = defaultLimit
	}
	writeJSON(w, http.StatusOK, snap.Ledger(snapshot.LedgerFilter{File: q.Get("file"), Intent: q.Get("intent"), Session: q.Get("session"), Limit: limit}))
}

// apiLedgerDiff is GET /api/ledger/{seq}/diff: the record's change where
// git history proves it, else {"diff": null, "why": ...}.
func (s *Server) apiLedgerDiff(w http.ResponseWriter, r *http.Request, snap *snapshot.Snapshot) {
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
		writeJSON(w, http.StatusOK, snapshot.LedgerDiff(r.Context(), snap.Root, rec))
	}
}

// apiTasks is GET /api/tasks: the task board, its errors and each task's
// plans.
func (s *Server) apiTasks(w http.ResponseWriter, _ *http.Request, snap *snapshot.Snapshot) {
	type plan struct {
		Task     int    `json:"task"`
		Version  int    `json:"version"`
		Path     string `json:"path"`
		Approved bool   `json:"approved"`
	}
	tb := snap.Project.Tasks
	plans := []plan{}
	for _, t := range tb.List {
		for i, p := range t.Plans {
			plans = append(plans, plan{Task: t.Number, Version: i + 1, Path: p, Approved: t.Approved == i+1})
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"tasks": nonNil(tb.List), "errors": nonNil(tb.Errors), "plans": plans})
}

// apiBackground is GET /api/background?session=: the background tasks.
func (s *Server) apiBackground(w http.ResponseWriter, r *http.Request, snap *snapshot.Snapshot) {
	writeJSON(w, http.StatusOK, map[string]any{"tasks": nonNil(snap.Background(r.URL.Query().Get("session")))})
}

// quarantined is a quarantined record without its bytes, which may hold
// anything and are for `atreides doctor`, not a page.
type quarantined struct {
	Kind   string    `json:"kind"`
	Key    string    `json:"key"`
	Time   time.Time `json:"t"`
	Reason string    `json:"reason"`
	Lost   []string  `json:"lost,omitempty"`
	Bytes  int       `json:"bytes"`
}

// apiHealth is GET /api/health: damaged and quarantined records, and how
// long the last snapshot held the store's lock.
func (s *Server) apiHealth(w http.ResponseWriter, _ *http.Request, snap *snapshot.Snapshot) {
	type damaged struct {
		Kind  string `json:"kind"`
		Key   string `json:"key"`
		Error string `json:"error"`
	}
	out := struct {
		Project     string        `json:"project"`
		HeldUS      int64         `json:"held_us"`
		Damaged     []damaged     `json:"damaged"`
		Quarantined []quarantined `json:"quarantined"`
	}{Project: snap.Root, HeldUS: snap.Held.Microseconds(), Damaged: []damaged{}, Quarantined: []quarantined{}}
	for _, d := range snap.Damaged {
		out.Damaged = append(out.Damaged, damaged{Kind: d.Kind, Key: d.Key, Error: d.Error()})
	}
	for _, q := range snap.Quarantined {
		out.Quarantined = append(out.Quarantined, quarantined{Kind: q.Kind, Key: q.Key, Time: q.Time, Reason: q.Reason, Lost: q.Lost, Bytes: len(q.Data)})
	}
	writeJSON(w, http.StatusOK, out)
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
