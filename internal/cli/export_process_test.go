package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sessionEndProject is a project whose session s1 made one tool call,
// with the export at SessionEnd on or off.
func sessionEndProject(t testing.TB, on bool) string {
	dir := t.TempDir()
	cfg := "export:\n  on_session_end: " + map[bool]string{true: "true", false: "false"}[on] + "\n"
	if err := os.MkdirAll(filepath.Join(dir, ".atreides"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, ".atreides", "config.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func sessionEndPayload(dir, session string) []byte {
	b, _ := json.Marshal(map[string]any{"session_id": session, "cwd": dir, "hook_event_name": "SessionEnd", "reason": "exit"})
	return b
}

func TestExportAtSessionEnd(t *testing.T) {
	for _, c := range []struct {
		name   string
		on     bool
		broken bool // a file where the export directory belongs
	}{
		{"on", true, false},
		{"off", false, false},
		{"broken dir", true, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := sessionEndProject(t, c.on)
			exports := filepath.Join(dir, ".atreides", "exports")
			if c.broken {
				if err := os.WriteFile(exports, []byte("a file"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			runMain(t, 20*time.Second, dir, preToolPayload(dir, "s1", 1, "git status"), nil, "hook", "claude")
			stdout, stderr, code, _ := runMain(t, 20*time.Second, dir, sessionEndPayload(dir, "s1"), nil, "hook", "claude")
			if code != 0 || len(stderr) > 0 {
				t.Fatalf("SessionEnd hook: exit %d, stdout %q, stderr %q", code, stdout, stderr)
			}
			log, _ := os.ReadFile(filepath.Join(dir, ".atreides", "log"))
			b, err := os.ReadFile(filepath.Join(exports, "s1.json"))
			switch {
			case c.broken:
				if !strings.Contains(string(log), "export at session end") {
					t.Errorf("a failed export is not in the project log: %q", log)
				}
			case !c.on:
				if _, err := os.Stat(exports); !os.IsNotExist(err) {
					t.Errorf("export off wrote %s: %v", exports, err)
				}
			default:
				if err != nil {
					t.Fatalf("no export: %v; log %q", err, log)
				}
				checkExport(t, b)
			}
		})
	}
}

// checkExport validates a document against docs/export.schema.json and
// checks it is the ended session with its tool call.
func checkExport(t *testing.T, b []byte) {
	t.Helper()
	sch, err := jsonschema.NewCompiler().Compile(filepath.Join("..", "..", "docs", "export.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := sch.Validate(v); err != nil {
		t.Errorf("the export does not match the schema: %v", err)
	}
	var doc struct {
		Session struct {
			ID    string `json:"id"`
			Ended bool   `json:"ended"`
		} `json:"session"`
		ToolCalls []struct {
			Target string `json:"target"`
		} `json:"tool_calls"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Session.ID != "s1" || !doc.Session.Ended || len(doc.ToolCalls) != 1 || doc.ToolCalls[0].Target != "git status" {
		t.Errorf("export = %+v", doc)
	}
}

// BenchmarkSessionEndHook is the whole SessionEnd hook process with the
// export on and off.
func BenchmarkSessionEndHook(b *testing.B) {
	for _, on := range []bool{false, true} {
		b.Run(map[bool]string{true: "export-on", false: "export-off"}[on], func(b *testing.B) {
			dir := sessionEndProject(b, on)
			for i := 0; b.Loop(); i++ {
				b.StopTimer()
				if err := hookCmd(b.Context(), dir, preToolPayload(dir, "s1", i, "git status")).Run(); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := hookCmd(b.Context(), dir, sessionEndPayload(dir, "s1")).Run(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
