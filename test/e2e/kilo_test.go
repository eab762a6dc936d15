package e2e

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/install/installtest"
	"github.com/atreides-dev/atreides/internal/session"
	"github.com/atreides-dev/atreides/test/e2e/fakeopenaichat"
)

// TestKiloGuard: with atreides installed for Kilo Code twice (the
// project's .kilo and the user's ~/.config/kilo) and for OpenCode in the
// same project, the real `kilo run` judges each tool call once, as kilo:
// `rm -rf ~/victim` through bash and through Kilo's background_process is
// blocked (the model reads why, the directory survives), reading .env
// is blocked, an ordinary command runs (and sees KILO=1), and every main
// request's system prompt carries atreides's session context.
func TestKiloGuard(t *testing.T) {
	t.Parallel()
	var p *kiloProject
	p = newKiloProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		switch countToolResults(r) {
		case 0:
			return fakeopenaichat.Bash("call_rm", "rm -rf ~/victim")
		case 1:
			return fakeopenaichat.Tool("call_env", "read", map[string]any{"filePath": p.Path(".env")})
		case 2:
			return fakeopenaichat.Tool("call_bg", "background_process", map[string]any{"action": "start", "command": "rm -rf ~/victim", "description": "clean up"})
		case 3:
			return fakeopenaichat.Bash("call_ok", "env | grep -c '^KILO=1$' > ok.txt")
		}
		return fakeopenaichat.Reply{Text: "Done."}
	})
	p.Victim("../home/victim")
	p.WriteFile(".env", "API_KEY=sk-live-kilo-secret\n")
	p.Atreides("install", "kilo", "--project", "--offline")
	p.Atreides("install", "kilo", "--user", "--offline")
	p.Atreides("install", "opencode", "--project", "--offline")
	for _, f := range []string{".kilo/plugin/atreides.ts", "../home/.config/kilo/plugin/atreides.ts", ".opencode/plugin/atreides.ts"} {
		if !p.exists(f) {
			t.Fatalf("install wrote no %s", f)
		}
	}
	p.runKilo("Clean up the project, check the env file, then record the environment.")

	p.assertExists("../home/victim/precious.txt")
	recs := auditRecords(t, p.Path(".atreides/audit.jsonl"))
	judged, starts := map[string]int{}, 0
	for _, r := range recs {
		if r.Event == "pre_tool" {
			judged[r.Tool+" "+r.Command+strings.Join(r.Paths, ",")]++
		}
		if r.HostEvent == "session.created" {
			starts++
		}
		if r.Host != "kilo" {
			t.Errorf("audit record for host %q, want kilo: %+v", r.Host, r)
		}
	}
	if starts != 1 {
		t.Errorf("session.created handled %d times, want once", starts)
	}
	for key, n := range judged {
		if n != 1 {
			t.Errorf("%s judged %d times, want once (one plugin copy answers)", key, n)
		}
	}
	for _, c := range []struct{ id, tool, what string }{
		{"call_rm", "bash", "rm -rf ~/victim"},
		{"call_env", "read", ".env"},
		{"call_bg", "background_process", "rm -rf ~/victim"},
	} {
		rec := findRecord(recs, c.tool, c.what)
		if rec == nil || rec.Verdict != "deny" {
			t.Errorf("%s (%s %s): not denied in the audit log: %+v", c.id, c.tool, c.what, rec)
			continue
		}
		reason := rec.Reason
		got := p.toolResult(c.id)
		if !strings.Contains(got, firstLine(reason)) {
			t.Errorf("%s: the model was not told why: %q, want %q", c.id, got, firstLine(reason))
		}
		if strings.Contains(got, "sk-live-kilo-secret") {
			t.Errorf("%s: the secret reached the model", c.id)
		}
	}
	if b, err := os.ReadFile(p.Path("ok.txt")); err != nil || strings.TrimSpace(string(b)) != "1" {
		t.Errorf("the allowed command did not run with KILO=1: %q %v", b, err)
	}
	mains := p.Fake.MainRequests()
	if len(mains) < 5 {
		t.Fatalf("%d main requests, want 5:\n%s", len(mains), p.Fake.Summary())
	}
	for _, r := range mains {
		if !strings.Contains(r.System(), session.Marker) {
			t.Errorf("request #%d: system prompt without %s", r.Seq, session.Marker)
		}
	}
	// atreides's own tools reach the model as plugin tools.
	if !slices.Contains(mains[0].Tools, "atreides_todo_add") {
		t.Errorf("atreides_todo_add not offered: %v", mains[0].Tools)
	}
}

