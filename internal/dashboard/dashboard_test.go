package dashboard

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/bgtasks"
	"github.com/atreides-dev/atreides/internal/dashboard/listen"
	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/atreides-dev/atreides/internal/view/viewtest"
)

const addr = "127.0.0.1:7433"

func newServer(t testing.TB, root, token string) *Server {
	t.Helper()
	s := New(Config{Root: root, Addr: addr, Token: token})
	t.Cleanup(s.Close)
	return s
}

func do(s *Server, method, target string, hdr map[string]string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	r.Host = addr
	for k, v := range hdr {
		r.Header.Set(k, v)
	}
	w := httptest.NewRecorder()
	s.ServeHTTP(w, r)
	return w
}

func decode(t *testing.T, w *httptest.ResponseRecorder) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(w.Body.Bytes(), &m); err != nil {
		t.Fatalf("not JSON (%d): %s", w.Code, w.Body)
	}
	return m
}

func TestEndpoints(t *testing.T) {
	s := newServer(t, viewtest.Project(t), "")
	tests := []struct {
		target string
		status int
		keys   []string
		check  func(t *testing.T, m map[string]any)
	}{
		{"/api/projects", 200, []string{"all", "projects"}, nil},
		{"/api/sessions", 200, []string{"sessions"}, func(t *testing.T, m map[string]any) {
			rows := m["sessions"].([]any)
			if len(rows) != 2 || rows[0].(map[string]any)["id"] != viewtest.Active || rows[0].(map[string]any)["project"] == "" {
				t.Errorf("sessions = %v", rows)
			}
			// The title is the first prompt's first words; the ended
			// session has no prompt in the trail.
			if got := rows[0].(map[string]any)["title"]; got != "Rework the login handler to hash passwords with …" {
				t.Errorf("title %q", got)
			}
			if got := rows[1].(map[string]any)["title"]; got != "" {
				t.Errorf("title of a session without prompts %q", got)
			}
		}},
		{"/api/sessions/" + viewtest.Active + "/trace", 200, []string{"session", "title", "spans"}, func(t *testing.T, m map[string]any) {
			// The subagent's Grep nests under the explore delegation,
			// which nests under the prompt; the failed test has its
			// duration.
			byID := map[string]map[string]any{}
			var grep, test map[string]any
			for _, x := range m["spans"].([]any) {
				sp := x.(map[string]any)
				byID[sp["id"].(string)] = sp
				switch sp["title"] {
				case "Grep: Login":
					grep = sp
				case "Bash: go test ./...":
					test = sp
				}
			}
			if grep == nil || byID[grep["parent"].(string)]["kind"] != "delegation" || grep["depth"].(float64) != 2 {
				t.Errorf("the subagent's call: %v", grep)
			}
			if test == nil || test["outcome"] != "failed" || test["duration_ms"].(float64) != 61000 {
				t.Errorf("the failed test: %v", test)
			}
		}},
		{"/api/sessions/" + viewtest.Active + "/trace?since=" + viewtest.At(21).Format(time.RFC3339) + "&until=" + viewtest.At(22).Format(time.RFC3339), 200, []string{"spans"}, func(t *testing.T, m map[string]any) {
			var titles []string
			for _, x := range m["spans"].([]any) {
				titles = append(titles, x.(map[string]any)["title"].(string))
			}
			// Only the denied call starts in [21, 22) min; its prompt stays
			// as its root.
			if want := []string{"Rework the login handler to hash passwords with argon2", "Bash: cat .env"}; !slices.Equal(titles, want) {
				t.Errorf("spans in [21, 22) min: %q, want %q", titles, want)
			}
		}},
		{"/api/sessions/" + viewtest.Active + "/trace?until=never", 400, []string{"error"}, nil},
		{"/api/sessions/nope/trace", 404, []string{"error"}, nil},
		{"/api/explain?tool=shell&target=git+reset+--hard", 200, []string{"verdict", "rule", "commands", "config"}, func(t *testing.T, m map[string]any) {
			if m["verdict"] != "deny" || m["rule"] != "git.reset-hard" || !strings.Contains(m["config"].(string), "git.reset-hard: ask") {
				t.Errorf("explain = %v", m)
			}
		}},
		{"/api/explain?tool=rm&target=x", 400, []string{"error"}, nil},
		{"/api/sessions/" + viewtest.Active, 200, []string{"session", "todos", "anchors", "delegations", "background", "strikes", "transitions", "task", "compaction"}, func(t *testing.T, m map[string]any) {
			if n := len(m["transitions"].([]any)); n != 2 {
				t.Errorf("%d transitions, want 2", n)
			}
			if n := len(m["delegations"].([]any)); n != 2 {
				t.Errorf("%d delegations, want 2", n)
			}
		}},
		{"/api/sessions/nope", 404, []string{"error"}, nil},
		{"/api/sessions/nope/timeline", 404, []string{"error"}, nil},
		{"/api/sessions/" + viewtest.Active + "/timeline", 200, []string{"items"}, func(t *testing.T, m map[string]any) {
			if n := len(m["items"].([]any)); n < 10 {
				t.Errorf("%d items", n)
			}
		}},
		{"/api/sessions/" + viewtest.Active + "/timeline?since=" + viewtest.At(30).Format(time.RFC3339) + "&limit=2", 200, []string{"items"}, func(t *testing.T, m map[string]any) {
			items := m["items"].([]any)
			if len(items) != 2 {
				t.Fatalf("%d items, want 2", len(items))
			}
			for _, it := range items {
				if at, _ := time.Parse(time.RFC3339, it.(map[string]any)["t"].(string)); !at.After(viewtest.At(30)) {
					t.Errorf("item at %v, not after since", at)
				}
			}
		}},
		{"/api/sessions/" + viewtest.Active + "/timeline?since=yesterday", 400, []string{"error"}, nil},
		{"/api/decisions", 200, []string{"records", "total"}, func(t *testing.T, m map[string]any) {
			if m["total"].(float64) != 8 { // seven events and a prompt
				t.Errorf("total = %v, want 8", m["total"])
			}
		}},
		{"/api/decisions?verdict=deny", 200, nil, func(t *testing.T, m map[string]any) {
			recs := m["records"].([]any)
			if len(recs) != 1 || recs[0].(map[string]any)["rule"] != "secrets.read" || recs[0].(map[string]any)["reason"] == "" {
				t.Errorf("denials = %v", recs)
			}
		}},
		{"/api/decisions?verdict=block", 200, nil, func(t *testing.T, m map[string]any) {
			if m["total"].(float64) != 1 {
				t.Errorf("blocks = %v", m["total"])
			}
		}},
		{"/api/decisions?rule=git.*&host=claude&session=" + viewtest.Active, 200, nil, func(t *testing.T, m map[string]any) {
			recs := m["records"].([]any)
			if len(recs) != 1 || recs[0].(map[string]any)["command"] != "git push --force" {
				t.Errorf("git records = %v", recs)
			}
		}},
		{"/api/decisions?host=gemini&limit=1", 200, nil, func(t *testing.T, m map[string]any) {
			if len(m["records"].([]any)) != 1 || m["total"].(float64) != 1 {
				t.Errorf("gemini = %v", m)
			}
		}},
		{"/api/decisions?verdict=maybe", 400, []string{"error"}, nil},
		{"/api/decisions?limit=-1", 400, []string{"error"}, nil},
		{"/api/governance", 200, []string{"intents", "leases", "expansions"}, func(t *testing.T, m map[string]any) {
			if n := len(m["leases"].([]any)); n != 1 {
				t.Errorf("%d leases", n)
			}
		}},
		{"/api/ledger", 200, []string{"verify", "records", "files", "intents", "total"}, func(t *testing.T, m map[string]any) {
			if !m["verify"].(map[string]any)["ok"].(bool) || m["total"].(float64) != 2 {
				t.Errorf("ledger = %v", m)
			}
		}},
		{"/api/ledger?file=README.md", 200, nil, func(t *testing.T, m map[string]any) {
			if m["total"].(float64) != 0 {
				t.Errorf("README.md has %v records", m["total"])
			}
		}},
		{"/api/ledger?intent=auth&limit=1", 200, nil, func(t *testing.T, m map[string]any) {
			if len(m["records"].([]any)) != 1 || m["total"].(float64) != 2 {
				t.Errorf("auth = %v", m)
			}
		}},
		{"/api/ledger/1/diff", 200, []string{"diff", "why"}, func(t *testing.T, m map[string]any) {
			if m["diff"] != nil {
				t.Errorf("a diff without git history: %v", m)
			}
		}},
		{"/api/ledger/99/diff", 404, []string{"error"}, nil},
		{"/api/ledger/x/diff", 400, []string{"error"}, nil},
		{"/api/tasks", 200, []string{"tasks", "errors", "plans"}, func(t *testing.T, m map[string]any) {
			if len(m["tasks"].([]any)) != 1 || len(m["plans"].([]any)) != 1 {
				t.Errorf("tasks = %v", m)
			}
		}},
		{"/api/background", 200, []string{"tasks"}, nil},
		{"/api/background?session=nope", 200, nil, func(t *testing.T, m map[string]any) {
			if len(m["tasks"].([]any)) != 0 {
				t.Errorf("tasks = %v", m)
			}
		}},
		{"/api/health", 200, []string{"held_us", "damaged", "quarantined"}, nil},
		{"/api/sessions?project=/elsewhere", 404, []string{"error"}, nil},
		{"/api/nothing", 404, []string{"error"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			w := do(s, "GET", tt.target, nil)
			if w.Code != tt.status {
				t.Fatalf("status %d, want %d: %s", w.Code, tt.status, w.Body)
			}
			if ct := w.Header().Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
				t.Errorf("Content-Type %q", ct)
			}
			m := decode(t, w)
			for _, k := range tt.keys {
				if _, ok := m[k]; !ok {
					t.Errorf("no key %q in %s", k, w.Body)
				}
			}
			if tt.check != nil {
				tt.check(t, m)
			}
		})
	}
}

