package install

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/shell"
)

func TestReportJSONAndText(t *testing.T) {
	r := Report{Host: "claude", Path: "/p/.claude/settings.json", Action: ActionInstalled, Added: []string{"Stop"}, Backup: "/p/.atreides/backups/settings.json-0123456789ab.prev"}
	b, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	// Every key, lists as [] when empty: the same shape whatever happened.
	if want := `{"host":"claude","path":"/p/.claude/settings.json","action":"installed","created":false,"added":["Stop"],"updated":[],"removed":[],"backup":"/p/.atreides/backups/settings.json-0123456789ab.prev","warnings":[],"notes":[]}`; string(b) != want {
		t.Errorf("json %s", b)
	}
	if s := r.String(); !strings.Contains(s, "installed") || !strings.Contains(s, "added: Stop") || !strings.Contains(s, "backup") {
		t.Errorf("text %q", s)
	}
	if s := (Report{Path: "x", Action: ActionUnchanged}).String(); !strings.Contains(s, "already installed") {
		t.Errorf("text %q", s)
	}
}

func TestShellWords(t *testing.T) {
	quote := []struct{ in, want string }{
		{"/usr/local/bin/atreides", "/usr/local/bin/atreides"},
		{"/home/me/my tools/atreides", "'/home/me/my tools/atreides'"},
		{"/tmp/it's/atreides", `'/tmp/it'\''s/atreides'`},
		{"/a/$HOME/atreides", "'/a/$HOME/atreides'"},
		{`C:\Users\me\atreides.exe`, `'C:\Users\me\atreides.exe'`},
	}
	for _, tt := range quote {
		got := ShellQuote(tt.in)
		if got != tt.want {
			t.Errorf("ShellQuote(%q) = %q want %q", tt.in, got, tt.want)
		}
		if w, dyn, ok := shell.Argv(got + " hook claude"); !ok || len(w) != 3 || w[0] != tt.in || w[1] != "hook" || dyn {
			t.Errorf("Argv(quote(%q)) = %q %v %v", tt.in, w, dyn, ok)
		}
	}
	words := []struct {
		in, word string
		dynamic  bool
		ok       bool
	}{
		{`"/a b/atreides" hook claude`, "/a b/atreides", false, true},
		{`/a\ b/atreides hook`, "/a b/atreides", false, true},
		{`"$HOME/atreides" hook`, "$HOME/atreides", true, true},
		{`~/bin/atreides hook`, "~/bin/atreides", true, true},
		{`atreides;rm -rf /`, "atreides", false, true},
		{`'unterminated`, "", false, false},
		{`   `, "", false, false},
	}
	for _, tt := range words {
		w, dyn, ok := shell.Argv(tt.in)
		first := ""
		if len(w) > 0 {
			first = w[0]
		}
		if first != tt.word || dyn != tt.dynamic || ok != tt.ok {
			t.Errorf("Argv(%q) = %q %v %v", tt.in, w, dyn, ok)
		}
	}
}
