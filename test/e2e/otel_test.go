package e2e

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	fa "github.com/atreides-dev/atreides/test/e2e/fakeanthropic"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
	"google.golang.org/protobuf/proto"
)

// otlpReceiver is a collector on loopback: it decodes the OTLP/HTTP
// protobuf trace requests it gets and keeps their spans.
type otlpReceiver struct {
	mu      sync.Mutex
	spans   []*tracepb.Span
	metrics int
}

func (r *otlpReceiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	r.mu.Lock()
	defer r.mu.Unlock()
	switch req.URL.Path {
	case "/v1/traces":
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
	case "/v1/metrics":
		r.metrics++
	default:
		http.NotFound(w, req)
	}
}

func spanAttrs(s *tracepb.Span) map[string]string {
	m := map[string]string{}
	for _, a := range s.Attributes {
		m[a.Key] = a.Value.GetStringValue()
	}
	return m
}

// A real Claude Code session with a subagent, otel on: 'atreides otel
// export' sends the session's spans to a collector on loopback, one trace,
// the events under the session's root span and the subagent's under its
// delegation's span, with host, event, tool and verdict on each; every
// decision of the audit trail has its span.
func TestOtelExportClaudeSession(t *testing.T) {
	requireAtreides(t)
	agent := fa.ToolUse{Name: "Agent", Input: map[string]any{
		"description": "look around", "prompt": "SUBTASK: list the files", "subagent_type": "general-purpose", "run_in_background": false}}
	p := NewProject(t, fa.Script{
		Steps: []fa.Step{fa.Call(fa.Bash("ls")), fa.Call(agent), fa.Text("Done.")},
		Agents: []fa.AgentScript{{
			Name: "sub", Match: fa.FirstUserMatches(`SUBTASK:`),
			Steps: []fa.Step{fa.Call(fa.Bash("pwd")), fa.Text("Listed.")},
		}},
	})
	p.WriteFile(".atreides/config.yaml", "otel:\n  enabled: true\n", 0o644)
	p.Atreides("trust", "--yes") // otel settings send data out: the user trusts them
	p.InstallAtreides()
	p.RunClaude("look around", RunOpts{})
	if !p.Exists(".atreides/spans.jsonl") {
		t.Fatalf("no span spool after the session; requests:\n%s", p.Fake.Summary())
	}

	rc := &otlpReceiver{}
	srv := httptest.NewServer(rc)
	defer srv.Close()
	p.Atreides("otel", "export", "--endpoint", srv.URL)
	rc.mu.Lock()
	defer rc.mu.Unlock()
	if len(rc.spans) == 0 || rc.metrics == 0 {
		t.Fatalf("the receiver got %d spans, %d metrics requests", len(rc.spans), rc.metrics)
	}

	var root *tracepb.Span
	byID := map[string]*tracepb.Span{}
	trace := rc.spans[0].TraceId
	for _, s := range rc.spans {
		byID[hex.EncodeToString(s.SpanId)] = s
		if !bytes.Equal(s.TraceId, trace) {
			t.Errorf("%s: trace %x, want the session's %x", s.Name, s.TraceId, trace)
		}
		if s.Name == "atreides.session" {
			root = s
		}
	}
	if root == nil || len(root.ParentSpanId) != 0 {
		t.Fatalf("no root span for the session; spans: %s", spanNames(rc.spans))
	}
	type key struct{ event, tool, verdict string }
	spansBy := map[key]int{}
	subEvents := 0
	for _, s := range rc.spans {
		a := spanAttrs(s)
		parent := byID[hex.EncodeToString(s.ParentSpanId)]
		switch {
		case s == root:
		case s.Name == "atreides.subagent":
			if parent != root || a["atreides.agent_id"] == "" {
				t.Errorf("delegation span %v: parent %x, want the root", a, s.ParentSpanId)
			}
		case a["atreides.agent_id"] != "":
			subEvents++
			if parent == nil || parent.Name != "atreides.subagent" || spanAttrs(parent)["atreides.agent_id"] != a["atreides.agent_id"] {
				t.Errorf("subagent event %s: parent %x is not its delegation's span", s.Name, s.ParentSpanId)
			}
		default:
			if parent != root {
				t.Errorf("event %s: parent %x, want the root %x", s.Name, s.ParentSpanId, root.SpanId)
			}
		}
		if s != root && s.Name != "atreides.subagent" {
			if a["atreides.host"] != "claude" || a["atreides.event"] == "" || a["atreides.verdict"] == "" || s.Name != "atreides."+a["atreides.event"] {
				t.Errorf("event span %s: attributes %v", s.Name, a)
			}
			spansBy[key{a["atreides.event"], a["atreides.tool"], a["atreides.verdict"]}]++
		}
	}
	if subEvents == 0 {
		t.Errorf("no span of the subagent's events; spans: %s", spanNames(rc.spans))
	}

	// Every decision the audit trail holds has its span.
	records := map[key]int{}
	sc := bufio.NewScanner(strings.NewReader(p.Atreides("log", "--json")))
	for sc.Scan() {
		var r struct{ Event, Tool, Verdict string }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatalf("atreides log --json: %v: %s", err, sc.Bytes())
		}
		records[key{r.Event, r.Tool, r.Verdict}]++
	}
	if len(records) == 0 {
		t.Fatal("the audit trail is empty")
	}
	for k, n := range records {
		if spansBy[k] < n {
			t.Errorf("%d audit records %v, %d spans", n, k, spansBy[k])
		}
	}

	t.Logf("%d spans (%d of the subagent's events), %d kinds of audit records", len(rc.spans), subEvents, len(records))

	// A second export sends nothing again.
	before := len(rc.spans)
	rc.mu.Unlock()
	p.Atreides("otel", "export", "--endpoint", srv.URL)
	rc.mu.Lock()
	if len(rc.spans) != before {
		t.Errorf("a second export sent %d spans again", len(rc.spans)-before)
	}
}

func spanNames(ss []*tracepb.Span) string {
	var b strings.Builder
	for _, s := range ss {
		fmt.Fprintf(&b, "\n  %s %x parent %x %v", s.Name, s.SpanId, s.ParentSpanId, spanAttrs(s))
	}
	return b.String()
}
