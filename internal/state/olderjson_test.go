package state_test

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/anchors"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
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

// TestSalvageRaisesCounters: a damaged project record salvaged member by
// member has lost its counters; each feature's group raises its own past
// the ids it kept ([state.Salvager]), so that none is handed out twice.
func TestSalvageRaisesCounters(t *testing.T) {
	// The counters are missing, and "pruned" is damaged: the record is
	// salvaged.
	const bad = `{"v":2,"pruned":"oops","todos":[{"id":7,"level":"task","title":"x","status":"pending"},{"id":4,"level":"task","title":"y","status":"pending"}],` +
		`"anchors":[{"id":5,"kind":"fact","priority":"high","text":"a"}],` +
		`"governance":{"expansions":[{"id":9,"intent":"i","paths":["p"],"status":"pending"}]}}`
	st := store.Open(filepath.Join(t.TempDir(), ".atreides"))
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		if err := tx.PutRecord("project", "project", []byte(bad)); err != nil {
			return err
		}
		return state.UpdateProject(tx, func(p *state.Project) error {
			if p.Salvaged == nil {
				t.Error("the record was not salvaged")
			}
			for _, c := range []struct {
				name      string
				got, want int
			}{
				{"todos", todos.Key.Read(p).Next, 7},
				{"anchors", anchors.Key.Read(p).Next, 5},
				{"scope requests", govstate.Key.Read(p).NextExpansion, 9},
			} {
				if c.got != c.want {
					t.Errorf("%s: counter %d after the salvage, want %d", c.name, c.got, c.want)
				}
			}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
}