func TestHealthHidesQuarantinedBytes(t *testing.T) {
	root := viewtest.Project(t)
	viewtest.Quarantine(t, root, "sess-broken")
	w := do(newServer(t, root, ""), "GET", "/api/health", nil)
	m := decode(t, w)
	q := m["quarantined"].([]any)
	if len(q) != 1 || strings.Contains(w.Body.String(), "not a record") || strings.Contains(w.Body.String(), `"data"`) {
		t.Errorf("health = %s", w.Body)
	}
}

func TestAllProjects(t *testing.T) {
	a, b := viewtest.Project(t), viewtest.Project(t)
	s := New(Config{Root: a, Addr: addr, Projects: func() ([]string, error) { return []string{a, b}, nil }})
	t.Cleanup(s.Close)
	m := decode(t, do(s, "GET", "/api/sessions?all=1", nil))
	if n := len(m["sessions"].([]any)); n != 4 {
		t.Errorf("%d sessions of two projects, want 4", n)
	}
	if w := do(s, "GET", "/api/governance?project="+b, nil); w.Code != 200 {
		t.Errorf("the other project: %d %s", w.Code, w.Body)
	}
}

func TestPageAndHeaders(t *testing.T) {
	s := newServer(t, viewtest.Project(t), "")
	w := do(s, "GET", "/", nil)
	if w.Code != 200 || !strings.Contains(w.Body.String(), `<meta name="csrf-token" content="`+s.csrf+`">`) {
		t.Fatalf("page: %d %s", w.Code, w.Body)
	}
	csp := w.Header().Get("Content-Security-Policy")
	if !strings.Contains(csp, "script-src 'self'") || strings.Contains(csp, "unsafe-inline") {
		t.Errorf("CSP %q", csp)
	}
	if w.Header().Get("X-Content-Type-Options") != "nosniff" || w.Header().Get("Referrer-Policy") != "no-referrer" {
		t.Errorf("headers %v", w.Header())
	}
	for _, f := range []string{"/app.js", "/style.css"} {
		if w := do(s, "GET", f, nil); w.Code != 200 || w.Body.Len() < 1000 {
			t.Errorf("%s: %d, %d bytes", f, w.Code, w.Body.Len())
		}
	}
}

