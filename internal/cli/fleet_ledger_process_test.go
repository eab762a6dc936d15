package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/trace"
)

// writePayload is a Claude Code Write hook event (PreToolUse or
// PostToolUse) of session writing rel in dir.
func writePayload(dir, session, id, kind, rel string) []byte {
	p := filepath.Join(dir, rel)
	ev := map[string]any{
		"session_id": session, "transcript_path": filepath.Join(dir, "t.jsonl"), "cwd": dir,
		"hook_event_name": kind, "tool_name": "Write", "tool_use_id": id,
		"tool_input": map[string]string{"file_path": p, "content": "x\n"},
	}
	if kind == "PostToolUse" {
		ev["tool_response"] = map[string]any{"filePath": p, "success": true}
	}
	b, _ := json.Marshal(ev)
	return b
}

// TestTeamLedgerTwoCheckouts: with governance on, sessions in two
// checkouts sharing one database make governed writes through the hook;
// the ledger is one chain in the database, so `trace verify` in either
// checkout reports it intact with the records of both, and `trace show`
// lists them; no checkout has a trace.jsonl.
func TestTeamLedgerTwoCheckouts(t *testing.T) {
	a, b, dsn := teamCheckouts(t, teamConfig+"governance:\n  enabled: true\n")
	env := []string{"ATREIDES_STORE_DSN=" + dsn}
	run := func(dir string, stdin []byte, args ...string) []byte {
		t.Helper()
		out, stderr, code, _ := runMain(t, time.Minute, dir, stdin, env, args...)
		if code != 0 {
			t.Fatalf("%s: atreides %s: exit %d: %s%s", filepath.Base(dir), strings.Join(args, " "), code, out, stderr)
		}
		return out
	}
	type write struct{ dir, session, rel string }
	writes := []write{{a, "s-laptop", "docs/a.md"}, {b, "s-desktop", "src/b.go"}, {a, "s-laptop", "docs/c.md"}}
	run(a, nil, "intent", "select", "docs", "--session", "s-laptop")
	run(b, nil, "intent", "select", "src", "--session", "s-desktop")
	for i, w := range writes {
		id := fmt.Sprintf("toolu_w%d", i)
		out := run(w.dir, writePayload(w.dir, w.session, id, "PreToolUse", w.rel), "hook", "claude")
		if strings.Contains(string(out), `"deny"`) || strings.Contains(string(out), `"ask"`) {
			t.Fatalf("write %d refused: %s", i, out)
		}
		os.MkdirAll(filepath.Dir(filepath.Join(w.dir, w.rel)), 0o755)
		if err := os.WriteFile(filepath.Join(w.dir, w.rel), []byte("x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		run(w.dir, writePayload(w.dir, w.session, id, "PostToolUse", w.rel), "hook", "claude")
	}

	for _, dir := range []string{a, b} {
		var rep trace.Report
		if err := json.Unmarshal(run(dir, nil, "trace", "verify", "--json"), &rep); err != nil {
			t.Fatal(err)
		}
		if !rep.OK || rep.Records != len(writes) || rep.Head.Source != trace.SourceStore || rep.Checkpoint.Status != trace.CheckpointTeam {
			t.Errorf("%s: trace verify: %+v", filepath.Base(dir), rep)
		}
		var sessions []string
		for _, line := range strings.Split(strings.TrimSpace(string(run(dir, nil, "trace", "show", "--json"))), "\n") {
			var r trace.Record
			if err := json.Unmarshal([]byte(line), &r); err != nil || r.Metadata.Atreides == nil {
				t.Fatalf("trace show --json line %q: %v", line, err)
			}
			sessions = append(sessions, r.Metadata.Atreides.Session)
		}
		if got := strings.Join(sessions, " "); got != "s-laptop s-desktop s-laptop" {
			t.Errorf("%s: records of sessions %s", filepath.Base(dir), got)
		}
		show := string(run(dir, nil, "trace", "show"))
		for _, w := range writes {
			if !strings.Contains(show, w.rel) || !strings.Contains(show, "\t"+w.session+"\t") {
				t.Errorf("%s: trace show does not list %s by %s:\n%s", filepath.Base(dir), w.rel, w.session, show)
			}
		}
		if _, err := os.Lstat(filepath.Join(dir, ".atreides", trace.FileName)); !os.IsNotExist(err) {
			t.Errorf("%s has a %s in team mode", filepath.Base(dir), trace.FileName)
		}
		if log := readLog(t, dir); log != "" {
			t.Errorf("%s's project log: %s", filepath.Base(dir), log)
		}
	}
}
