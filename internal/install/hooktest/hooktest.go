// Package hooktest is the suite every host's installer passes, run by each
// host's tests with its own installer and forms: the hooks' round trip
// (install, reinstall, another binary, uninstall back to the original
// bytes, a broken file refused untouched), the agent and command files
// against the host's golden files, and the command files' round trip.
package hooktest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/agents"
	"github.com/atreides-dev/atreides/internal/install"
	"github.com/atreides-dev/atreides/internal/install/installtest"
	"github.com/atreides-dev/atreides/internal/slash"
)

// Host is one hook installer under test.
type Host struct {
	Name string // as in `atreides hook <Name>`
	// Events are those a complete install registers.
	Events    []string
	Path      func(dir string) string
	Install   func(path, bin string) (install.Report, error)
	Uninstall func(path string) (install.Report, error)
	Inspect   func(path string) (install.Status, error)
	// UserFile is a settings file with the user's own hooks and settings.
	UserFile string
}

// twoBins makes two executables named atreides in different directories.
func twoBins(t *testing.T) (string, string) {
	t.Helper()
	dir := t.TempDir()
	var bins []string
	for _, d := range []string{"a", "b"} {
		p := filepath.Join(dir, d, "atreides")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		bins = append(bins, p)
	}
	return bins[0], bins[1]
}

// CountOurs counts the handlers of ours per event in data; ours are
// recognised by their command alone, which names the host.
func CountOurs(t *testing.T, host string, data []byte) map[string]int {
	t.Helper()
	spec := &install.HookSpec{Host: host}
	doc, err := install.Parse(data)
	if err != nil {
		t.Fatalf("written file does not parse: %v\n%s", err, data)
	}
	out := map[string]int{}
	for _, m := range doc.Get("hooks").Members() {
		n := 0
		for _, g := range m.Value.Elems() {
			for _, h := range g.Get("hooks").Elems() {
				if spec.IsOurs(h) {
					n++
				}
			}
		}
		out[m.Key] = n
	}
	return out
}

