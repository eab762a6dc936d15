package install

import (
	"fmt"
	"strings"
	"testing"
)

func TestWantGroups(t *testing.T) {
	spec := &HookSpec{
		Host: "h", Name: "Some Host", Events: []string{"Start", "Pre", "Post"}, Optional: []string{"Note"},
		JudgedEvents: []string{"Pre"}, AllToolEvents: []string{"Post"}, Judged: func() string { return "^(Bash)$" },
	}
	handler := func(ev string, timeout int) *Node { return NewString(fmt.Sprint(ev, timeout)) }
	want := Want{Kind: "settings", Path: "/p/s.json", Bin: "/bin/atreides", DefaultTimeout: 10, Handler: handler}

	got, err := spec.WantGroups(want)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, g := range got {
		s, _ := g.Handler.Str()
		lines = append(lines, g.Event+" "+g.Matcher+" "+s)
	}
	if s := strings.Join(lines, "|"); s != "Start  Start10|Pre ^(Bash)$ Pre10|Post * Post10" {
		t.Errorf("default groups: %s", s)
	}

	want.Events, want.Timeout = []string{"Note", "Pre", "Note"}, 3
	if got, err := spec.WantGroups(want); err != nil || len(got) != 2 || got[0].Event != "Note" || got[0].Matcher != "" {
		t.Errorf("asked-for events: %+v, %v", got, err)
	}

	want.Events = []string{"Pre", "Other"}
	_, err = spec.WantGroups(want)
	if err == nil || err.Error() != `install: atreides does not handle the Some Host event "Other" (supported: Start, Pre, Post, Note)` {
		t.Errorf("unknown event: %v", err)
	}

	want.Events, want.Path = nil, ""
	if _, err := spec.WantGroups(want); err == nil || !strings.Contains(err.Error(), "no settings path") {
		t.Errorf("no path: %v", err)
	}
}
