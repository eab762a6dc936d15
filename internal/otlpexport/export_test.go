package otlpexport

import (
	"bytes"
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/spans"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// receiver is an OTLP/HTTP collector on loopback that decodes what it
// gets; fail makes the next n trace requests answer 503.
type receiver struct {
	mu      sync.Mutex
	spans   []*tracepb.Span
	metrics []*metricspb.MetricsData
	fail    int
	tries   int
	headers http.Header
}

func (r *receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	defer r.mu.Unlock()
	body, _ := io.ReadAll(req.Body)
	if req.Header.Get("Content-Type") != "application/x-protobuf" {
		http.Error(w, "content type", http.StatusUnsupportedMediaType)
		return
	}
	r.headers = req.Header.Clone()
	switch req.URL.Path {
	case "/otlp/v1/traces":
		r.tries++
		if r.fail > 0 {
			r.fail--
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		var td tracepb.TracesData
		if err := proto.Unmarshal(body, &td); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		for _, rs := range td.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				r.spans = append(r.spans, ss.Spans...)
			}
		}
	case "/otlp/v1/metrics":
		var md metricspb.MetricsData
		if err := proto.Unmarshal(body, &md); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		r.metrics = append(r.metrics, &md)
	default:
		http.NotFound(w, req)
	}
	w.Header().Set("Content-Type", "application/x-protobuf")
}

func (r *receiver) names() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var n []string
	for _, s := range r.spans {
		n = append(n, s.Name)
	}
	return n
}

type testProject struct {
	root string
	sp   interface{ AppendLine([]byte) error }
}

func newProject(t *testing.T) *testProject {
	root := t.TempDir()
	return &testProject{root: root, sp: spans.Spool(filepath.Join(root, ".atreides"), nil)}
}

var t0 = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func (p *testProject) event(t *testing.T, ev *event.Event, d *event.Decision, at int) {
	t.Helper()
	if err := p.sp.AppendLine(spans.New(p.root, ev, d, t0.Add(time.Duration(at)*time.Second), time.Millisecond).Line()); err != nil {
		t.Fatal(err)
	}
}

func (p *testProject) export(t *testing.T, url string) (string, error) {
	var errs bytes.Buffer
	err := Run(context.Background(), Options{
		Root: p.root, Endpoint: url + "/otlp", Err: &errs,
		Getenv: func(k string) string {
			if k == "OTEL_EXPORTER_OTLP_HEADERS" {
				return "x-api-key=s3cr%3Dt"
			}
			return ""
		},
		sleep: func(context.Context, time.Duration) error { return nil },
	})
	return errs.String(), err
}

func session(p *testProject, t *testing.T) {
	ev := func(k event.Kind, agent string) *event.Event {
		return &event.Event{Kind: k, Host: "claude", HostEvent: string(k), SessionID: "s1", AgentID: agent, Tool: event.Tool{Raw: "Bash"}}
	}
	p.event(t, ev(event.SessionStart, ""), &event.Decision{}, 0)
	p.event(t, ev(event.PreTool, ""), &event.Decision{Verdict: event.Deny, Rule: "git.reset-hard"}, 1)
	p.event(t, ev(event.PreTool, "a1"), &event.Decision{Verdict: event.Allow, Rule: "r"}, 2)
	p.event(t, ev(event.SubagentStop, "a1"), &event.Decision{}, 3)
	p.event(t, ev(event.SessionEnd, ""), &event.Decision{}, 4)
}

