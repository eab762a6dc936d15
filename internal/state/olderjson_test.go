package state_test

import (
	"reflect"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/todos"
)

// TestOlderJSONProject: a project record of the JSON encoding (version
// 1) decodes into the groups of the features that own them now, the
// todos' and the anchors' members at the top of the object and
// governance under its own, and the binary record written from it reads
// back the same.
func TestOlderJSONProject(t *testing.T) {
	const rec = `{"v":1,"next_id":2,"todos":[{"id":2,"level":"task","title":"x","status":"pending","created":"2026-11-20T09:30:00Z"}],` +
		`"next_anchor":3,"anchors":[{"id":3,"kind":"fact","priority":"high","text":"a"}],` +
		`"governance":{"locks":[{"intent":"i","session":"s","since":"2026-11-20T09:30:00Z","renewed":"2026-11-20T09:31:00Z"}],"next_expansion":4}}`
	p, err := state.DecodeProject([]byte(rec))
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	wantTodos := todos.Todos{Next: 2, List: []todos.Todo{{ID: 2, Level: todos.Task, Title: "x", Status: todos.Pending, Created: t0}}}
	wantAnchors := anchors.Anchors{Next: 3, List: []anchors.Anchor{{ID: 3, Kind: "fact", Priority: anchors.High, Text: "a"}}}
	wantGov := govstate.Governance{NextExpansion: 4, Locks: []govstate.IntentLock{{Intent: "i", Session: "s", Since: t0, Renewed: t0.Add(time.Minute)}}}
	check := func(from string, p *state.Project) {
		t.Helper()
		if got := *todos.Key.Read(p); !reflect.DeepEqual(got, wantTodos) {
			t.Errorf("%s: todos %+v, want %+v", from, got, wantTodos)
		}
		if got := *anchors.Key.Read(p); !reflect.DeepEqual(got, wantAnchors) {
			t.Errorf("%s: anchors %+v, want %+v", from, got, wantAnchors)
		}
		if got := *govstate.Key.Read(p); !reflect.DeepEqual(got, wantGov) {
			t.Errorf("%s: governance %+v, want %+v", from, got, wantGov)
		}
	}
	check("JSON", p)
	back, err := state.DecodeProject(state.EncodeProject(p))
	if err != nil {
		t.Fatal(err)
	}
	check("binary", back)
}
