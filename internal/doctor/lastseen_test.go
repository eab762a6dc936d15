package doctor

import (
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/install"
)

// TestSeenChecks: per installed host, each event's last arrival from the
// trail and the sessions' last event; a session of prompts without tool
// calls is a note, or a problem when the host never had a tool call
// reach atreides and the session had several prompts.
func TestSeenChecks(t *testing.T) {
	now := time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC)
	installed := []install.Status{{Events: []string{"SessionStart", "PreToolUse", "Stop"}}}
	trail := map[string]map[string]time.Time{"claude": {"PreToolUse": now.Add(-5 * time.Minute), "PostToolUse": now.Add(-time.Hour)}}
	for _, tc := range []struct {
		name     string
		files    []install.Status
		last     map[string]map[string]time.Time
		sessions []sessionSeen
		want     []string // "name status detail-substring"
	}{
		{name: "not installed: nothing", files: []install.Status{{}}, last: trail},
		{name: "installed, nothing arrived", files: installed,
			want: []string{"claude last seen|note|no event has reached atreides from Claude Code"}},
		{name: "events from the trail, the rest named", files: installed, last: trail,
			sessions: []sessionSeen{{host: "claude", id: "s1", prompts: 2, tools: 4, last: now.Add(-2 * time.Minute)}},
			want:     []string{"claude last seen|ok|last event 2m ago; PreToolUse 5m ago, PostToolUse 1h ago; not in the audit trail: SessionStart, Stop"}},
		{name: "a session of prompts alone, tools seen elsewhere: a note", files: installed, last: trail,
			sessions: []sessionSeen{{host: "claude", id: "s1", prompts: 1, tools: 3, last: now.Add(-time.Hour)}, {host: "claude", id: "s2-long-id", prompts: 5, last: now}},
			want:     []string{"claude last seen|ok|", "claude tool hooks|note|session s2-long- "}},
		{name: "several prompts and no tool call ever: a problem", files: installed,
			sessions: []sessionSeen{{host: "claude", id: "s2", prompts: 3, last: now}, {host: "codex", id: "s3", tools: 2, last: now}},
			want:     []string{"claude last seen|ok|last event 0s ago", "claude tool hooks|problem|3 prompt(s)"}},
		{name: "one prompt and no tool call ever: a note", files: installed,
			sessions: []sessionSeen{{host: "claude", id: "s2", prompts: 1, last: now}},
			want:     []string{"claude last seen|ok|", "claude tool hooks|note|1 prompt(s)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			hosts := []Host{{Name: "claude", Display: "Claude Code", Files: tc.files}}
			got := seenChecks(hosts, &trailSeen{last: tc.last, sessions: tc.sessions}, now)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d checks %+v, want %d", len(got), got, len(tc.want))
			}
			for i, w := range tc.want {
				parts := strings.SplitN(w, "|", 3)
				if got[i].Name != parts[0] || got[i].Status != parts[1] || !strings.Contains(got[i].Detail, parts[2]) {
					t.Errorf("check %d = %+v, want %q", i, got[i], w)
				}
			}
			if len(tc.want) > 0 && len(hosts[0].LastSeen) == 0 {
				t.Error("the host's last_seen is not filled in")
			}
		})
	}
}
