package opencode

import (
	"encoding/json"
	"testing"
	"time"
)

func TestAddedLines(t *testing.T) {
	tests := []struct {
		name, args string
		want       int // added lines
	}{
		{"write", `{"filePath":"/p/a.ts","content":"a\nb\n"}`, 2},
		{"edit", `{"filePath":"/p/a.ts","oldString":"a","newString":"// x\na"}`, 1},
		{"multiedit", `{"filePath":"/p/a.ts","edits":[{"filePath":"/p/a.ts","oldString":"a","newString":"b"}]}`, 1},
		{"apply_patch", `{"patchText":"*** Begin Patch\n*** Add File: a.ts\n+a\n+b\n+c\n*** End Patch"}`, 3},
		{"read", `{"filePath":"/p/a.ts"}`, 0},
	}
	for _, tt := range tests {
		params := `{"directory":"/p","input":{"tool":"` + tt.name + `","sessionID":"s","callID":"c","args":` + tt.args + `},"output":{"title":"","output":"ok","metadata":{}}}`
		ev, err := Decode(MethodToolAfter, json.RawMessage(params), time.Unix(0, 0))
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		n := 0
		for _, f := range ev.Tool.Added {
			for i := range f.Lines {
				if f.IsNew(i) {
					n++
				}
			}
		}
		if n != tt.want {
			t.Errorf("%s: %d added lines, want %d (%+v)", tt.name, n, tt.want, ev.Tool.Added)
		}
	}
}