// A session's spans share its trace; events hang under the root, the
// subagent's under its delegation, which hangs under the root; the scope
// spans arrive with the events that close them; metrics count them.
func TestExportLinks(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	p := newProject(t)
	session(p, t)
	if msg, err := p.export(t, srv.URL); err != nil {
		t.Fatal(err, msg)
	}
	byName := map[string][]*tracepb.Span{}
	ids := map[string]*tracepb.Span{}
	for _, s := range rc.spans {
		byName[s.Name] = append(byName[s.Name], s)
		ids[hex.EncodeToString(s.SpanId)] = s
		if hex.EncodeToString(s.TraceId) != spans.TraceID(p.root, "s1") {
			t.Errorf("%s: trace %x", s.Name, s.TraceId)
		}
	}
	if len(rc.spans) != 7 || len(byName["atreides.session"]) != 1 || len(byName["atreides.subagent"]) != 1 || len(byName["atreides.pre_tool"]) != 2 {
		t.Fatalf("spans %v", rc.names())
	}
	root, sub := byName["atreides.session"][0], byName["atreides.subagent"][0]
	if len(root.ParentSpanId) != 0 || !bytes.Equal(sub.ParentSpanId, root.SpanId) {
		t.Fatalf("scopes: root parent %x, subagent parent %x", root.ParentSpanId, sub.ParentSpanId)
	}
	if root.StartTimeUnixNano != uint64(t0.UnixNano()) || root.EndTimeUnixNano != uint64(t0.Add(4*time.Second+time.Millisecond).UnixNano()) {
		t.Errorf("root runs %d..%d", root.StartTimeUnixNano, root.EndTimeUnixNano)
	}
	for _, s := range rc.spans {
		a := attrs(s)
		switch {
		case s == root:
		case s == sub:
			if a["atreides.agent_id"] != "a1" {
				t.Errorf("subagent attrs %v", a)
			}
		case a["atreides.agent_id"] == "a1":
			if !bytes.Equal(s.ParentSpanId, sub.SpanId) {
				t.Errorf("%s of the subagent: parent %x", s.Name, s.ParentSpanId)
			}
		default:
			if !bytes.Equal(s.ParentSpanId, root.SpanId) {
				t.Errorf("%s: parent %x", s.Name, s.ParentSpanId)
			}
		}
		if s != root && s != sub && (a["atreides.host"] != "claude" || a["atreides.event"] == "" || a["atreides.verdict"] == "" || a["atreides.tool"] != "Bash") {
			t.Errorf("%s: attributes %v", s.Name, a)
		}
	}
	if got := rc.headers.Get("x-api-key"); got != "s3cr=t" {
		t.Errorf("header %q", got)
	}
	if len(rc.metrics) == 0 {
		t.Fatal("no metrics")
	}
	ms := rc.metrics[len(rc.metrics)-1].ResourceMetrics[0].ScopeMetrics[0].Metrics
	var denies int64
	for _, dp := range ms[0].GetSum().DataPoints {
		if attrsOf(dp.Attributes)["atreides.verdict"] == "deny" {
			denies += dp.GetAsInt()
		}
	}
	if h := ms[1].GetHistogram().DataPoints[0]; denies != 1 || h.Count != 5 || len(h.BucketCounts) != len(h.ExplicitBounds)+1 {
		t.Errorf("metrics: %d denies, histogram %v", denies, h)
	}
}

// A 503 is retried and nothing is lost; a second run sends nothing again;
// spans written after it are sent by the next run, alone.
func TestExportRetriesAndResumes(t *testing.T) {
	rc := &receiver{fail: 2}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	p := newProject(t)
	session(p, t)
	if msg, err := p.export(t, srv.URL); err != nil {
		t.Fatal(err, msg)
	}
	if rc.tries != 3 || len(rc.spans) != 7 {
		t.Fatalf("%d tries, %d spans", rc.tries, len(rc.spans))
	}
	if msg, err := p.export(t, srv.URL); err != nil || len(rc.spans) != 7 {
		t.Fatalf("second run: %v %s, %d spans", err, msg, len(rc.spans))
	}
	p.event(t, &event.Event{Kind: event.PreTool, Host: "claude", SessionID: "s2"}, &event.Decision{}, 9)
	if msg, err := p.export(t, srv.URL); err != nil || len(rc.spans) != 8 || rc.spans[7].Name != "atreides.pre_tool" {
		t.Fatalf("third run: %v %s, %v", err, msg, rc.names())
	}
}

// When the collector stays down the run fails, the cursor stays, and the
// next run sends everything; the header's value is in no message.
func TestExportKeepsTheCursorOnFailure(t *testing.T) {
	rc := &receiver{fail: 100}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	p := newProject(t)
	session(p, t)
	msg, err := p.export(t, srv.URL)
	if err == nil || !strings.Contains(err.Error(), "503") || rc.tries != attemptsOnce {
		t.Fatalf("err %v after %d tries", err, rc.tries)
	}
	if strings.Contains(msg+err.Error(), "s3cr") {
		t.Fatal("a header value was printed")
	}
	rc.fail = 0
	if msg, err := p.export(t, srv.URL); err != nil || len(rc.spans) != 7 {
		t.Fatalf("after recovery: %v %s, %v", err, msg, rc.names())
	}
}

