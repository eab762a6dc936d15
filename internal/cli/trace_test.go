package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/governance"
	"github.com/atreides-dev/atreides/internal/govstate"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/trace"
)

func TestTraceVerify(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".git"), 0o755)
	cfg := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", cfg)
	run := func(args ...string) (string, error) {
		var out, errb bytes.Buffer
		io := &command.IO{Process: hook.Process{Out: &out, Err: &errb, Getenv: os.Getenv, Getwd: func() (string, error) { return dir, nil }}}
		err := runArgs(io, append([]string{"trace", "verify"}, args...))
		return out.String(), err
	}
	if out, err := run(); err != nil || !strings.Contains(out, "ledger OK: 0 record(s)") {
		t.Fatalf("no ledger: %q %v", out, err)
	}
	w := &trace.Writer{Path: governance.TracePath(dir), Anchor: trace.NewAnchor(filepath.Join(cfg, "atreides"), dir)}
	var h trace.Head
	for i := 0; i < 3; i++ {
		res, err := w.Append(&trace.Record{Metadata: trace.Metadata{Atreides: &trace.Meta{Change: trace.Create}}})
		if err != nil {
			t.Fatal(err)
		}
		h = res.Head
	}
	st := store.Open(project.StateDir(dir))
	if err := st.Update(context.Background(), func(tx *store.Tx) error {
		p := &state.Project{}
		govstate.Key.Of(p).Trace = govstate.TraceHead{Seq: h.Seq, Hash: h.Hash}
		return state.SaveProject(tx, p)
	}); err != nil {
		t.Fatal(err)
	}
	if out, err := run(); err != nil || !strings.Contains(out, "ledger OK: 3 record(s), chain intact, head #3 matches the signed checkpoint") {
		t.Fatalf("intact: %q %v", out, err)
	}

	// The documented JSON shape.
	out, _ := run("--json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"ok", "records", "head", "checkpoint", "problem", "missing", "unanchored", "late", "torn_bytes"} {
		if _, ok := doc[k]; !ok {
			t.Errorf("--json lacks %q: %s", k, out)
		}
	}
	head := doc["head"].(map[string]any)
	if doc["ok"] != true || head["source"] != "checkpoint" || head["seq"] != 3.0 || doc["problem"] != nil || doc["checkpoint"].(map[string]any)["status"] != "ok" {
		t.Errorf("--json: %s", out)
	}

	// A damaged state file (the database, and the project's record file
	// that holds the head) is not moved aside by verify (it was, and then
	// verify said OK on the fresh state).
	db := filepath.Join(project.StateDir(dir), store.DBFile)
	rec := filepath.Join(project.StateDir(dir), "project", "project.rec")
	garbage := bytes.Repeat([]byte("x"), 8192)
	for _, f := range []string{db, rec} {
		if err := os.WriteFile(f, garbage, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := run(); err != nil || !strings.Contains(out, "ledger OK") {
		t.Fatalf("damaged state, checkpoint intact: %q %v", out, err)
	}
	for _, f := range []string{db, rec} {
		if b, _ := os.ReadFile(f); !bytes.Equal(b, garbage) {
			t.Fatalf("verify changed %s", f)
		}
	}
	if aside, _ := filepath.Glob(db + ".corrupt-*"); len(aside) != 0 {
		t.Fatalf("verify moved the state file aside: %v", aside)
	}

	// No checkpoint and no readable state: the head is unknown, not OK.
	os.RemoveAll(filepath.Join(cfg, "atreides", trace.CheckpointsDir))
	out, err := run()
	if err == nil || !strings.Contains(out, "NOT VERIFIED") || !strings.Contains(out, "head unknown") || !strings.Contains(out, "could not be read") {
		t.Fatalf("head unknown: %q %v", out, err)
	}
	os.Remove(db)
	os.Remove(rec)
	if out, err := run(); err == nil || !strings.Contains(out, "head unknown") {
		t.Fatalf("state missing: %q %v", out, err)
	}
}
