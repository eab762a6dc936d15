package collector

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/atreides-dev/atreides/internal/event"
)

var t0 = time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)

func entry(src, id string, p event.Priority, text string) event.Entry {
	return event.Entry{Source: src, ID: id, Priority: p, Text: text}
}

func texts(es []event.Entry) string {
	var out []string
	for _, e := range es {
		out = append(out, e.Text)
	}
	return strings.Join(out, "|")
}

func TestDeliver(t *testing.T) {
	tests := []struct {
		name    string
		pending []PendingEntry
		fresh   []event.Entry
		budget  int
		want    string // carried texts, in order
		waiting string // texts left pending for the agent, in order
	}{
		{name: "priority then registration",
			fresh:  []event.Entry{entry("a", "1", event.Low, "low"), entry("b", "1", event.High, "high"), entry("c", "1", event.Low, "low2"), entry("d", "", event.Critical, "crit")},
			budget: 1000, want: "crit|high|low|low2"},
		{name: "pending first among equals",
			pending: []PendingEntry{{Source: "old", Priority: int(event.Normal), Text: "older", Time: t0.Add(-time.Minute)}},
			fresh:   []event.Entry{entry("new", "", event.Normal, "newer")},
			budget:  1000, want: "older|newer"},
		{name: "same key: newest text, first place, strongest priority",
			pending: []PendingEntry{{Source: "phase", Priority: int(event.High), Text: "phase: exploration"}},
			fresh:   []event.Entry{entry("x", "", event.Normal, "x"), entry("phase", "", event.Normal, "phase: implementation")},
			budget:  1000, want: "phase: implementation|x"},
		{name: "no carrier: all waits, in order",
			fresh:  []event.Entry{entry("a", "", event.Low, "a"), entry("b", "", event.High, "b")},
			budget: 0, waiting: "b|a"},
		{name: "what does not fit waits whole",
			fresh:  []event.Entry{entry("a", "", event.High, strings.Repeat("a", 60)), entry("b", "", event.Normal, strings.Repeat("b", 60)), entry("c", "", event.Low, "c")},
			budget: 100, want: strings.Repeat("a", 60) + "|c", waiting: strings.Repeat("b", 60)},
		{name: "other agents' entries stay",
			pending: []PendingEntry{{Agent: "sub1", Source: "rules", ID: "x", Text: "for the subagent"}},
			fresh:   []event.Entry{entry("a", "", event.Normal, "lead")},
			budget:  1000, want: "lead"},
		{name: "standing context that does not fit does not wait",
			fresh:  []event.Entry{{Source: "session", ID: "start", Priority: event.High, Text: "identity", Standing: true}, entry("a", "", event.Low, "a")},
			budget: 3, want: "a"},
		{name: "standing context waits on an event that carries nothing",
			fresh:  []event.Entry{{Source: "session", ID: "start", Priority: event.High, Text: "identity", Standing: true}, entry("a", "", event.Low, "a")},
			budget: 0, waiting: "identity|a"},
		{name: "empty texts are nothing",
			fresh:  []event.Entry{entry("a", "", event.Normal, "")},
			budget: 1000},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cs := &State{Pending: tt.pending}
			r := Deliver(cs, "", tt.fresh, tt.budget, t0)
			if got := texts(r.Carried); got != tt.want {
				t.Errorf("carried %q, want %q", got, tt.want)
			}
			var waiting []string
			for _, p := range cs.Pending {
				if p.Agent == "" {
					waiting = append(waiting, p.Text)
				}
			}
			if got := strings.Join(waiting, "|"); got != tt.waiting {
				t.Errorf("waiting %q, want %q", got, tt.waiting)
			}
			if n := len(event.JoinEntries(r.Carried)); n > tt.budget {
				t.Errorf("carried %d bytes over the cap %d", n, tt.budget)
			}
		})
	}
}

// TestOnce: a once-only key is delivered once, whether registered again
// by the same event or a later one, and again after a compaction.
func TestOnce(t *testing.T) {
	cs := &State{}
	rules := event.Entry{Source: "rules", ID: "pkg/AGENTS.md", Priority: event.Normal, Text: "pkg rules", Once: true}
	if r := Deliver(cs, "", []event.Entry{rules, rules}, 1000, t0); texts(r.Carried) != "pkg rules" {
		t.Fatalf("first: %q", texts(r.Carried))
	}
	if r := Deliver(cs, "", []event.Entry{rules}, 1000, t0); len(r.Carried) != 0 {
		t.Fatalf("delivered twice: %q", texts(r.Carried))
	}
	Forget(cs)
	if r := Deliver(cs, "", []event.Entry{rules}, 1000, t0); len(r.Carried) != 1 {
		t.Fatal("not delivered again after a compaction")
	}
	// One that waited is marked only when it goes.
	cs = &State{}
	Deliver(cs, "", []event.Entry{rules}, 0, t0)
	if len(cs.Delivered) != 0 || len(cs.Pending) != 1 {
		t.Fatalf("waiting entry marked delivered: %+v", cs)
	}
	if r := Deliver(cs, "", nil, 1000, t0); texts(r.Carried) != "pkg rules" || len(cs.Pending) != 0 || !cs.WasDelivered(rules.Key()) {
		t.Fatalf("waiting once-entry: carried %q, state %+v", texts(r.Carried), cs)
	}
}

