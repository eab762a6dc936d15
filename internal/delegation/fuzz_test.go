package delegation

import (
	"encoding/json"
	"slices"
	"testing"
)

// FuzzValidateReturn: any message is judged without a panic; a message
// judged valid holds an object whose status is an allowed one, and the
// status returned is that one.
func FuzzValidateReturn(f *testing.F) {
	for _, s := range []string{
		`{"status":"completed","summary":"x","artifacts":[],"metadata":{},"errors":[],"next_steps":[]}`,
		"prose ```json\n{\"status\":\"partial\"}\n```",
		`{"artifacts":[{"path":"../x"},"/etc",3]}`, `{`, ``, `{"summary":"` + "\xff" + `"}`,
	} {
		f.Add(s)
	}
	root := f.TempDir()
	f.Fuzz(func(t *testing.T, msg string) {
		r, bad := ValidateReturn(msg, root, "s1")
		if len(bad) > 0 {
			return
		}
		var obj map[string]any
		if err := json.Unmarshal([]byte(extractJSON(msg)), &obj); err != nil {
			t.Fatalf("valid, but no object: %v", err)
		}
		if !slices.Contains(ReturnStatuses, r.Status) || obj["status"] != r.Status {
			t.Fatalf("valid with status %q (object's %v)", r.Status, obj["status"])
		}
	})
}

// FuzzTarget: any input gives a non-empty target and a key that
// retarget writes it back under.
func FuzzTarget(f *testing.F) {
	for _, s := range []string{`{"subagent_type":"Explore"}`, `{"agent_name":1}`, `null`, `[]`, `{"agent_type":""}`} {
		f.Add("claude", s)
		f.Add("codex", s)
	}
	f.Fuzz(func(t *testing.T, name, input string) {
		host := testHosts[name]
		if host == nil {
			host = testHosts["claude"] // a name no host has: the property holds for every host's facts
		}
		typ, key := Target(host, json.RawMessage(input))
		if typ == "" || key == "" {
			t.Fatalf("empty target %q or key %q", typ, key)
		}
		out, err := retarget(json.RawMessage(input), key, "X")
		if err != nil {
			return // not an object: the redirect is logged and left out
		}
		if got, _ := Target(host, out); got != "X" {
			t.Fatalf("retargeted %s to %s, which names %q", input, out, got)
		}
	})
}