// InstallUninstall checks the round trip of the host's hook install on a
// new file, an empty object and h.UserFile: install writes one handler of
// ours per event and reports them, a second install changes nothing,
// another binary updates ours in place, and uninstall gives the original
// bytes back.
func InstallUninstall(t *testing.T, h Host) {
	t.Helper()
	cases := []struct {
		name    string
		content *string
	}{
		{"new file", nil},
		{"empty object", installtest.Ptr("{}\n")},
		{"user file with own hooks", installtest.Ptr(h.UserFile)},
	}
	for _, tc := range cases {
		t.Run(h.Name+"/"+tc.name, func(t *testing.T) {
			binA, binB := twoBins(t)
			path := h.Path(t.TempDir())
			installtest.WriteFile(t, path, tc.content, 0o644)

			r, err := h.Install(path, binA)
			if err != nil {
				t.Fatalf("install: %v", err)
			}
			if r.Host != h.Name || r.Action != install.ActionInstalled || !slices.Equal(r.Added, h.Events) || r.Created != (tc.content == nil) || len(r.Warnings) != 0 {
				t.Errorf("report = %+v", r)
			}
			if r.Backup != "" {
				t.Errorf("backup %q without a backup directory", r.Backup)
			}
			first := installtest.ReadFile(t, path)
			ours := CountOurs(t, h.Name, first)
			for _, ev := range h.Events {
				if ours[ev] != 1 {
					t.Errorf("%s has %d handlers of ours", ev, ours[ev])
				}
			}
			if tc.content != nil && strings.Contains(*tc.content, "~/") {
				// The user's hooks are all still there.
				for _, l := range strings.Split(*tc.content, "\n") {
					if strings.Contains(l, `"command"`) && !strings.Contains(string(first), strings.TrimSpace(l)) {
						t.Errorf("user's %s lost", strings.TrimSpace(l))
					}
				}
			}
			st, err := h.Inspect(path)
			if err != nil || !st.Installed() || len(st.Duplicated) != 0 || len(st.Binaries) != 1 || !st.Binaries[0].Executable || st.Disabled != "" {
				t.Errorf("inspect = %+v, %v", st, err)
			}

			// Idempotent: byte-identical, not rewritten.
			r2, err := h.Install(path, binA)
			if err != nil || r2.Action != install.ActionUnchanged || r2.Backup != "" {
				t.Errorf("second install = %+v, %v", r2, err)
			}
			if got := installtest.ReadFile(t, path); string(got) != string(first) {
				t.Errorf("second install changed the file")
			}

			// Another binary path: updated in place, never duplicated.
			r3, err := h.Install(path, binB)
			if err != nil || r3.Action != install.ActionUpdated || !slices.Equal(r3.Updated, h.Events) || len(r3.Added) != 0 {
				t.Errorf("install with new binary = %+v, %v", r3, err)
			}
			moved := installtest.ReadFile(t, path)
			if strings.Contains(string(moved), binA) || !strings.Contains(string(moved), binB) {
				t.Errorf("binary path not updated:\n%s", moved)
			}
			if got := CountOurs(t, h.Name, moved); !maps2Equal(got, ours) {
				t.Errorf("handlers per event %v, want %v", got, ours)
			}

			u, err := h.Uninstall(path)
			if err != nil || u.Action != install.ActionRemoved || len(u.Removed) != len(h.Events) {
				t.Errorf("uninstall = %+v, %v", u, err)
			}
			got := installtest.ReadFile(t, path)
			want := "{}\n"
			if tc.content != nil {
				want = *tc.content
			}
			if string(got) != want {
				t.Errorf("uninstall did not restore the original bytes\n got: %s\nwant: %s", got, want)
			}
			if u2, err := h.Uninstall(path); err != nil || u2.Action != install.ActionNothingToDo {
				t.Errorf("second uninstall = %+v, %v", u2, err)
			}
			installtest.NoTempFiles(t, filepath.Dir(path))
		})
	}
}

func maps2Equal(a, b map[string]int) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if b[k] != v {
			return false
		}
	}
	return true
}

// RefuseBrokenJSON checks that install and uninstall refuse a file with
// a trailing comma, with its position and without touching it, and that
// inspect reports it.
func RefuseBrokenJSON(t *testing.T, h Host) {
	t.Helper()
	broken := "{\n  \"hooks\": {},\n}\n"
	for _, op := range []string{"install", "uninstall"} {
		t.Run(h.Name+"/"+op, func(t *testing.T) {
			path := h.Path(t.TempDir())
			installtest.WriteFile(t, path, &broken, 0o644)
			var err error
			if op == "install" {
				_, err = h.Install(path, "/opt/atreides/bin/atreides")
			} else {
				_, err = h.Uninstall(path)
			}
			if err == nil || !strings.Contains(err.Error(), path+":3:1:") || !strings.Contains(err.Error(), "trailing comma") || !strings.Contains(err.Error(), "untouched") {
				t.Errorf("error = %v; want file:3:1, the trailing comma, untouched", err)
			}
			if got := installtest.ReadFile(t, path); string(got) != broken {
				t.Error("file modified")
			}
			if ents, _ := os.ReadDir(filepath.Dir(path)); len(ents) != 1 {
				t.Errorf("extra files: %v", ents)
			}
			st, err := h.Inspect(path)
			if err != nil || st.Parses || !st.Exists || !strings.Contains(st.Problem, ":3:1:") {
				t.Errorf("inspect = %+v, %v", st, err)
			}
		})
	}
}