// TestKiloTodoContinuation: an open atreides todo keeps a Kilo session
// going when it goes idle, and once the todo is done the session is let
// go; a compaction keeps atreides's state. It drives `kilo serve` over
// HTTP: `kilo run` disposes its instance at the session's first idle,
// before a plugin can prompt it again.
func TestKiloTodoContinuation(t *testing.T) {
	t.Parallel()
	var p *kiloProject
	p = newKiloProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		last := r.LastUser()
		switch {
		case strings.Contains(last, "still open") && countToolResults(r) == 0:
			return fakeopenaichat.Bash("call_done", p.atreides+" todo done 1")
		case countToolResults(r) > 0:
			return fakeopenaichat.Reply{Text: "The report is written and the todo is done."}
		}
		return fakeopenaichat.Reply{Text: "I looked around; stopping here."}
	})
	// `kilo serve` has no --auto: Kilo's own rules must let the command
	// that marks the todo done run without a person approving it.
	p.writeConfig(map[string]any{"bash": "allow", "external_directory": "allow"})
	p.Atreides("install", "kilo", "--project", "--offline")
	srv := p.serveKilo()
	// The todo is the session's own (docs/work-items.md).
	sid := srv.newSession()
	p.Atreides("todo", "add", "--session", sid, "write the report")
	srv.promptIn(sid, "Have a look at the project.")
	srv.waitQuiet(3*time.Second, 90*time.Second)
	// Then a compaction: its request carries the state block, and so does
	// the next turn (OpenCode's check, through Kilo's same HTTP API).
	defer checkCompaction(t, srv.p, srv, sid)

	n := 0
	for _, r := range p.Fake.MainRequests() {
		if strings.Contains(r.LastUser(), "still open") && strings.Contains(r.LastUser(), "write the report") {
			n++
		}
	}
	if n == 0 {
		t.Fatalf("no continuation prompt reached the model:\n%s", p.Fake.Summary())
	}
	if out := p.Atreides("todo", "list", "--all"); !strings.Contains(out, "1\tdone\t\twrite the report") {
		t.Errorf("todo not done:\n%s", out)
	}
	mains := p.Fake.MainRequests()
	if last := mains[len(mains)-1]; strings.Contains(last.LastUser(), "still open") && countToolResults(last) == 0 {
		t.Errorf("the loop did not stop:\n%s", p.Fake.Summary())
	}
}

// TestKiloInstallRoundTrip: installing for Kilo Code in the project and
// for the user, offline markers included, then uninstalling both, leaves
// every file under the project and the HOME byte-identical (no Kilo run:
// nothing of Kilo's own to exclude).
func TestKiloInstallRoundTrip(t *testing.T) {
	t.Parallel()
	kiloCLI.require(t)
	p := newHostProject(t, atreidesFor(t))
	p.WriteFile(".kilo/kilo.json", "{\"autoupdate\": false}\n")
	p.WriteFile("../home/.config/kilo/plugin/mine.ts", "export const Mine = async () => ({})\n")
	roots := []string{p.Dir, p.Home}
	skip := []string{p.Path(".git"), p.Path(".atreides"), filepath.Join(p.Home, ".local")}
	before := installtest.TreeHashes(t, roots, skip...)
	p.Atreides("install", "kilo", "--project", "--offline")
	p.Atreides("install", "kilo", "--user", "--offline")
	if mid := installtest.TreeHashes(t, roots, skip...); len(mid) == len(before) {
		t.Fatalf("install changed nothing")
	}
	p.Atreides("uninstall", "kilo", "--project")
	p.Atreides("uninstall", "kilo", "--user")
	installtest.SameTrees(t, before, installtest.TreeHashes(t, roots, skip...))
}

// auditRecord is the part of an audit line these tests read.
type auditRecord struct {
	Host      string   `json:"host"`
	Event     string   `json:"event"`
	HostEvent string   `json:"host_event"`
	Tool      string   `json:"tool"`
	Command   string   `json:"command"`
	Paths     []string `json:"paths"`
	Verdict   string   `json:"verdict"`
	Reason    string   `json:"reason"`
}