// TestTooLongAlone: an entry longer than the whole cap would wait for ever;
// it goes cut at a line, and only when it is the first to go.
func TestTooLongAlone(t *testing.T) {
	big := strings.Repeat("line of context\n", 1000)
	cs := &State{}
	r := Deliver(cs, "", []event.Entry{entry("a", "", event.High, "first"), entry("big", "", event.Normal, big)}, 1000, t0)
	if texts(r.Carried) != "first" || len(cs.Pending) != 1 || r.Cut {
		t.Fatalf("carried %q, pending %d", texts(r.Carried), len(cs.Pending))
	}
	r = Deliver(cs, "", nil, 1000, t0)
	got := texts(r.Carried)
	if !r.Cut || len(got) > 1000 || !strings.HasSuffix(got, cutNote) || strings.Contains(got, "line of con\n") {
		t.Fatalf("cut %v, len %d: %q", r.Cut, len(got), got[max(0, len(got)-80):])
	}
}

func TestQueueBounds(t *testing.T) {
	cs := &State{}
	dropped := 0
	for i := range MaxPending + 5 {
		p := event.Low
		if i == 0 {
			p = event.Critical
		}
		dropped += Deliver(cs, "", []event.Entry{entry("s", string(rune('a'+i)), p, "x")}, 0, t0).Dropped
	}
	if len(cs.Pending) != MaxPending || dropped != 5 {
		t.Fatalf("%d waiting, %d dropped", len(cs.Pending), dropped)
	}
	if cs.Pending[0].Priority != int(event.Critical) {
		t.Error("the critical entry was dropped before low ones")
	}
	big := strings.Repeat("y", MaxPendingBytes/2+1)
	Deliver(cs, "", []event.Entry{entry("big", "1", event.Normal, big), entry("big", "2", event.Normal, big)}, 0, t0)
	n := 0
	for _, p := range cs.Pending {
		n += len(p.Text)
	}
	if n > MaxPendingBytes {
		t.Fatalf("%d bytes waiting", n)
	}
}

// TestAgents: each agent has its own context: a once-only entry given to
// a subagent is still due to the lead agent; a stopped subagent's waiting
// entries and once-only keys are forgotten.
func TestAgents(t *testing.T) {
	cs := &State{}
	once := event.Entry{Source: "rules", ID: "x", Text: "rules", Once: true}
	if r := Deliver(cs, "sub", []event.Entry{once}, 1000, t0); len(r.Carried) != 1 {
		t.Fatal("subagent not given the entry")
	}
	if r := Deliver(cs, "", []event.Entry{once}, 1000, t0); len(r.Carried) != 1 {
		t.Fatal("lead agent not given what the subagent was")
	}
	Deliver(cs, "sub", []event.Entry{entry("rules", "y", event.Normal, "sub rules")}, 0, t0)
	Deliver(cs, "", []event.Entry{entry("rules", "y", event.Normal, "lead rules")}, 0, t0)
	DropAgent(cs, "sub")
	if len(cs.Pending) != 1 || cs.Pending[0].Agent != "" || len(cs.Delivered) != 1 {
		t.Fatalf("state %+v", cs)
	}
}

// TestDelivered: a handler asks per agent, as the collector remembers.
func TestDelivered(t *testing.T) {
	cs := &State{}
	once := event.Entry{Source: "rules", ID: "x", Text: "rules", Once: true}
	Deliver(cs, "sub", []event.Entry{once}, 1000, t0)
	if !Delivered(cs, "sub", once) || Delivered(cs, "", once) {
		t.Fatalf("delivered to sub: %v, to the lead: %v", Delivered(cs, "sub", once), Delivered(cs, "", once))
	}
}

func TestCutAtLineKeepsRunes(t *testing.T) {
	s := strings.Repeat("é", 100)
	for n := range 50 {
		if got := cutAtLine(s, n); !utf8.ValidString(got) || len(got) > n {
			t.Fatalf("cutAtLine(_, %d) = %q", n, got)
		}
	}
}