// Roster covers every tool permission, a model for one host, and
// text that needs quoting.
var Roster = agents.Roster{
	{ID: "lead", Name: "Lead", Role: "orchestrator", Mode: agents.Primary, Description: "leads", Prompt: "You lead.", Tools: agents.Full},
	{ID: "stilgar", Name: "Stilgar", Role: "oracle", Mode: agents.Subagent, Description: "Oracle: read-only \"adviser\"", Prompt: "You are Stilgar.\nBe brief.", Tools: agents.ReadOnly, Model: map[string]string{"claude": "opus", "codex": "gpt-5"}},
	{ID: "librarian", Name: "Librarian", Role: "librarian", Mode: agents.Subagent, Description: "Docs", Prompt: "You read docs.", Tools: agents.ReadWeb},
	{ID: "plan", Name: "Plan", Role: "plan", Mode: agents.Subagent, Description: "Plans", Prompt: "You plan.", Tools: agents.PlansOnly},
	{ID: "build", Name: "Build", Role: "build", Mode: agents.Subagent, Description: "Builds", Prompt: "You build.", Tools: agents.Full},
}

// AgentForm checks the host's file of each agent of Roster against the
// golden files testdata/agents/<host>-<id><ext>.golden (-update rewrites
// them), and that install recognises each as its own as written; an agent
// the host gets no file for has no golden file.
func AgentForm(t *testing.T, form install.AgentForm) {
	t.Helper()
	for _, a := range Roster {
		name := filepath.Join("testdata", "agents", form.Host+"-"+a.ID+form.Ext+".golden")
		if !form.Installs(a) {
			if _, err := os.Stat(name); err == nil {
				t.Errorf("%s: %s installs no file, but a golden file exists", form.Host, a.ID)
			}
			continue
		}
		got := form.File(a, a.Prompt)
		installtest.Golden(t, name, []byte(got))
		if form.State([]byte(got)) != install.OursAsWritten {
			t.Errorf("%s: not recognised as ours as written", name)
		}
	}
}

// CommandForm checks /plan in the host's format against the golden file
// testdata/commands/<host>-plan<ext>.golden (-update rewrites it): ours as
// written, not an agent file, with the host's spelling of the arguments
// and of atreides's tools.
func CommandForm(t *testing.T, form install.CommandForm) {
	t.Helper()
	c := Command(t, "plan")
	name := filepath.Join("testdata", "commands", form.Host+"-"+c.Name+form.Ext+".golden")
	got := form.File(c, func(s string) string { return "pfx_" + s })
	installtest.Golden(t, name, []byte(got))
	if form.State([]byte(got)) != install.OursAsWritten || (install.AgentForm{}).State([]byte(got)) != install.UserFile {
		t.Errorf("%s: not recognised as a command file of ours as written", name)
	}
	if !strings.Contains(got, form.Args) || !strings.Contains(got, "pfx_task_update_status") {
		t.Errorf("%s: arguments or tool names not spelt for the host", name)
	}
}

// Command is the shipped slash command of that name.
func Command(t *testing.T, name string) slash.Command {
	t.Helper()
	cmds, err := slash.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no command %s", name)
	return slash.Command{}
}

