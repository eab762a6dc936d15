package otlpexport

import (
	"cmp"
	"encoding/hex"
	"encoding/json"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/atreides-dev/atreides/internal/spans"
	commonpb "go.opentelemetry.io/proto/otlp/common/v1"
	metricspb "go.opentelemetry.io/proto/otlp/metrics/v1"
	resourcepb "go.opentelemetry.io/proto/otlp/resource/v1"
	tracepb "go.opentelemetry.io/proto/otlp/trace/v1"
)

// scopeName is the instrumentation scope of everything atreides sends.
const scopeName = "atreides"

// Attribute keys.
const (
	attrHost      = "atreides.host"
	attrEvent     = "atreides.event"
	attrHostEvent = "atreides.host_event"
	attrTool      = "atreides.tool"
	attrVerdict   = "atreides.verdict"
	attrRule      = "atreides.rule"
	attrBlock     = "atreides.block"
	attrAgentID   = "atreides.agent_id"
	attrAgentType = "atreides.agent_type"
	attrSession   = "session.id"
	// Handler times are atreides.handler.<name>.us (under the state
	// lock) and atreides.handler.<name>.prepare_us (before it).
	attrHandler = "atreides.handler."
)

// Bounds of the latency histogram, in milliseconds.
var latencyBounds = []float64{0.1, 0.25, 0.5, 1, 2.5, 5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000}

// Metrics are cumulative totals kept in the cursor.
type Metrics struct {
	Start     int64            `json:"start"`     // Unix ns of the series' start
	Decisions map[string]int64 `json:"decisions"` // by verdict + "\x00" + rule
	Buckets   []uint64         `json:"buckets"`   // latency, len(latencyBounds)+1
	Count     uint64           `json:"count"`
	SumMS     float64          `json:"sum_ms"`
}

func (m *Metrics) add(s *spans.Span) {
	if m.Decisions == nil {
		m.Decisions = map[string]int64{}
	}
	if len(m.Buckets) != len(latencyBounds)+1 {
		m.Buckets = make([]uint64, len(latencyBounds)+1)
	}
	if m.Start == 0 || s.Start < m.Start {
		m.Start = s.Start
	}
	m.Decisions[s.Verdict+"\x00"+s.Rule]++
	ms := float64(s.End-s.Start) / 1e6
	m.Buckets[sort.SearchFloat64s(latencyBounds, ms)]++
	m.Count++
	m.SumMS += ms
}

// convert turns spooled lines into OTLP spans, opening and closing scopes
// and counting metrics in c; it skips lines that are no spans and says
// how many.
func convert(lines [][]byte, c *Cursor) (out []*tracepb.Span, damaged int) {
	if c.Scopes == nil {
		c.Scopes = map[string]*Scope{}
	}
	for _, l := range lines {
		var s spans.Span
		if json.Unmarshal(l, &s) != nil || len(s.Trace) != 32 || len(s.ID) != 16 {
			damaged++
			continue
		}
		sp := eventSpan(&s)
		if sp == nil {
			damaged++
			continue
		}
		out = append(out, sp)
		c.Metrics.add(&s)
		open(c, &s)
		if s.Closes {
			out = append(out, closeScope(c, s.Parent, s.End)...)
		}
	}
	prune(c)
	return out, damaged
}

// open notes the scopes of s the first time the exporter sees them.
func open(c *Cursor, s *spans.Span) {
	if _, ok := c.Scopes[s.Root]; !ok {
		c.Scopes[s.Root] = &Scope{Trace: s.Trace, Name: "atreides.session", Start: s.Start, Host: s.Host, Session: s.Session}
	}
	if s.Scope == spans.ScopeSubagent {
		if _, ok := c.Scopes[s.Parent]; !ok {
			c.Scopes[s.Parent] = &Scope{Trace: s.Trace, Parent: s.Root, Name: "atreides.subagent", Start: s.Start, Host: s.Host, Session: s.Session, AgentID: s.AgentID, Agent: s.AgentType}
		}
	}
}

// closeScope ends the scope id at end: its span, and those of the
// delegations still open under it (a session that ends ends them).
func closeScope(c *Cursor, id string, end int64) []*tracepb.Span {
	sc, ok := c.Scopes[id]
	if !ok {
		return nil
	}
	delete(c.Scopes, id)
	var out []*tracepb.Span
	for _, k := range slices.Sorted(maps.Keys(c.Scopes)) {
		if c.Scopes[k].Parent == id {
			out = append(out, closeScope(c, k, end)...)
		}
	}
	return append(out, scopeSpan(id, sc, end))
}

// prune drops the oldest open scopes beyond maxScopes.
func prune(c *Cursor) {
	if len(c.Scopes) <= maxScopes {
		return
	}
	ids := slices.SortedFunc(maps.Keys(c.Scopes), func(a, b string) int {
		return cmp.Compare(c.Scopes[a].Start, c.Scopes[b].Start)
	})
	for _, id := range ids[:len(ids)-maxScopes] {
		delete(c.Scopes, id)
	}
}

