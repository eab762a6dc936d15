package session

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/atreides-dev/atreides/internal/agenttodos"
)

// Every host's whole-list todo tool is mirrored whole; a per-item tool's
// call is one change, told apart by its input.
func TestParseTodoToolShapes(t *testing.T) {
	tests := []struct {
		name, input string
		whole       bool
		want        []string
		item        *itemChange
	}{
		{"claude TodoWrite", `{"todos":[{"content":"a","status":"pending","activeForm":"doing a"},{"content":"b","status":"completed"}]}`, true, []string{"a", "b"}, nil},
		{"opencode todowrite", `{"todos":[{"content":"x","status":"in_progress","priority":"high","id":"1"}]}`, true, []string{"x"}, nil},
		{"gemini write_todos", `{"todos":[{"description":"y","status":"pending"}]}`, true, []string{"y"}, nil},
		{"empty list clears", `{"todos":[]}`, true, nil, nil},
		{"claude TaskCreate", `{"subject":" z ","description":"do z","activeForm":"doing z"}`, false, nil, &itemChange{Subject: "z", Status: "pending", Active: "doing z"}},
		{"claude TaskUpdate", `{"taskId":"4","status":"completed"}`, false, nil, &itemChange{ID: "4", Status: "completed"}},
		{"claude TaskUpdate rename", `{"taskId":"4","subject":"new name"}`, false, nil, &itemChange{ID: "4", Subject: "new name"}},
		{"TaskCreate without a subject", `{"description":"no title"}`, false, nil, nil},
		{"no input", ``, false, nil, nil},
	}
	for _, tt := range tests {
		ch, err := parseTodoTool(json.RawMessage(tt.input))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got []string
		for _, td := range ch.todos {
			got = append(got, td.Content)
		}
		if ch.whole != tt.whole || !reflect.DeepEqual(got, tt.want) || !reflect.DeepEqual(ch.item, tt.item) {
			t.Errorf("%s: got whole=%v todos=%v item=%+v, want whole=%v %v %+v", tt.name, ch.whole, got, ch.item, tt.whole, tt.want, tt.item)
		}
	}
}

func TestApplyItem(t *testing.T) {
	base := []agenttodos.Todo{{ID: "1", Content: "one", Status: "pending"}, {Content: "listed", Status: "pending"}}
	tests := []struct {
		name   string
		ch     itemChange
		output string
		want   []agenttodos.Todo
	}{
		{"create takes the response's id", itemChange{Subject: "two", Status: "pending"}, `{"task":{"id":"2","subject":"two"}}`,
			append(clone(base), agenttodos.Todo{ID: "2", Content: "two", Status: "pending"})},
		{"create with an unreadable response", itemChange{Subject: "two", Status: "pending"}, `{"task":{"id":"2","sub…`,
			append(clone(base), agenttodos.Todo{ID: "?", Content: "two", Status: "pending"})},
		{"update status", itemChange{ID: "1", Status: "in_progress"}, `{"success":true}`,
			[]agenttodos.Todo{{ID: "1", Content: "one", Status: "in_progress"}, base[1]}},
		{"rename keeps the status", itemChange{ID: "1", Subject: "uno"}, `{"success":true}`,
			[]agenttodos.Todo{{ID: "1", Content: "uno", Status: "pending"}, base[1]}},
		{"delete", itemChange{ID: "1", Status: "deleted"}, `{"success":true}`, []agenttodos.Todo{base[1]}},
		{"failed update changes nothing", itemChange{ID: "1", Status: "completed"}, `{"success":false,"error":"Task not found"}`, base},
		{"unknown task without a subject", itemChange{ID: "7", Status: "completed"}, `{"success":true}`, base},
		{"unknown task with enough to list", itemChange{ID: "7", Subject: "seven", Status: "pending"}, `{"success":true}`,
			append(clone(base), agenttodos.Todo{ID: "7", Content: "seven", Status: "pending"})},
		{"an id used again is a new task", itemChange{Subject: "fresh", Status: "pending"}, `{"task":{"id":"1"}}`,
			[]agenttodos.Todo{{ID: "1", Content: "fresh", Status: "pending"}, base[1]}},
	}
	for _, tt := range tests {
		if got := applyItem(clone(base), tt.ch, tt.output); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s:\n got %+v\nwant %+v", tt.name, got, tt.want)
		}
	}
	// A whole list replaces the whole-list items and keeps the tasks.
	got := replaceWhole(clone(base), []agenttodos.Todo{{Content: "new", Status: "pending"}})
	if want := []agenttodos.Todo{base[0], {Content: "new", Status: "pending"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("replaceWhole = %+v, want %+v", got, want)
	}
}

func clone(ts []agenttodos.Todo) []agenttodos.Todo { return append([]agenttodos.Todo(nil), ts...) }
