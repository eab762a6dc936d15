package e2e

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/demo"
)

// TestDashboard drives the real Chromium against `atreides ui` on a project
// whose session was recorded by real hook processes (the demo's recorded
// Claude Code session, with governance on and an intent selected, so the
// ledger and the leases have rows, and a subagent's delegation). Each view
// is checked against what the command line reads from the same project
// (atreides log --json, trace show); the trace view nests the subagent's
// call under its delegation, shows durations, expands a denial into the
// guard's explain and filters by time range; a new hook event must reach
// the open trace and timeline without a reload; every view is saved as a
// screenshot ($ATREIDES_E2E_ARTIFACTS).
func TestDashboard(t *testing.T) {
	bin := atreidesFor(t)
	b := NewBrowser(t)
	d := newDashboardProject(t, bin)
	d.replay()
	d.subagent()
	url := d.startUI()

	// Sessions: the recorded session, by Claude Code, with its title (the
	// first prompt's first words).
	b.Open(url + "#/sessions")
	b.WaitVisible(`body[data-ready="1"]`)
	rows := b.WaitRows(`#sessions-table tbody tr[data-id]`, "the recorded session", func(r []string) bool { return len(r) == 1 })
	var rowID string
	b.Eval(`document.querySelector('#sessions-table tbody tr[data-id]').dataset.id`, &rowID)
	if rowID != d.sid || !strings.Contains(rows[0], "claude") || !strings.Contains(rows[0], "Clean up the build and add a changelog …") {
		t.Errorf("sessions row %q (id %q) does not name the session, its title and its host", rows[0], rowID)
	}
	b.Screenshot("sessions")

	// The trace: the prompt as root, each call one row with its
	// duration from pre to post, the subagent's calls under its
	// delegation.
	b.Click(fmt.Sprintf(`#sessions-table a[href="#/session/%s"]`, d.sid))
	b.WaitVisible(`#view-session #trace-table tr.span[data-kind="prompt"]`)
	b.WaitJS(`document.querySelector('#trace-table tr.span[data-kind="delegation"]') !== null`)
	var nest struct {
		Delegation, Parent, Call string
		Depth, ChildDepth        int
		Durations                int
		Hist                     int
	}
	b.Eval(`(() => {
		const dl = document.querySelector('#trace-table tr.span[data-kind="delegation"]');
		const child = document.querySelector('#trace-table tr.span[data-parent="' + dl.dataset.id + '"]');
		const call = document.querySelector('#trace-table tr.span[data-id="' + dl.dataset.parent + '"]');
		return { Delegation: dl.dataset.id, Parent: child ? child.dataset.parent : "", Depth: +dl.dataset.depth,
			Call: call ? call.dataset.kind + " " + call.querySelector('.title').textContent : "",
			ChildDepth: child ? +child.dataset.depth : -1,
			Durations: [...document.querySelectorAll('#trace-table tr.span[data-kind="tool"] td.dur')].filter(td => /\d (ms|s)$/.test(td.textContent)).length,
			Hist: document.querySelectorAll('#histogram svg .bar').length };
	})()`, &nest)
	if nest.Parent != nest.Delegation || nest.ChildDepth != nest.Depth+1 || !strings.HasPrefix(nest.Call, "tool Agent") {
		t.Errorf("the subagent's call does not nest under its delegation, under the Agent call: %+v", nest)
	}
	if nest.Durations == 0 || nest.Hist == 0 {
		t.Errorf("no durations or no histogram bars: %+v", nest)
	}
	// A row expands into the guard's explain and the config line.
	b.Click(`#trace-table tr.span[data-verdict="deny"]`)
	b.WaitVisible(`#trace-table tr.explain-row pre.config`)
	b.Screenshot("trace")

	// The time range: from the delegation's start on, the demo's first
	// call is gone and the subagent's spans stay.
	var since string
	b.Eval(`document.querySelector('#trace-table tr.span[data-kind="delegation"]').dataset.start`, &since)
	b.Eval(fmt.Sprintf(`location.hash = '#/session/%s?since=' + encodeURIComponent(%q)`, d.sid, since), nil)
	b.WaitJS(`[...document.querySelectorAll('#trace-table tr.span')].every(r => !r.textContent.includes('ls -la')) &&
		document.querySelector('#trace-table tr.span[data-kind="delegation"]') !== null`)
	b.Screenshot("trace-range")

	// The session's timeline (every item): one tool item per tool call
	// the trail holds, with the same verdicts.
	b.Click(`#timeline-box summary`)
	b.WaitVisible(`#view-session #timeline li[data-kind]`)
	want := d.verdicts("--session", d.sid)
	d.waitTimelineTools(b, want)
	var kinds []string
	b.Eval(`[...new Set([...document.querySelectorAll('#timeline li[data-kind]')].map(li => li.dataset.kind))]`, &kinds)
	for _, k := range []string{"tool", "event", "phase"} {
		if !slices.Contains(kinds, k) {
			t.Errorf("the timeline has no %q item; kinds: %v", k, kinds)
		}
	}
	b.Screenshot("session")

	// Live: a new hook event appears in the trace and the timeline
	// without a reload.
	b.Eval(`window.__loadMark = String(Math.random())`, nil)
	var mark string
	b.Eval(`window.__loadMark`, &mark)
	b.WaitJS(`document.querySelector('#live').textContent.trim() === 'live'`)
	d.hook(map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash",
		"tool_input": map[string]any{"command": "git push --force origin main"}, "tool_use_id": "toolu_live_1"})
	want = d.verdicts("--session", d.sid)
	d.waitTimelineTools(b, want)
	b.WaitJS(`[...document.querySelectorAll('#trace-table tr.span[data-kind="tool"]')].some(r => r.textContent.includes('git push --force origin main'))`)
	var after string
	b.Eval(`window.__loadMark`, &after)
	if after != mark {
		t.Fatalf("the page reloaded (load mark %q became %q) instead of updating live", mark, after)
	}
	b.Screenshot("session-live")

	// Decisions, filtered to denials.
	b.Click(`a[data-view="decisions"]`)
	b.WaitVisible(`#view-decisions #decisions-table tbody tr`)
	b.SetValue(`select#filter-verdict`, "deny")
	denials := count(d.verdicts("--verdict", "deny"), "deny")
	if denials == 0 {
		t.Fatal("the recorded session has no denial to filter to")
	}
	b.WaitJS(fmt.Sprintf(`(() => { const rs = [...document.querySelectorAll('#decisions-table tbody tr[data-id]')];
		return rs.length === %d && rs.every(r => r.dataset.verdict === 'deny'); })()`, denials))
	b.Screenshot("decisions-deny")

	// Governance: both intents, docs held by the session.
	b.Click(`a[data-view="governance"]`)
	gov := b.WaitRows(`#governance-table tbody tr[data-id]`, "the two intents", func(r []string) bool { return len(r) == 2 })
	var held []string
	b.Eval(`[...document.querySelectorAll('#governance-table tbody tr.held')].map(r => r.dataset.id)`, &held)
	if len(held) != 1 || held[0] != "docs" {
		t.Errorf("held intents %v, want [docs] (rows %q)", held, gov)
	}
	b.Screenshot("governance")

	// Ledger: one row per record trace show lists, the chain verified,
	// and a change's diff (or why there is none) on demand.
	b.Click(`a[data-view="ledger"]`)
	records := d.ledgerRecords()
	if records == 0 {
		t.Fatal("the recorded session left no ledger record")
	}
	b.WaitRows(`#ledger-table tbody tr[data-id]`, fmt.Sprintf("%d ledger records", records), func(r []string) bool { return len(r) == records })
	b.Click(`#ledger-table tbody tr[data-id] button.diff-toggle`)
	b.WaitVisible(`#ledger-table tr.diff-row`)
	b.Screenshot("ledger")

	// Tasks: a task added on the command line shows up live.
	d.run("task", "add", "Write the changelog", "--priority", "high")
	b.WaitJS(`!document.querySelector('a[data-view="tasks"]').hidden`)
	b.Click(`a[data-view="tasks"]`)
	tasks := b.WaitRows(`#tasks-table tbody tr[data-id]`, "the new task", func(r []string) bool { return len(r) == 1 })
	if !strings.Contains(tasks[0], "Write the changelog") {
		t.Errorf("tasks row %q", tasks[0])
	}
	b.Screenshot("tasks")

	b.Click(`a[data-view="background"]`)
	b.WaitVisible(`#view-background #background-table`)
	b.Screenshot("background")
}