func eventSpan(s *spans.Span) *tracepb.Span {
	trace, err1 := hex.DecodeString(s.Trace)
	id, err2 := hex.DecodeString(s.ID)
	parent, err3 := hex.DecodeString(s.Parent)
	if err1 != nil || err2 != nil || err3 != nil {
		return nil
	}
	attrs := []*commonpb.KeyValue{
		str(attrHost, s.Host), str(attrEvent, s.Event), str(attrHostEvent, s.HostEvent),
		str(attrVerdict, s.Verdict), str(attrSession, s.Session),
	}
	for k, v := range map[string]string{attrTool: s.Tool, attrRule: s.Rule, attrAgentID: s.AgentID, attrAgentType: s.AgentType} {
		if v != "" {
			attrs = append(attrs, str(k, v))
		}
	}
	if s.Block {
		attrs = append(attrs, &commonpb.KeyValue{Key: attrBlock, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_BoolValue{BoolValue: true}}})
	}
	for _, h := range slices.Sorted(maps.Keys(s.HandleUS)) {
		attrs = append(attrs, num(attrHandler+h+".us", s.HandleUS[h]))
	}
	for _, h := range slices.Sorted(maps.Keys(s.PrepareUS)) {
		attrs = append(attrs, num(attrHandler+h+".prepare_us", s.PrepareUS[h]))
	}
	sortAttrs(attrs)
	return &tracepb.Span{
		TraceId: trace, SpanId: id, ParentSpanId: parent, Name: s.Name,
		Kind:              tracepb.Span_SPAN_KIND_INTERNAL,
		StartTimeUnixNano: uint64(s.Start), EndTimeUnixNano: uint64(max(s.End, s.Start)),
		Attributes: attrs,
	}
}

func scopeSpan(id string, sc *Scope, end int64) *tracepb.Span {
	trace, _ := hex.DecodeString(sc.Trace)
	sid, _ := hex.DecodeString(id)
	var parent []byte
	if sc.Parent != "" {
		parent, _ = hex.DecodeString(sc.Parent)
	}
	attrs := []*commonpb.KeyValue{str(attrHost, sc.Host), str(attrSession, sc.Session)}
	if sc.AgentID != "" {
		attrs = append(attrs, str(attrAgentID, sc.AgentID))
	}
	if sc.Agent != "" {
		attrs = append(attrs, str(attrAgentType, sc.Agent))
	}
	sortAttrs(attrs)
	return &tracepb.Span{
		TraceId: trace, SpanId: sid, ParentSpanId: parent, Name: sc.Name,
		Kind:              tracepb.Span_SPAN_KIND_INTERNAL,
		StartTimeUnixNano: uint64(sc.Start), EndTimeUnixNano: uint64(max(end, sc.Start)),
		Attributes: attrs,
	}
}

func str(k, v string) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_StringValue{StringValue: v}}}
}

func num(k string, v int64) *commonpb.KeyValue {
	return &commonpb.KeyValue{Key: k, Value: &commonpb.AnyValue{Value: &commonpb.AnyValue_IntValue{IntValue: v}}}
}

func sortAttrs(a []*commonpb.KeyValue) {
	slices.SortFunc(a, func(x, y *commonpb.KeyValue) int { return strings.Compare(x.Key, y.Key) })
}

// resource describes the sender.
func resource(project string) *resourcepb.Resource {
	return &resourcepb.Resource{Attributes: []*commonpb.KeyValue{
		str("service.name", "atreides"), str("atreides.project", project),
	}}
}

// tracesData is the body of a /v1/traces request. TracesData has the
// wire form of ExportTraceServiceRequest (both are resource_spans = 1),
// and the collector's package would link gRPC into the exporter.
func tracesData(project string, ss []*tracepb.Span) *tracepb.TracesData {
	return &tracepb.TracesData{ResourceSpans: []*tracepb.ResourceSpans{{
		Resource:   resource(project),
		ScopeSpans: []*tracepb.ScopeSpans{{Scope: &commonpb.InstrumentationScope{Name: scopeName}, Spans: ss}},
	}}}
}

// metricsData is the body of a /v1/metrics request (MetricsData has the
// wire form of ExportMetricsServiceRequest), the totals at now.
func metricsData(project string, m *Metrics, now int64) *metricspb.MetricsData {
	var points []*metricspb.NumberDataPoint
	for _, k := range slices.Sorted(maps.Keys(m.Decisions)) {
		verdict, rule, _ := strings.Cut(k, "\x00")
		attrs := []*commonpb.KeyValue{str(attrVerdict, verdict)}
		if rule != "" {
			attrs = append(attrs, str(attrRule, rule))
		}
		points = append(points, &metricspb.NumberDataPoint{
			Attributes: attrs, StartTimeUnixNano: uint64(m.Start), TimeUnixNano: uint64(now),
			Value: &metricspb.NumberDataPoint_AsInt{AsInt: m.Decisions[k]},
		})
	}
	sum := m.SumMS
	return &metricspb.MetricsData{ResourceMetrics: []*metricspb.ResourceMetrics{{
		Resource: resource(project),
		ScopeMetrics: []*metricspb.ScopeMetrics{{
			Scope: &commonpb.InstrumentationScope{Name: scopeName},
			Metrics: []*metricspb.Metric{
				{
					Name: "atreides.decisions", Unit: "{decision}", Description: "hook events decided, by verdict and rule",
					Data: &metricspb.Metric_Sum{Sum: &metricspb.Sum{
						AggregationTemporality: metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE,
						IsMonotonic:            true, DataPoints: points,
					}},
				},
				{
					Name: "atreides.hook.duration", Unit: "ms", Description: "the engine's time on one hook event",
					Data: &metricspb.Metric_Histogram{Histogram: &metricspb.Histogram{
						AggregationTemporality: metricspb.AggregationTemporality_AGGREGATION_TEMPORALITY_CUMULATIVE,
						DataPoints: []*metricspb.HistogramDataPoint{{
							StartTimeUnixNano: uint64(m.Start), TimeUnixNano: uint64(now),
							Count: m.Count, Sum: &sum, BucketCounts: m.Buckets, ExplicitBounds: latencyBounds,
						}},
					}},
				},
			},
		}},
	}}}
}
