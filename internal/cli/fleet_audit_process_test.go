package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/audit"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/store/pgstore"
	"github.com/atreides-dev/atreides/internal/taskgit/gittest"
)

// TestTeamAuditTwoCheckouts: a guard denial in one checkout shows in
// `atreides log --json` run in the other, with the machine and checkout
// it came from, through the least-privileged role; and the shared trail
// stays bounded by audit.max_mib.
func TestTeamAuditTwoCheckouts(t *testing.T) {
	a, b, dsn := teamCheckouts(t, teamConfig)
	env := []string{"ATREIDES_STORE_DSN=" + dsn}
	_, stderr, code, _ := runMain(t, time.Minute, a, preToolPayload(a, "sa", 1, "rm -rf /"), env, "hook", "claude")
	if code != 0 && code != 2 {
		t.Fatalf("hook: exit %d: %s", code, stderr)
	}
	out, stderr, code, _ := runMain(t, time.Minute, b, nil, env, "log", "--json", "--verdict", "deny")
	if code != 0 {
		t.Fatalf("log in b: exit %d: %s", code, stderr)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(lines) != 1 {
		t.Fatalf("log in b printed %q, want A's one denial", out)
	}
	var r audit.Record
	if err := json.Unmarshal([]byte(lines[0]), &r); err != nil {
		t.Fatal(err)
	}
	host, _ := os.Hostname()
	if r.Session != "sa" || r.Verdict != "deny" || r.Command != "rm -rf /" || r.Checkout != a || r.Machine != host {
		t.Errorf("b sees %+v; want A's denial of rm -rf / from %s on %s", r, a, host)
	}
	// A's own file holds the same bytes; B's has nothing of it.
	local, _ := os.ReadFile(a + "/.atreides/audit.jsonl")
	if string(local) != lines[0]+"\n" {
		t.Errorf("a's file %q, the shared trail %q: want the same line", local, lines[0])
	}
	if out, _, _, _ := runMain(t, time.Minute, b, nil, env, "log", "--json", "--local"); len(out) != 0 {
		t.Errorf("b's own file: %s", out)
	}
	if log := readLog(t, a); log != "" {
		t.Errorf("a's project log: %s", log)
	}

	// Retention: with audit.max_mib 1, the trail keeps audit.Keep(1 MiB)
	// records and at most a prune stride more. The bucket is filled up to
	// one short of a prune, the next hook prunes it.
	gittest.Write(t, a, ".atreides/config.yaml", teamConfig+"audit:\n  max_mib: 1\n")
	trustProject(t, a) // a shorter trail loosens: the user trusts the changed file
	keep := audit.Keep(1 << 20)
	id := strings.TrimSpace(gittest.Git(t, a, "rev-list", "--max-parents=0", "HEAD"))
	st := store.OpenRemote(t.TempDir(), pgstore.Open(dsn, id))
	n := keep + 2*audit.PruneEvery - 2 // the hook above was the first
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		for i := range n {
			if _, err := tx.Append(audit.Bucket, fmt.Appendf(nil, `{"time":"2026-01-01T00:00:00.000000Z","session":"fill-%d","verdict":"allow"}`+"\n", i)); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	count := func() (n uint64, last uint64) {
		err := st.View(context.Background(), func(tx *store.Tx) error {
			last, _ = tx.Last(audit.Bucket)
			return tx.ForEach(audit.Bucket, func(string, []byte) error { n++; return nil })
		})
		if err != nil {
			t.Fatal(err)
		}
		return n, last
	}
	if got, last := count(); got != n+1 || last%audit.PruneEvery != audit.PruneEvery-1 {
		t.Fatalf("filled %d, last %d", got, last)
	}
	_, stderr, code, _ = runMain(t, time.Minute, a, preToolPayload(a, "sa", 2, "rm -rf /"), env, "hook", "claude")
	if code != 0 && code != 2 {
		t.Fatalf("hook: exit %d: %s", code, stderr)
	}
	if got, last := count(); got != keep || last%audit.PruneEvery != 0 {
		t.Errorf("after the pruning hook: %d records, last %d; want %d", got, last, keep)
	}
	out, _, _, _ = runMain(t, time.Minute, b, nil, env, "log", "--json", "--session", "sa")
	if c := strings.Count(string(out), `"session":"sa"`); c != 1 {
		t.Errorf("after pruning b sees %d of A's records, want the newest one: %s", c, out)
	}
}