// CommandsRoundTrip: install creates the directories and files, again
// changes nothing, uninstall leaves no trace; a command no longer shipped
// is removed by the next install.
func CommandsRoundTrip(t *testing.T, form install.CommandForm) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, ".host", "commands")
	cmds, err := slash.All()
	if err != nil {
		t.Fatal(err)
	}
	o := install.CommandsOptions{Dir: dir, Form: form, Commands: cmds, BackupDir: filepath.Join(root, "backups")}
	if rep, err := install.InstallCommands(o); err != nil || rep.Action != install.ActionInstalled || len(rep.Added) != len(cmds) {
		t.Fatalf("%s install: %+v %v", form.Host, rep, err)
	}
	if rep, err := install.InstallCommands(o); err != nil || rep.Action != install.ActionUnchanged {
		t.Fatalf("%s reinstall: %+v %v", form.Host, rep, err)
	}
	o.Commands = cmds[1:]
	if rep, err := install.InstallCommands(o); err != nil || strings.Join(rep.Removed, " ") != cmds[0].HostName() {
		t.Fatalf("%s install of fewer: %+v %v", form.Host, rep, err)
	}
	// An install from before the prefix left /plan as plan<ext>, marked
	// as ours: the next install removes it, leaving /at-plan alone.
	old := filepath.Join(dir, cmds[1].Name+form.Ext)
	if err := os.WriteFile(old, []byte(form.File(cmds[1], nil)), 0o644); err != nil {
		t.Fatal(err)
	}
	if rep, err := install.InstallCommands(o); err != nil || strings.Join(rep.Removed, " ") != cmds[1].Name || rep.Action != install.ActionUpdated {
		t.Fatalf("%s install over an install of bare names: %+v %v", form.Host, rep, err)
	}
	if rep, err := install.UninstallCommands(dir, form.Host, form.Ext, o.BackupDir); err != nil || len(rep.Removed) != len(cmds)-1 {
		t.Fatalf("%s uninstall: %+v %v", form.Host, rep, err)
	}
	if _, err := os.Stat(filepath.Join(root, ".host")); !os.IsNotExist(err) {
		t.Errorf("%s: .host left behind: %v", form.Host, err)
	}
}

// Shape is what a fresh install must have written for every event.
type Shape struct {
	Host   string // as in `atreides hook <Host>`
	Events []string
	// Matcher is the event's matcher, "" for none (no "matcher" key).
	Matcher func(event string) string
	// Handler is our handler object, as encoding/json reads it.
	Handler func(event string) map[string]any
	// Fresh is set when the file held no hooks before the install: then
	// each event has our group alone.
	Fresh bool
}

// group is one matcher group of a settings file's hooks.
type group struct {
	Matcher *string          `json:"matcher"`
	Hooks   []map[string]any `json:"hooks"`
}

// CheckShape checks the hooks in data: each event has one handler of
// ours, alone in the event's last group, with the matcher and the handler
// object the host writes.
func CheckShape(t *testing.T, data []byte, s Shape) {
	t.Helper()
	var file struct {
		Hooks map[string][]group `json:"hooks"`
	}
	if err := json.Unmarshal(data, &file); err != nil {
		t.Fatal(err)
	}
	ours := CountOurs(t, s.Host, data)
	for _, ev := range s.Events {
		groups := file.Hooks[ev]
		if len(groups) == 0 || ours[ev] != 1 || (s.Fresh && len(groups) != 1) {
			t.Errorf("%s: %d groups, %d handlers of ours: %+v", ev, len(groups), ours[ev], groups)
			continue
		}
		g := groups[len(groups)-1] // ours comes last
		if want := s.Matcher(ev); (g.Matcher == nil) != (want == "") || (g.Matcher != nil && *g.Matcher != want) {
			t.Errorf("%s matcher %v, want %q", ev, g.Matcher, want)
		}
		if want := s.Handler(ev); len(g.Hooks) != 1 || fmt.Sprint(g.Hooks[0]) != fmt.Sprint(want) {
			t.Errorf("%s handlers %v, want only %v", ev, g.Hooks, want)
		}
	}
}

// Refusal is an install the host must refuse, and what its error says.
type Refusal struct {
	Name string
	Err  error // see [Err]
	Want string
}

// Err is the error of a call's two results.
func Err[T any](_ T, err error) error { return err }

// CheckRefusals checks that each install failed saying what it must, and
// that none of them wrote a file in dir.
func CheckRefusals(t *testing.T, dir string, cases []Refusal) {
	t.Helper()
	for _, tc := range cases {
		if tc.Err == nil || !strings.Contains(tc.Err.Error(), tc.Want) {
			t.Errorf("%s: error %v, want %q", tc.Name, tc.Err, tc.Want)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files written on error: %v", ents)
	}
}
