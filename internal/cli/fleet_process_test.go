package cli

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/state"
	"github.com/atreides-dev/atreides/internal/store"
	"github.com/atreides-dev/atreides/internal/store/pgstore"
	"github.com/atreides-dev/atreides/internal/store/pgtest"
	"github.com/atreides-dev/atreides/internal/taskgit/gittest"
)

// The test binary, which stands in for atreides in these tests (TestMain),
// links the PostgreSQL back end as atreides-team does; test/e2e's
// team_test.go covers atreides handing a hook to atreides-team.

// teamConfig is a committed configuration that keeps the state in the
// team's database; the DSN comes from each machine's environment.
const teamConfig = "store:\n  backend: postgres\n"

// teamCheckouts makes a repository with config, atreides's team
// configuration, and two intents, and two clones of it standing in for two machines. It
// migrates a fresh database with the owner's DSN and returns the DSN of a
// role with only the privileges docs/team.md grants the hooks.
func teamCheckouts(t *testing.T, config string) (a, b, dsn string) {
	t.Helper()
	base := t.TempDir()
	origin := filepath.Join(base, "origin")
	gittest.Write(t, origin, ".atreides/config.yaml", config)
	gittest.Write(t, origin, ".atreides/intents.yaml",
		"intents:\n  - id: docs\n    title: Docs\n    owned_scope: ['docs/**']\n    acceptance_criteria: ['reviewed']\n"+
			"  - id: src\n    title: Source\n    owned_scope: ['src/**']\n    acceptance_criteria: ['tested']\n")
	gittest.Init(t, origin)
	a, b = filepath.Join(base, "laptop"), filepath.Join(base, "desktop")
	gittest.Git(t, base, "clone", "-q", origin, a)
	gittest.Git(t, base, "clone", "-q", origin, b)
	trustProject(t, a)
	trustProject(t, b)

	owner := pgtest.NewDatabase(t)
	if _, stderr, code, _ := runMain(t, time.Minute, a, nil, []string{"ATREIDES_STORE_DSN=" + owner}, "store", "migrate"); code != 0 {
		t.Fatalf("store migrate: exit %d: %s", code, stderr)
	}
	dsn = pgtest.NewRole(t, owner)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatal(err)
	}
	grantHookPrivileges(t, owner, u.User.Username())
	return a, b, dsn
}

// grantHookPrivileges gives role what docs/team.md says hooks need.
func grantHookPrivileges(t *testing.T, owner, role string) {
	t.Helper()
	sql := pgstore.HookGrants(role)
	if out, err := exec.Command("psql", owner, "-v", "ON_ERROR_STOP=1", "-qc", sql).CombinedOutput(); err != nil {
		t.Fatalf("grant: %v: %s", err, out)
	}
}

// TestTeamStoreTwoCheckouts: two checkouts of one repository, standing in
// for two machines, share one database. 20 hook processes in each at once,
// all on one session, lose no update; two sessions racing for one intent
// from the two checkouts, exactly one wins, and both see the winner.
func TestTeamStoreTwoCheckouts(t *testing.T) {
	a, b, dsn := teamCheckouts(t, teamConfig)
	// The budget is wide: 40 hooks at once on a busy machine can pass the
	// default 5 s, and a hook the watchdog answers leaves its event in the
	// outbox for the next one (TestWatchdogQueuesUnsavedState); this test
	// is about the two checkouts not losing each other's updates.
	env := []string{"ATREIDES_STORE_DSN=" + dsn, "ATREIDES_HOOK_BUDGET=1m"}
	const perCheckout = 20
	var wg sync.WaitGroup
	errs := make(chan error, 2*perCheckout)
	for _, dir := range []string{a, b} {
		for i := range perCheckout {
			wg.Go(func() {
				cmd := hookCmd(bounded(t), dir, preToolPayload(dir, "shared", i, "git status --short"))
				cmd.Env = append(cmd.Env, env...)
				var out, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &stderr
				if err := cmd.Run(); err != nil {
					errs <- fmt.Errorf("hook %d in %s: %v: %s", i, filepath.Base(dir), err, stderr.String())
				}
			})
		}
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for _, dir := range []string{a, b} {
		if log := readLog(t, dir); log != "" {
			t.Errorf("%s's project log: %s", filepath.Base(dir), log)
		}
	}
	var s *state.Session
	st := store.OpenRemote(t.TempDir(), pgstore.Open(dsn, strings.TrimSpace(gittest.Git(t, a, "rev-list", "--max-parents=0", "HEAD"))))
	err := st.View(context.Background(), func(tx *store.Tx) (err error) {
		s, err = state.FindSession(tx, "shared")
		return err
	})
	if err != nil || s == nil {
		t.Fatalf("session in the database: %v, %v", s, err)
	}
	if s.Counters.ToolCalls != 2*perCheckout {
		t.Errorf("tool_calls = %d, want %d: updates from the two checkouts were lost", s.Counters.ToolCalls, 2*perCheckout)
	}

	// The intent race.
	type res struct {
		code   int
		stderr string
	}
	results := make([]res, 2)
	for i, dir := range []string{a, b} {
		wg.Go(func() {
			_, stderr, code, _ := runMain(t, time.Minute, dir, nil, env, "intent", "select", "docs", "--session", fmt.Sprintf("s-%d", i))
			results[i] = res{code, string(stderr)}
		})
	}
	wg.Wait()
	winners, winner := 0, 0
	for i, r := range results {
		if r.code == 0 {
			winners, winner = winners+1, i
		} else if !strings.Contains(r.stderr, "held") && !strings.Contains(r.stderr, "holds") {
			t.Errorf("loser %d: exit %d, %s (want a message naming the holder)", i, r.code, r.stderr)
		}
	}
	if winners != 1 {
		t.Fatalf("%d sessions hold intent docs: %+v", winners, results)
	}
	for _, dir := range []string{a, b} {
		out, _, _, _ := runMain(t, time.Minute, dir, nil, env, "intent", "list", "--json")
		if want := fmt.Sprintf(`"holder": "s-%d"`, winner); !strings.Contains(string(out), want) {
			t.Errorf("%s does not see the intent held by s-%d: %s", filepath.Base(dir), winner, out)
		}
	}
}

// readLog is the project log of dir, empty when there is none.
func readLog(t *testing.T, dir string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".atreides", "log"))
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}