// dashboardProject is the project the dashboard test looks at.
type dashboardProject struct {
	t              *testing.T
	bin, dir, home string
	sid            string
	env            []string
}

func newDashboardProject(t *testing.T, bin string) *dashboardProject {
	base := scratchDir(t)
	d := &dashboardProject{t: t, bin: bin, dir: filepath.Join(base, "proj"), home: filepath.Join(base, "home"), sid: "dash-session-1"}
	for _, dir := range []string{filepath.Join(d.dir, ".atreides"), d.home} {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	d.env = append(os.Environ(), "HOME="+d.home, "XDG_CONFIG_HOME="+filepath.Join(d.home, ".config"),
		"XDG_STATE_HOME="+filepath.Join(d.home, ".local", "state"), "CLAUDE_PROJECT_DIR="+d.dir)
	initProject(t, d.dir)
	writeDashFile(t, filepath.Join(d.dir, ".atreides", "config.yaml"), "governance:\n  enabled: true\n")
	writeDashFile(t, filepath.Join(d.dir, ".atreides", "intents.yaml"), `intents:
  - id: docs
    title: Keep the changelog
    status: open
    owned_scope: [CHANGELOG.md, build/**]
  - id: api
    title: Rework the API
    status: open
    owned_scope: [api/**]
`)
	return d
}

// replay runs the recorded session through real hook processes, all but
// its end, with the intent docs selected after the session starts. A
// Write is carried out before its PostToolUse, as the host would, so the
// ledger records the change.
func (d *dashboardProject) replay() {
	steps, err := demo.Steps(d.dir, d.home, d.sid)
	if err != nil {
		d.t.Fatal(err)
	}
	for i, s := range steps {
		if s.EventName() == "SessionEnd" {
			continue
		}
		d.carryOut(s)
		if _, err := demo.Run([]string{d.bin, "hook", "claude"}, d.env, d.dir, s.Input()); err != nil {
			d.t.Fatalf("step %d (%s): %v", i+1, s.Note, err)
		}
		if i == 0 {
			d.run("intent", "select", "docs", "--session", d.sid)
		}
	}
}

// subagent runs a delegation through the hook: the main agent's Agent
// call, inside which an Explore subagent runs one command and stops.
func (d *dashboardProject) subagent() {
	const agent, typ = "agent_dash_1", "Explore"
	task := map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Agent", "tool_use_id": "toolu_agent_1",
		"tool_input": map[string]any{"subagent_type": typ, "description": "Find the changelog", "prompt": "Where is the changelog kept?"}}
	d.hook(task)
	d.hook(map[string]any{"hook_event_name": "SubagentStart", "agent_id": agent, "agent_type": typ})
	call := map[string]any{"hook_event_name": "PreToolUse", "tool_name": "Bash", "agent_id": agent, "agent_type": typ,
		"tool_input": map[string]any{"command": "grep -rn Changelog ."}, "tool_use_id": "toolu_sub_1"}
	d.hook(call)
	call["hook_event_name"], call["duration_ms"] = "PostToolUse", 230
	call["tool_response"] = map[string]any{"stdout": "README.md:1: Changelog", "stderr": "", "interrupted": false}
	d.hook(call)
	d.hook(map[string]any{"hook_event_name": "SubagentStop", "agent_id": agent, "agent_type": typ, "stop_hook_active": false,
		"agent_transcript_path": filepath.Join(d.home, ".claude", "projects", "demo", agent+".jsonl")})
	task["hook_event_name"] = "PostToolUse"
	task["tool_response"] = map[string]any{"content": []map[string]any{{"type": "text", "text": "CHANGELOG.md at the root"}}}
	d.hook(task)
}

