package tasks

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/taskboard"
)

// TestCompletePhaseRunsOnlyWhatMayRun: a phase's verification runs only
// from the plan as approved, and only when the guard allows it or the
// user confirms what it asks about; each refused command leaves the phase
// open and does not run (each would leave a file behind). The home
// directory is a scratch one, so a regression deletes nothing real.
func TestCompletePhaseRunsOnlyWhatMayRun(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	os.WriteFile(filepath.Join(home, "canary"), nil, 0o644)
	root := t.TempDir()
	r := Open(root, FromConfig(config.Builtin()))
	r.Hosts = guardHosts
	ctx := t.Context()
	must(t, r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
		_, err := Add(b, NewTask{Title: "health"}, now)
		return err
	}))
	p, _, err := r.NewPlan(ctx, 1)
	must(t, err)
	plan := filepath.Join(root, p)
	write := func(verify string) {
		must(t, os.WriteFile(plan, []byte("# P\n## Phase 1: One [NOT STARTED]\nVerify: "+verify+"\n"), 0o644))
	}
	approve := func() {
		_, err := r.Approve(ctx, 1, "")
		must(t, err)
	}
	var asked []string
	yes := func(command string, why error) bool { asked = append(asked, command); return true }
	no := func(command string, why error) bool { asked = append(asked, command); return false }
	for _, tc := range []struct {
		name    string
		before  func()
		confirm func(string, error) bool
		ran     string // the file the command leaves when it runs; "" for none expected
		refused string // in the refusal; "" when it ran
		asked   bool
	}{
		{"not approved", func() { write("touch ran-unapproved") }, nil, "", "plan version 1 of task 1 is not approved", false},
		{"denied", func() { write("touch ran-denied; rm -rf ~"); approve() }, yes, "", "atreides blocked it (fs.rm-root-home)", false},
		{"changed since approval", func() { write("touch ran-changed") }, nil, "", "plan changed since approval: ask the user to approve it again", false},
		{"asked, no one to ask", func() { write("touch ran-asked; git config core.hooksPath /tmp/x || true"); approve() }, nil, "", "it needs the user's confirmation (tamper.git-config)", false},
		{"asked, the user says no", nil, no, "", "it needs the user's confirmation (tamper.git-config)", true},
		{"asked, the user says yes", nil, yes, "ran-asked", "", true},
	} {
		if tc.before != nil {
			tc.before()
		}
		asked = nil
		r.Confirm = tc.confirm
		d, err := r.CompletePhase(ctx, 1, 1)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		v := d.Verification
		if v == nil {
			t.Fatalf("%s: no verification", tc.name)
		}
		if tc.refused == "" {
			if v.Refused != nil || !d.Completed() {
				t.Errorf("%s: refused %v, completed %v; want it run", tc.name, v.Refused, d.Completed())
			}
		} else if v.Refused == nil || !strings.Contains(v.Refused.Error(), tc.refused) || d.Completed() {
			t.Errorf("%s: refused %v, completed %v; want %q", tc.name, v.Refused, d.Completed(), tc.refused)
		}
		if (len(asked) > 0) != tc.asked {
			t.Errorf("%s: asked the user about %q, want asked %v", tc.name, asked, tc.asked)
		}
		for _, f := range []string{"ran-unapproved", "ran-denied", "ran-changed", "ran-asked"} {
			_, err := os.Stat(filepath.Join(root, f))
			if ran := err == nil; ran != (f == tc.ran) {
				t.Errorf("%s: %s exists %v", tc.name, f, ran)
			}
		}
	}
	if _, err := os.Stat(filepath.Join(home, "canary")); err != nil {
		t.Fatalf("the home directory was deleted: %v", err)
	}
}

// TestCompletePhaseConfigVerify: a command from the configuration needs no
// plan approval (its trust is the configuration's), but is judged all the
// same.
func TestCompletePhaseConfigVerify(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, tc := range []struct {
		verify  string
		refused bool
	}{{"true", false}, {"git push --force", true}} {
		root := t.TempDir()
		r := Open(root, Options{Dir: DefaultDir, Plans: PlanOptions{Verify: tc.verify, VerifyTimeout: time.Minute}})
		r.Hosts = guardHosts
		ctx := t.Context()
		must(t, r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
			_, err := Add(b, NewTask{Title: "t"}, now)
			return err
		}))
		p, _, err := r.NewPlan(ctx, 1)
		must(t, err)
		must(t, os.WriteFile(filepath.Join(root, p), []byte("## Phase 1: One\n"), 0o644))
		d, err := r.CompletePhase(ctx, 1, 1)
		must(t, err)
		var refusal *policy.Refusal
		if got := errors.As(d.Verification.Refused, &refusal) && refusal.Verdict == guard.Deny; got != tc.refused || d.Completed() == tc.refused {
			t.Errorf("tasks.plans.verify %q: refused %v, completed %v", tc.verify, d.Verification.Refused, d.Completed())
		}
	}
}

// TestCompletePhaseWithoutHostsRefuses: a board not told the hosts' facts
// runs no verification command, for the guard would not know the hosts'
// settings files; one that is told them refuses a command that rewrites
// them, which the guard without them lets through.
func TestCompletePhaseWithoutHostsRefuses(t *testing.T) {
	t.Setenv("HOME", t.TempDir())
	for _, tc := range []struct {
		name  string
		hosts policy.Hosts
		rule  string // of the refusal; "" for the one without a rule
	}{
		{"no hosts", policy.Hosts{}, ""},
		{"hosts", guardHosts, "self.host-settings"},
	} {
		root := t.TempDir()
		verify := "mkdir -p .claude && touch ran && echo '{}' > .claude/settings.json"
		r := Open(root, Options{Dir: DefaultDir, Plans: PlanOptions{Verify: verify, VerifyTimeout: time.Minute}})
		r.Hosts = tc.hosts
		ctx := t.Context()
		must(t, r.Update(ctx, func(b *taskboard.Tasks, now time.Time) error {
			_, err := Add(b, NewTask{Title: "t"}, now)
			return err
		}))
		p, _, err := r.NewPlan(ctx, 1)
		must(t, err)
		must(t, os.WriteFile(filepath.Join(root, p), []byte("## Phase 1: One\n"), 0o644))
		d, err := r.CompletePhase(ctx, 1, 1)
		must(t, err)
		var refusal *policy.Refusal
		if !errors.As(d.Verification.Refused, &refusal) || refusal.Rule != tc.rule || d.Completed() {
			t.Errorf("%s: refused %v, completed %v; want a refusal of rule %q", tc.name, d.Verification.Refused, d.Completed(), tc.rule)
		}
		if _, err := os.Stat(filepath.Join(root, "ran")); err == nil {
			t.Errorf("%s: the command ran", tc.name)
		}
	}
}
