package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"testing"
)

// sessionV1Record is a session record exactly as atreides wrote it with
// encoding version 1 (produced by that release's Encode; do not edit).
const sessionV1Record = `{"v":1,"id":"sess-v1","host":"claude","started":"2026-11-20T09:30:00Z","updated":"2026-11-20T10:30:00Z","cwd":"/home/u/p","transcript":"/home/u/.claude/projects/p/sess-v1.jsonl","counters":{"events":12,"prompts":2,"tool_calls":7,"denied":1,"asked":0,"failed":2,"stops":3,"compacts":1,"escalations":1},"history":[{"t":"2026-11-20T09:30:00Z","id":"tu1","tool":"shell","raw":"Bash","summary":"go test ./...","outcome":"failed","ms":900}],"agents":[{"id":"ag1","type":"Explore","started":"2026-11-20T09:30:00Z"}],"stop_blocks":2,"phase":"implementation","phase_calls":4,"transitions":[{"from":"","to":"exploration","cause":"read x.go","t":"2026-11-20T09:30:00Z"},{"from":"exploration","to":"implementation","cause":"edit x.go","t":"2026-11-20T09:31:00Z"}],"strikes":[{"tool":"shell","target":"go test ./...","count":1,"class":"test-failure","errors":[{"class":"test-failure","excerpt":"--- FAIL: TestX","t":"2026-11-20T09:30:00Z"}],"last":"2026-11-20T09:30:00Z"}],"agent_todos":[{"content":"write tests","status":"in_progress","active":"Writing tests"}],"stop":{"pending":1,"done":2,"fp":"00ff","stagnant":1,"last":"2026-11-20T09:30:00Z","gave_up":"x"},"snapshot":{"t":"2026-11-20T09:30:00Z","trigger":"auto","phase":"implementation","todos":["#1 a"],"delivered":true},"interrupted":true,"governance":{"agents":[{"id":"ag1","type":"Explore","depth":1,"started":"2026-11-20T09:30:00Z"}]}}`

func TestDecodeSessionVersions(t *testing.T) {
	for _, tc := range []struct {
		name, rec string
		newer     bool
		fails     bool
	}{
		{"v2", `{"v":2,"id":"a","host":"h","started":"2026-01-01T00:00:00Z","updated":"2026-01-01T00:00:00Z","counters":{}}`, false, false},
		{"v not first", `{"id":"a","v":2,"phase":{"current":"intent"}}`, false, false},
		{"no version is v1", `{"id":"a","phase":"intent"}`, false, false},
		{"newer", `{"v":4,"id":"a"}`, true, true},
		{"newer binary", "\xa7S\x04\x00\x01\x00\x7f", true, true},
		{"binary, wrong kind", "\xa7P\x03\x7f", false, true},
		{"binary, cut in a section", "\xa7S\x03\x00\x10abc", false, true},
		{"newer, v not first", `{"id":"a","v":30}`, true, true},
		{"truncated", `{"v":2,"id":"a","hist`, false, true},
		{"wrong type", `{"v":2,"id":7}`, false, true},
		{"not json", "\x00\x01garbage", false, true},
	} {
		_, err := DecodeSession([]byte(tc.rec))
		if (err != nil) != tc.fails || errors.Is(err, ErrNewer) != tc.newer {
			t.Errorf("%s: err %v", tc.name, err)
		}
	}
}

func TestDecodeProjectVersions(t *testing.T) {
	for _, tc := range []struct {
		name, rec string
		newer     bool
		fails     bool
	}{
		{"empty", ``, false, false},
		{"v1", `{"v":1,"next_id":2,"todos":[{"id":2,"level":"task","title":"x","status":"pending"}]}`, false, false},
		{"newer with other types", `{"v":3,"todos":{"by_id":{}}}`, true, true},
		{"newer binary", "\xa7P\x03\x7f", true, true},
		{"newer, v not first", `{"todos":{},"v":5}`, true, true},
		{"damaged", `{"v":1,"todos":{}}`, false, true},
	} {
		_, err := DecodeProject([]byte(tc.rec))
		if (err != nil) != tc.fails || errors.Is(err, ErrNewer) != tc.newer {
			t.Errorf("%s: err %v", tc.name, err)
		}
	}
}

// jsonOf is a record in an older JSON encoding, version v.
func jsonOf(x any, v int) ([]byte, error) {
	b, err := json.Marshal(x)
	if err != nil {
		return nil, err
	}
	return append([]byte(`{"v":`+strconv.Itoa(v)+`,`), bytes.TrimPrefix(b, []byte(`{"v":`+strconv.Itoa(reflect.ValueOf(x).Elem().Field(0).Interface().(int))+`,`))...), nil
}