// carryOut writes the file of a PostToolUse of Write.
func (d *dashboardProject) carryOut(s demo.Step) {
	var p struct {
		Event string `json:"hook_event_name"`
		Tool  string `json:"tool_name"`
		Input struct {
			Path    string `json:"file_path"`
			Content string `json:"content"`
		} `json:"tool_input"`
	}
	if json.Unmarshal(s.Input(), &p) != nil || p.Event != "PostToolUse" || p.Tool != "Write" {
		return
	}
	writeDashFile(d.t, p.Input.Path, p.Input.Content)
}

// hook runs one more event of the session.
func (d *dashboardProject) hook(payload map[string]any) {
	payload["session_id"], payload["cwd"] = d.sid, d.dir
	payload["transcript_path"] = filepath.Join(d.home, ".claude", "projects", "demo", d.sid+".jsonl")
	in, _ := json.Marshal(payload)
	if _, err := demo.Run([]string{d.bin, "hook", "claude"}, d.env, d.dir, in); err != nil {
		d.t.Fatal(err)
	}
}

// run runs an atreides command in the project and returns its stdout.
func (d *dashboardProject) run(args ...string) string {
	cmd := boundedCommand(d.t, d.bin, args...)
	cmd.Dir, cmd.Env = d.dir, d.env
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		d.t.Fatalf("atreides %s: %v\n%s%s", strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

// verdicts is the verdict of every tool call `atreides log --json` lists
// with the given filter flags, in order.
func (d *dashboardProject) verdicts(flags ...string) []string {
	out := d.run(append([]string{"log", "--json"}, flags...)...)
	var vs []string
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var r struct{ Event, Verdict string }
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			d.t.Fatalf("log --json line %q: %v", sc.Text(), err)
		}
		if r.Event == "pre_tool" || r.Event == "permission_request" || slices.Contains(flags, "--verdict") {
			vs = append(vs, r.Verdict)
		}
	}
	return vs
}

