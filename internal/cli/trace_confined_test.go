//go:build unix

package cli

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/confined/confinedtest"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/trace"
)

// governedProject is a project with governance on and intent "src" held by
// session "s1", and a config directory for the signing key.
func governedProject(t *testing.T) (dir string, env []string) {
	t.Helper()
	dir, cfg := t.TempDir(), t.TempDir()
	mustMkdir(t, filepath.Join(dir, ".git"))
	mustMkdir(t, filepath.Join(dir, "src"))
	state := project.StateDir(dir)
	mustMkdir(t, state)
	os.WriteFile(filepath.Join(state, "config.yaml"), []byte("governance:\n  enabled: true\n  trace: true\n"), 0o644)
	os.WriteFile(filepath.Join(state, "intents.yaml"), []byte("intents:\n  - id: src\n    title: Source\n    owned_scope: [src/**]\n"), 0o644)
	t.Setenv("XDG_CONFIG_HOME", cfg)
	io := &command.IO{Process: hook.Process{Out: &bytes.Buffer{}, Err: &bytes.Buffer{}, Getenv: os.Getenv, Getwd: func() (string, error) { return dir, nil }}}
	if err := runArgs(io, []string{"intent", "select", "src", "--session", "s1"}); err != nil {
		t.Fatal(err)
	}
	return dir, []string{"XDG_CONFIG_HOME=" + cfg}
}

// writeThroughHooks runs the PreToolUse and PostToolUse of a Write of rel
// as two hook processes, changing the file between them.
func writeThroughHooks(t *testing.T, dir string, env []string, rel, content string) {
	t.Helper()
	p := filepath.Join(dir, rel)
	payload := func(event string) []byte {
		b, _ := json.Marshal(map[string]any{
			"session_id": "s1", "transcript_path": filepath.Join(dir, "t.jsonl"), "cwd": dir,
			"hook_event_name": event, "tool_name": "Write", "tool_use_id": "toolu_w",
			"tool_input":    map[string]string{"file_path": p, "content": content},
			"tool_response": map[string]any{"filePath": p, "success": true},
		})
		return b
	}
	hook := func(event string) string {
		out, errOut, _, _ := runMain(t, 20*time.Second, dir, payload(event), env, "hook", "claude")
		if len(errOut) != 0 {
			t.Errorf("the hook wrote to stderr: %q", errOut)
		}
		return string(out)
	}
	if out := hook("PreToolUse"); isDeny(out) {
		t.Fatalf("write denied: %s", out)
	}
	os.WriteFile(p, []byte(content), 0o644)
	hook("PostToolUse")
}

// The attack end to end: a repository commits .atreides/trace.jsonl as a
// link to a file of the user's (or as a FIFO), then an agent changes a
// file. The hook must neither write through the link nor hang on the
// FIFO; it logs the refusal and queues the record. `trace verify` must
// answer promptly and fail, naming what is wrong.
func TestCommittedLedgerIsNotFollowed(t *testing.T) {
	for _, tc := range []struct {
		name  string
		plant func(t *testing.T, ledger string) (outside string)
		what  string
	}{
		{"a link", func(t *testing.T, ledger string) string {
			outside := confinedtest.Outside(t)
			mustSymlink(t, outside, ledger)
			return outside
		}, "symbolic link"},
		{"a FIFO", func(t *testing.T, ledger string) string {
			if err := syscall.Mkfifo(ledger, 0o644); err != nil {
				t.Fatal(err)
			}
			return ""
		}, "named pipe"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir, env := governedProject(t)
			ledger := filepath.Join(project.StateDir(dir), trace.FileName)
			outside := tc.plant(t, ledger)

			writeThroughHooks(t, dir, env, "src/a.go", "package a\n")
			if outside != "" {
				confinedtest.Untouched(t, outside)
			}
			log, _ := os.ReadFile(filepath.Join(project.StateDir(dir), "log"))
			if !strings.Contains(string(log), "record queued") || !strings.Contains(string(log), "trace.jsonl: it is a "+tc.what) {
				t.Errorf("the refusal is not in the log:\n%s", log)
			}
			if n := trace.Missing(ledger); n != 1 {
				t.Errorf("%d records queued, want 1", n)
			}

			out, _, code, _ := runMain(t, 20*time.Second, dir, nil, env, "trace", "verify")
			if code != 1 || !strings.Contains(string(out), tc.what) {
				t.Errorf("verify: exit %d, %q", code, out)
			}
		})
	}
}

// trace verify on a damaged state file and no checkpoint: before, it moved
// the file aside and said OK on the fresh state. Now the file keeps every
// byte, nothing is created beside it, and the head is unknown.
func TestTraceVerifyLeavesDamagedStateAlone(t *testing.T) {
	dir := t.TempDir()
	mustMkdir(t, filepath.Join(dir, ".git"))
	t.Setenv("XDG_CONFIG_HOME", t.TempDir())
	w := &trace.Writer{Path: filepath.Join(project.StateDir(dir), trace.FileName)}
	for range 2 {
		if _, err := w.Append(&trace.Record{Metadata: trace.Metadata{Atreides: &trace.Meta{Change: trace.Create}}}); err != nil {
			t.Fatal(err)
		}
	}
	db := filepath.Join(project.StateDir(dir), store.DBFile)
	garbage := bytes.Repeat([]byte("not bbolt "), 1000)
	os.WriteFile(db, garbage, 0o600)
	before, _ := os.ReadDir(project.StateDir(dir))

	var out, errb bytes.Buffer
	io := &command.IO{Process: hook.Process{Out: &out, Err: &errb, Getenv: os.Getenv, Getwd: func() (string, error) { return dir, nil }}}
	if err := runArgs(io, []string{"trace", "verify", "--json"}); err == nil {
		t.Fatalf("verify succeeded: %s", out.String())
	}
	var rep trace.Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.OK || rep.Head.Source != trace.SourceNone || rep.Problem == nil ||
		!strings.Contains(rep.Problem.Msg, "head unknown") || !strings.Contains(rep.Problem.Msg, "state file is corrupt") {
		t.Errorf("report: %s", out.String())
	}
	if b, _ := os.ReadFile(db); !bytes.Equal(b, garbage) {
		t.Error("verify changed the state file")
	}
	if after, _ := os.ReadDir(project.StateDir(dir)); len(after) != len(before) {
		t.Errorf("verify changed the directory: %v -> %v", before, after)
	}
}
