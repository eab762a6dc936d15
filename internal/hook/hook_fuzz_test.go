package hook

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/host/hosttest"
)

// FuzzHookPayload runs whole hook payloads through the hook runtime as
// `atreides hook claude` runs it, in process, against a real project store. The property is the hook's
// contract whatever the input: an answer within the budget (the watchdog
// never has to answer), in protocol (stdout is nothing or one JSON
// object; stderr only carries the reason of a block), exit 0 or 2, and no
// panic anywhere (a recovered one is logged or named internal.error, and
// either fails the target).
func FuzzHookPayload(f *testing.F) {
	samples := hosttest.Samples(f, "host-samples", "claude-code", "captured")
	_ = filepath.WalkDir(samples, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") && strings.Contains(p, "/hooks/") {
			if b, err := os.ReadFile(p); err == nil {
				f.Add(b)
			}
		}
		return nil
	})
	dir := f.TempDir()
	for _, cmd := range []string{
		strings.Repeat("(", 150000),
		"echo " + strings.Repeat("$(", 50000),
		"rm -rf ~\n" + strings.Repeat("$(", 50000),
		"echo " + strings.Repeat("{a,b}", 30),
		"python3 -c '" + strings.Repeat("print(1)\n", 20000) + "'",
		strings.Repeat("a && ", 40000) + "a",
	} {
		f.Add(preToolPayload(dir, "s", 1, cmd))
	}
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":` + strings.Repeat("[", 100000) + `}`))
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"rm -rf ~","COMMAND":"ls"}}`))
	f.Add([]byte(`{"hook_event_name":"PreToolUse","tool_name":"Bash","tool_input":{"command":"ls","command":"rm -rf ~"}}`))

	claude, _ := all.ByName("claude")
	var watchdog atomic.Bool
	exitProcess = func(int) { watchdog.Store(true) }
	f.Cleanup(func() { exitProcess = os.Exit })
	getenv := func(k string) string {
		switch k {
		case "CLAUDE_PROJECT_DIR":
			return dir // never a directory the payload names
		case "HOME":
			return dir
		}
		return ""
	}
	logPath := filepath.Join(dir, ".atreides", "log")
	f.Fuzz(func(t *testing.T, payload []byte) {
		_ = os.Remove(logPath) // each input's own lines only
		var out, errb bytes.Buffer
		code := Answer(&Process{In: bytes.NewReader(payload), Out: &out, Err: &errb, Getenv: getenv,
			Getwd: func() (string, error) { return dir, nil }}, claude.Adapter, "", Budget(getenv, 0))
		if watchdog.Load() {
			t.Fatalf("the watchdog had to answer")
		}
		if code != 0 && code != 2 {
			t.Fatalf("exit %d", code)
		}
		if s := out.Bytes(); len(s) > 0 {
			var v map[string]any
			if !bytes.HasSuffix(s, []byte("\n")) || json.Unmarshal(s, &v) != nil || bytes.Count(s, []byte("\n")) != 1 {
				t.Fatalf("stdout is not one JSON object: %.300q", s)
			}
		}
		if errb.Len() > 0 && code != 2 {
			t.Fatalf("stderr without a block: %.300q", errb.String())
		}
		for _, s := range []string{out.String(), errb.String()} {
			if strings.Contains(s, "internal.error") || strings.Contains(s, "atreides.handler-failed") || strings.Contains(s, "runtime.gopanic") {
				t.Fatalf("a panic was recovered: %.500s", s)
			}
		}
		log, _ := os.ReadFile(logPath)
		if bytes.Contains(log, []byte("panicked")) || bytes.Contains(log, []byte("hook claude: panic:")) {
			t.Fatalf("a panic was logged:\n%s", log)
		}
	})
}

// preToolPayload is Claude Code's PreToolUse payload of a shell command.
func preToolPayload(dir, session string, n int, command string) []byte {
	b, _ := json.Marshal(map[string]any{
		"session_id": session, "transcript_path": filepath.Join(dir, "t.jsonl"), "cwd": dir,
		"hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input":  map[string]string{"command": command, "description": "test"},
		"tool_use_id": fmt.Sprintf("toolu_%d", n),
	})
	return b
}