// ledgerRecords counts the records of `atreides trace show --json`.
func (d *dashboardProject) ledgerRecords() int {
	out := d.run("trace", "show", "--json")
	n := 0
	for _, l := range strings.Split(strings.TrimSpace(out), "\n") {
		if strings.TrimSpace(l) != "" {
			n++
		}
	}
	return n
}

// waitTimelineTools waits until the timeline's tool items carry exactly
// the verdicts want, in order.
func (d *dashboardProject) waitTimelineTools(b *Browser, want []string) {
	d.t.Helper()
	js, _ := json.Marshal(want)
	b.WaitJS(fmt.Sprintf(`JSON.stringify([...document.querySelectorAll('#timeline li[data-kind="tool"]')].map(li => li.dataset.verdict || 'none')) === %q`, js))
}

// startUI starts `atreides ui` on a free loopback port and returns its
// URL once it answers.
func (d *dashboardProject) startUI() string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		d.t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	cmd := exec.Command(d.bin, "ui", "--addr", addr)
	cmd.Dir, cmd.Env = d.dir, d.env
	// atreides ui runs atreides-ui as its child, which holds the output
	// open: after a kill of atreides, Wait returns once WaitDelay has
	// passed instead of waiting for the child.
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		d.t.Fatal(err)
	}
	d.t.Cleanup(func() {
		cmd.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-done
			d.t.Errorf("atreides ui did not stop on SIGINT within 5 s:\n%s", out.String())
		}
	})
	url := "http://" + addr + "/"
	deadline := time.Now().Add(15 * time.Second)
	for {
		resp, err := http.Get(url + "api/sessions")
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return url
			}
		}
		if time.Now().After(deadline) {
			d.t.Fatalf("atreides ui did not answer on %s: %v\n%s", url, err, out.String())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func count(vs []string, v string) int {
	n := 0
	for _, x := range vs {
		if x == v {
			n++
		}
	}
	return n
}

func writeDashFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}
