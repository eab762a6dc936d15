package session

import (
	"encoding/json"
	"testing"
)

// Every host's whole-list todo tool is mirrored; a one-task tool is not a
// list and must not wipe the mirror.
func TestParseTodoWriteShapes(t *testing.T) {
	tests := []struct {
		name, input string
		whole       bool
		want        []string
	}{
		{"claude TodoWrite", `{"todos":[{"content":"a","status":"pending","activeForm":"doing a"},{"content":"b","status":"completed"}]}`, true, []string{"a", "b"}},
		{"opencode todowrite", `{"todos":[{"content":"x","status":"in_progress","priority":"high","id":"1"}]}`, true, []string{"x"}},
		{"gemini write_todos", `{"todos":[{"description":"y","status":"pending"}]}`, true, []string{"y"}},
		{"empty list clears", `{"todos":[]}`, true, nil},
		{"claude TaskCreate is one task", `{"subject":"z","description":"do z"}`, false, nil},
	}
	for _, tt := range tests {
		todos, whole, err := parseTodoWrite(json.RawMessage(tt.input))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		var got []string
		for _, td := range todos {
			got = append(got, td.Content)
		}
		if whole != tt.whole || len(got) != len(tt.want) || (len(got) > 0 && got[0] != tt.want[0]) {
			t.Errorf("%s: whole=%v todos=%v, want whole=%v %v", tt.name, whole, got, tt.whole, tt.want)
		}
	}
}