// The cursor follows its file through rotations; a torn last line waits
// for its end; damaged lines are skipped.
func TestExportAcrossRotationAndTornTail(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	root := t.TempDir()
	dir := filepath.Join(root, ".atreides")
	sp := spans.Spool(dir, func() int64 { return 5 * 64 << 10 })
	p := &testProject{root: root, sp: sp}
	ev := &event.Event{Kind: event.PreTool, Host: "claude", SessionID: "s1", Tool: event.Tool{Raw: "Bash"}}
	const first = 300
	for i := range first {
		p.event(t, ev, &event.Decision{}, i)
	}
	if _, err := p.export(t, srv.URL); err != nil {
		t.Fatal(err)
	}
	const second = 600 // more than a segment: the current file rotates
	for i := range second {
		p.event(t, ev, &event.Decision{}, first+i)
	}
	files, _ := sp.Files()
	if len(files) < 2 {
		t.Fatalf("no rotation: %v", files)
	}
	f, err := os.OpenFile(filepath.Join(dir, "spans.jsonl"), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintln(f, "not a span")
	last := spans.New(root, ev, &event.Decision{Rule: "torn"}, t0, 0).Line()
	f.Write(last[:20])
	msg, err := p.export(t, srv.URL)
	if err != nil || len(rc.spans) != first+second || !strings.Contains(msg, "skipped 1 ") {
		t.Fatalf("%v %q: %d spans, want %d", err, msg, len(rc.spans), first+second)
	}
	f.Write(last[20:])
	f.Close()
	if _, err := p.export(t, srv.URL); err != nil || len(rc.spans) != first+second+1 || attrs(rc.spans[first+second])["atreides.rule"] != "torn" {
		t.Fatalf("%v: %d spans", err, len(rc.spans))
	}
	seen := map[string]bool{}
	for _, s := range rc.spans {
		if id := hex.EncodeToString(s.SpanId); seen[id] {
			t.Fatalf("span %s sent twice", id)
		} else {
			seen[id] = true
		}
	}
}

func TestFollowStopsOnCancel(t *testing.T) {
	rc := &receiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	p := newProject(t)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- Run(ctx, Options{Root: p.root, Endpoint: srv.URL + "/otlp", Follow: true, Poll: 10 * time.Millisecond, Err: io.Discard, Getenv: func(string) string { return "" }})
	}()
	session(p, t)
	for range 500 {
		if len(rc.names()) == 7 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	cancel()
	if err := <-done; err != nil || len(rc.names()) != 7 {
		t.Fatalf("%v: %v", err, rc.names())
	}
}

func TestEndpointAndHeaders(t *testing.T) {
	for _, bad := range []string{"ftp://x", "http://", "localhost:4318", "http://h/?q=1"} {
		if _, err := ParseEndpoint(bad); err == nil {
			t.Errorf("ParseEndpoint(%q) passed", bad)
		}
	}
	if _, err := ParseEndpoint("http://u:pw@h:4318/p"); err != nil {
		t.Error(err)
	}
	if _, err := ParseEndpoint("gopher://u:topsecret@h"); err == nil || strings.Contains(err.Error(), "topsecret") {
		t.Errorf("error %v", err)
	}
	h, err := ParseHeaders(" a=1 , b=x%2Cy,")
	if err != nil || h["a"] != "1" || h["b"] != "x,y" || len(h) != 2 {
		t.Errorf("%v %v", h, err)
	}
	if _, err := ParseHeaders("k=%zzsecret"); err == nil || strings.Contains(err.Error(), "secret") {
		t.Errorf("error %v", err)
	}
}

func attrs(s *tracepb.Span) map[string]string { return attrsOf(s.Attributes) }

func attrsOf(kvs []*commonpb.KeyValue) map[string]string {
	m := map[string]string{}
	for _, a := range kvs {
		m[a.Key] = a.Value.GetStringValue()
	}
	return m
}

// Whatever OTEL_EXPORTER_OTLP_HEADERS holds, parsing it never panics and
// an error never quotes a value.
func FuzzParseHeaders(f *testing.F) {
	for _, s := range []string{"a=1,b=2", "k=%zz", "=v", "a", "a=b=c", " , "} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		h, err := ParseHeaders(s)
		if err != nil {
			for _, kv := range strings.Split(s, ",") {
				if _, v, ok := strings.Cut(kv, "="); ok && len(strings.TrimSpace(v)) > 3 && strings.Contains(err.Error(), strings.TrimSpace(v)) && !strings.Contains(kv[:strings.Index(kv, "=")], strings.TrimSpace(v)) {
					t.Fatalf("error %q quotes the value %q", err, v)
				}
			}
			return
		}
		for k := range h {
			if k == "" || k != strings.TrimSpace(k) {
				t.Fatalf("header name %q", k)
			}
		}
	})
}