func auditRecords(t *testing.T, path string) []auditRecord {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatalf("audit log: %v", err)
	}
	defer f.Close()
	var out []auditRecord
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		var r auditRecord
		if json.Unmarshal(sc.Bytes(), &r) == nil {
			out = append(out, r)
		}
	}
	return out
}

// findRecord is the pre-tool record of tool whose command is what or one
// of whose paths ends in it.
func findRecord(recs []auditRecord, tool, what string) *auditRecord {
	for i, r := range recs {
		if r.Event != "pre_tool" || r.Tool != tool {
			continue
		}
		if r.Command == what {
			return &recs[i]
		}
		for _, p := range r.Paths {
			if strings.HasSuffix(p, what) {
				return &recs[i]
			}
		}
	}
	return nil
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}

// TestKiloBackground: in the real Kilo Code, a background task launched
// through atreides's plugin tool runs as a child session started by the
// plugin, and atreides_background_output returns the child's answer.
func TestKiloBackground(t *testing.T) {
	t.Parallel()
	p := newKiloProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		if strings.Contains(firstUser(r), "Find the alpha marker") {
			return fakeopenaichat.Reply{Text: "ALPHA-ANSWER: the alpha marker is in a.txt"}
		}
		switch countToolResults(r) {
		case 0:
			return fakeopenaichat.Tool("call_t1", "atreides_background_task", map[string]any{"description": "alpha search", "prompt": "Find the alpha marker.", "agent": "explore"})
		case 1:
			return fakeopenaichat.Tool("call_wait", "atreides_background_output", map[string]any{"wait": 120})
		}
		return fakeopenaichat.Reply{Text: "The search is done."}
	})
	p.WriteFile(".atreides/config.yaml", "background:\n  opencode:\n    poll_ms: 300\n    stable_ms: 1000\n")
	p.Atreides("install", "kilo", "--project", "--offline")
	p.runKilo("Search for the marker in the background.")
	if got := p.toolResult("call_t1"); !strings.Contains(got, "bg-1") {
		t.Errorf("the task did not start: %q", got)
	}
	if got := p.toolResult("call_wait"); !strings.Contains(got, "ALPHA-ANSWER") {
		t.Errorf("background_output did not return the child's answer: %q\n%s", got, p.Fake.Summary())
	}
}

// TestKiloContext: Kilo's read tool attaches the AGENTS.md of each
// directory above the file itself (as OpenCode's does), so atreides adds
// them not a second time, and adds the Cursor rule Kilo does not know,
// once; a 5 MB grep reaches the model as atreides's cut, the saved copy
// whole.
func TestKiloContext(t *testing.T) {
	t.Parallel()
	var p *kiloProject
	p = newKiloProject(t, func(r *fakeopenaichat.Request) fakeopenaichat.Reply {
		switch countToolResults(r) {
		case 0:
			return fakeopenaichat.Tool("call_x", "read", map[string]any{"filePath": p.Path("pkg/a/x.go")})
		case 1:
			return fakeopenaichat.Tool("call_y", "read", map[string]any{"filePath": p.Path("pkg/a/y.go")})
		case 2:
			return fakeopenaichat.Bash("call_grep", "grep -n match big.txt")
		}
		return fakeopenaichat.Reply{Text: "Done."}
	})
	writeRulesProject(p.hostProject)
	whole := bigGrepTarget(t, p.WriteFile)
	p.Atreides("install", "kilo", "--project", "--offline")
	p.runKilo("Read the package, then search the big file.")

	mains := p.Fake.MainRequests()
	if len(mains) < 4 {
		t.Fatalf("%d main requests, want 4:\n%s", len(mains), p.Fake.Summary())
	}
	for i, r := range mains[1:3] {
		text := unescapeJSON(r.Body())
		for _, m := range []string{"PKG-RULE-MARK", "PKGA-RULE-MARK", "CURSOR-GO-MARK"} {
			if c := strings.Count(text, m); c != 1 {
				t.Errorf("request %d: %s appears %d times, want once", i+1, m, c)
			}
		}
	}
	got := p.toolResult("call_grep")
	t.Logf("the model received %d bytes of the grep, ending: %s", len(got), tail(got, 300))
	checkCutOutput(t, p.Dir, got, whole)
}