func TestHostCheck(t *testing.T) {
	s := newServer(t, viewtest.Project(t), "")
	for host, ok := range map[string]bool{"127.0.0.1:7433": true, "localhost:7433": true, "[::1]:7433": true, "evil.example:7433": false, "127.0.0.1:80": false, "evil.example": false} {
		r := httptest.NewRequest("GET", "/api/projects", nil)
		r.Host = host
		w := httptest.NewRecorder()
		s.ServeHTTP(w, r)
		if (w.Code == 200) != ok {
			t.Errorf("Host %s: %d", host, w.Code)
		}
	}
}

func TestToken(t *testing.T) {
	const token = "0123456789abcdef-token"
	s := newServer(t, viewtest.Project(t), token)
	if w := do(s, "GET", "/api/sessions", nil); w.Code != 401 {
		t.Errorf("no token: %d", w.Code)
	}
	if w := do(s, "GET", "/api/sessions", map[string]string{"Authorization": "Bearer wrong"}); w.Code != 401 {
		t.Errorf("wrong token: %d", w.Code)
	}
	if w := do(s, "GET", "/api/sessions", map[string]string{"Authorization": "Bearer " + token}); w.Code != 200 {
		t.Errorf("bearer: %d", w.Code)
	}
	if w := do(s, "GET", "/api/sessions?token="+token, nil); w.Code != 401 {
		t.Errorf("?token= on an endpoint: %d, want 401 (only the page load takes it)", w.Code)
	}
	w := do(s, "GET", "/?token="+token, nil)
	c := w.Result().Cookies()
	if w.Code != http.StatusSeeOther || w.Header().Get("Location") != "/" || len(c) != 1 || !c[0].HttpOnly || c[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("page load with the token: %d %v %v", w.Code, w.Header(), c)
	}
	if w := do(s, "GET", "/api/sessions", map[string]string{"Cookie": tokenCookie + "=" + token}); w.Code != 200 {
		t.Errorf("cookie: %d", w.Code)
	}
}

func lockHolder(t *testing.T, root string) []govstate.IntentLock {
	t.Helper()
	s, err := view.Take(context.Background(), root, view.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return govstate.Key.Of(s.Project).Locks
}

func TestReleaseAction(t *testing.T) {
	root := viewtest.Project(t)
	s := newServer(t, root, "")
	path := "/api/sessions/" + viewtest.Active + "/release"
	if w := do(s, "GET", path, nil); w.Code != 405 {
		t.Errorf("GET of an action: %d", w.Code)
	}
	if w := do(s, "POST", path, nil); w.Code != 403 || len(lockHolder(t, root)) != 1 {
		t.Errorf("without CSRF: %d, locks %v", w.Code, lockHolder(t, root))
	}
	if w := do(s, "POST", path, map[string]string{csrfHeader: s.csrf, confirmHeader: s.Confirmation(), "Sec-Fetch-Site": "cross-site"}); w.Code != 403 {
		t.Errorf("cross-site: %d", w.Code)
	}
	// The CSRF token is in the page, which the agent can fetch; without
	// the code printed to the terminal the action is refused.
	for _, code := range []string{"", "0000-0000-0000-0000"} {
		if w := do(s, "POST", path, map[string]string{csrfHeader: s.csrf, confirmHeader: code}); w.Code != 403 || decode(t, w)["confirm"] != true || len(lockHolder(t, root)) != 1 {
			t.Errorf("with the CSRF token and confirmation %q: %d %s, locks %v", code, w.Code, w.Body, lockHolder(t, root))
		}
	}
	// As typed: lower case and spaces for dashes are the same code.
	typed := strings.ToLower(strings.ReplaceAll(s.Confirmation(), "-", " "))
	w := do(s, "POST", path, map[string]string{csrfHeader: s.csrf, confirmHeader: typed})
	if w.Code != 200 || decode(t, w)["released"] != "auth" {
		t.Fatalf("release: %d %s", w.Code, w.Body)
	}
	if l := lockHolder(t, root); len(l) != 0 {
		t.Errorf("the lease is still held: %v", l)
	}
	// The next read sees it at once: the action marked the store changed.
	if m := decode(t, do(s, "GET", "/api/governance", nil)); len(m["leases"].([]any)) != 0 {
		t.Errorf("governance after release: %v", m)
	}
}

func TestCancelAction(t *testing.T) {
	root := viewtest.Project(t)
	viewtest.Update(t, root, func(tx *store.Tx) error {
		return state.UpdateProject(tx, func(p *state.Project) error {
			bgtasks.Key.Of(p).Tasks = append(bgtasks.Key.Of(p).Tasks, bgtasks.Task{ID: "bg-2", Parent: viewtest.Active, Host: "opencode", Runner: "opencode", Status: "running", Created: viewtest.At(43), Started: viewtest.At(43)})
			return nil
		})
	})
	s := newServer(t, root, "")
	if w := do(s, "POST", "/api/background/bg-2/cancel", nil); w.Code != 403 {
		t.Errorf("without CSRF: %d", w.Code)
	}
	if w := do(s, "POST", "/api/background/bg-2/cancel", map[string]string{csrfHeader: s.csrf}); w.Code != 403 {
		t.Errorf("without the confirmation code: %d", w.Code)
	}
	hdr := map[string]string{csrfHeader: s.csrf, confirmHeader: s.Confirmation()}
	if w := do(s, "POST", "/api/background/bg-2/cancel", hdr); w.Code != 200 {
		t.Fatalf("cancel: %d %s", w.Code, w.Body)
	}
	m := decode(t, do(s, "GET", "/api/background", nil))
	for _, x := range m["tasks"].([]any) {
		if x := x.(map[string]any); x["id"] == "bg-2" && x["status"] != "cancelled" {
			t.Errorf("bg-2 is %v", x["status"])
		}
	}
	if w := do(s, "POST", "/api/background/bg-1/cancel", hdr); w.Code != 409 {
		t.Errorf("cancelling an ended task: %d %s", w.Code, w.Body)
	}
}

// serve starts s on a real listener; the test's requests go there.
func serve(t *testing.T, root string) (*Server, string, *atomic.Int64) {
	t.Helper()
	l, err := listen.Listen("127.0.0.1:0", false, "")
	if err != nil {
		t.Fatal(err)
	}
	s := New(Config{Root: root, Addr: l.Addr().String()})
	var takes atomic.Int64
	s.take = func(ctx context.Context, root string, o view.Options) (*view.Snapshot, error) {
		takes.Add(1)
		return view.Take(ctx, root, o)
	}
	hs := &http.Server{Handler: s}
	go hs.Serve(l)
	t.Cleanup(func() { s.Close(); hs.Close() })
	return s, "http://" + l.Addr().String(), &takes
}

// testClient bounds the wait for a response's headers, so a server that
// never answers fails the test; a stream's body may stay open as long as
// the test reads it.
var testClient = &http.Client{Transport: &http.Transport{ResponseHeaderTimeout: 30 * time.Second}}

// stream opens the event stream and passes its events (name and data)
// to a channel.
func stream(t *testing.T, url string) <-chan [2]string {
	t.Helper()
	res, err := testClient.Get(url + "/api/events")
	if err != nil {
		t.Fatal(err)
	}
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	t.Cleanup(func() { res.Body.Close() })
	ch := make(chan [2]string, 100)
	go func() {
		sc := bufio.NewScanner(res.Body)
		var name string
		for sc.Scan() {
			line := sc.Text()
			if v, ok := strings.CutPrefix(line, "event: "); ok {
				name = v
			} else if v, ok := strings.CutPrefix(line, "data: "); ok {
				ch <- [2]string{name, v}
			}
		}
		close(ch)
	}()
	return ch
}

// await waits for the named event. The bound fails the test; it is wide
// because the source polls and a -race run beside the guard's suite on two
// busy cores was seen to take over 5 s to deliver one.
func await(t *testing.T, ch <-chan [2]string, name string) string {
	t.Helper()
	timeout := time.After(30 * time.Second)
	for {
		select {
		case e, ok := <-ch:
			if !ok {
				t.Fatalf("the stream ended before a %q event", name)
			}
			if e[0] == name {
				return e[1]
			}
		case <-timeout:
			t.Fatalf("no %q event", name)
		}
	}
}

func TestEventsAudit(t *testing.T) {
	root := viewtest.Project(t)
	_, url, _ := serve(t, root)
	ch := stream(t, url)
	await(t, ch, "hello")
	ev := &event.Event{Kind: event.PreTool, Host: "claude", SessionID: viewtest.Active, HostEvent: "PreToolUse", Time: viewtest.At(44)}
	ev.Tool.Raw, ev.Tool.Command = "Bash", "rm -rf /"
	viewtest.Record(t, root, ev, &event.Decision{Verdict: event.Deny, Rule: "fs.rm-root"})
	var a view.AuditEvent
	if err := json.Unmarshal([]byte(await(t, ch, "audit")), &a); err != nil {
		t.Fatal(err)
	}
	if a.Session != viewtest.Active || a.Verdict != "deny" || a.Rule != "fs.rm-root" || a.Project != root {
		t.Errorf("audit event = %+v", a)
	}
}

// TestEventsShareSnapshots: 20 pages on the stream, each reading the
// sessions on every change, cost one snapshot per change.
func TestEventsShareSnapshots(t *testing.T) {
	root := viewtest.Project(t)
	_, url, takes := serve(t, root)
	const clients = 20
	chans := make([]<-chan [2]string, clients)
	for i := range chans {
		chans[i] = stream(t, url)
		await(t, chans[i], "hello")
	}
	read := func() {
		res, err := testClient.Get(url + "/api/sessions")
		if err != nil {
			t.Error(err)
			return
		}
		res.Body.Close()
	}
	read()
	before := takes.Load()
	for change := 1; change <= 3; change++ {
		viewtest.Update(t, root, func(tx *store.Tx) error {
			return state.UpdateProject(tx, func(p *state.Project) error {
				anchors.Key.Of(p).List = append(anchors.Key.Of(p).List, anchors.Anchor{ID: 10 + change, Kind: "note", Text: "x", Created: viewtest.At(44)})
				return nil
			})
		})
		var wg sync.WaitGroup
		for _, ch := range chans {
			wg.Add(1)
			go func() { defer wg.Done(); await(t, ch, "state"); read() }()
		}
		waited := make(chan struct{})
		go func() { wg.Wait(); close(waited) }()
		select {
		case <-waited:
		case <-time.After(time.Minute):
			t.Fatalf("change %d: the pages did not all read it within a minute", change)
		}
		if got := takes.Load() - before; got != int64(change) {
			t.Fatalf("after %d changes read by %d pages: %d snapshots", change, clients, got)
		}
	}
}

func BenchmarkSessions(b *testing.B) {
	s := newServer(b, viewtest.Project(b), "")
	for b.Loop() {
		if w := do(s, "GET", "/api/sessions", nil); w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}

func BenchmarkTimeline(b *testing.B) {
	s := newServer(b, viewtest.Project(b), "")
	for b.Loop() {
		if w := do(s, "GET", "/api/sessions/"+viewtest.Active+"/timeline", nil); w.Code != 200 {
			b.Fatal(w.Code)
		}
	}
}

// TestConfirmationIsServedNowhere: no GET endpoint (the page, its
// scripts, the API) carries the confirmation code, so nothing that can
// reach the port can read it; two servers have different codes.
func TestConfirmationIsServedNowhere(t *testing.T) {
	root := viewtest.Project(t)
	s := newServer(t, root, "")
	code := s.Confirmation()
	if len(code) != 19 || code == newServer(t, root, "").Confirmation() {
		t.Fatalf("confirmation %q", code)
	}
	bare := strings.ReplaceAll(code, "-", "")
	for _, path := range []string{"/", "/app.js", "/style.css", "/api/projects", "/api/sessions", "/api/sessions/" + viewtest.Active,
		"/api/sessions/" + viewtest.Active + "/timeline", "/api/decisions", "/api/governance", "/api/ledger", "/api/tasks", "/api/background", "/api/health"} {
		w := do(s, "GET", path, nil)
		if w.Code != 200 {
			t.Errorf("GET %s: %d", path, w.Code)
		}
		if body := w.Body.String(); strings.Contains(body, code) || strings.Contains(body, bare) {
			t.Errorf("GET %s serves the confirmation code", path)
		}
	}
}

// TestRunPrintsConfirmationOnStderr: `atreides ui` prints the code on
// stderr only, the terminal that started it, never on stdout (which a
// caller may capture and pass on).
func TestRunPrintsConfirmationOnStderr(t *testing.T) {
	root := viewtest.Project(t)
	ctx, cancel := context.WithCancel(context.Background())
	var out bytes.Buffer
	errb := &signalWriter{written: make(chan struct{})}
	done := make(chan error, 1)
	go func() { done <- Run(ctx, RunOptions{Root: root, Addr: "127.0.0.1:0", Out: &out, Err: errb}) }()
	select {
	case <-errb.written:
	case err := <-done:
		t.Fatalf("Run returned before printing: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("Run printed nothing on stderr within 10 s")
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return within 10 s of its context's end")
	}
	re := regexp.MustCompile(`[0-9A-Z]{4}(-[0-9A-Z]{4}){3}`)
	if !re.MatchString(errb.buf.String()) || !strings.Contains(errb.buf.String(), "confirmation code") {
		t.Errorf("stderr %q has no confirmation code", errb.buf.String())
	}
	if re.MatchString(out.String()) {
		t.Errorf("stdout %q shows the code", out.String())
	}
}

// signalWriter closes written on its first write (Run's writes and the
// test's read are ordered by that and by Run's return).
type signalWriter struct {
	buf     bytes.Buffer
	once    sync.Once
	written chan struct{}
}

func (w *signalWriter) Write(p []byte) (int, error) {
	n, err := w.buf.Write(p)
	w.once.Do(func() { close(w.written) })
	return n, err
}

// TestExplainWithBrokenConfig: with a configuration that cannot be read
// whole, the explain is the guard's as the hooks judge: the fallback
// policy, tightened by what could be read, not an error.
func TestExplainWithBrokenConfig(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	t.Setenv("XDG_CONFIG_HOME", "")
	root := viewtest.Project(t)
	if err := os.WriteFile(filepath.Join(project.StateDir(root), "config.yaml"), []byte("guard: {enabled: maybe, verdicts: {git.push-force: deny}}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := newServer(t, root, "")
	w := do(s, "GET", "/api/explain?tool=shell&target=git+push+--force", nil)
	if m := decode(t, w); w.Code != 200 || m["verdict"] != "deny" || m["rule"] != "git.push-force" {
		t.Errorf("explain with a broken config: %d %v", w.Code, m)
	}
}
