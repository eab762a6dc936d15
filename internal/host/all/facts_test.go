package all

import (
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host/hostlit"
	"github.com/atreides-dev/atreides/internal/host/opencode"
)

// TestFactsComplete: every host sets every fact a handler may read, or
// names it in Lacks (the host has no such thing, on purpose); a fact added
// to event.HostFacts fails here for every host until each says which.
func TestFactsComplete(t *testing.T) {
	typ := reflect.TypeOf(event.HostFacts{})
	for _, h := range All() {
		if h.Facts == nil {
			t.Errorf("%s: no facts", h.Name)
			continue
		}
		v := reflect.ValueOf(*h.Facts)
		for i := range typ.NumField() {
			name := typ.Field(i).Name
			set, lacks := !v.Field(i).IsZero(), slices.Contains(h.Lacks, name)
			switch {
			case !set && !lacks:
				t.Errorf("%s: fact %s is unset; set it, or name it in the host's Lacks", h.Name, name)
			case set && lacks:
				t.Errorf("%s: fact %s is set but named in Lacks", h.Name, name)
			}
		}
		for _, name := range h.Lacks {
			if _, ok := typ.FieldByName(name); !ok {
				t.Errorf("%s: Lacks names %s, no fact of event.HostFacts", h.Name, name)
			}
		}
	}
}

// TestFactsPinned: the facts of OpenCode that the delegation and policy
// tests repeat (their packages are linked by OpenCode's, which they cannot
// import).
func TestFactsPinned(t *testing.T) {
	want := event.HostFacts{TodoTool: "with your todowrite tool", DefaultAgent: "default", AgentKey: "subagent_type", GenericChildren: true, RawMCPTools: true}
	got := event.HostFacts{TodoTool: opencode.Facts.TodoTool, DefaultAgent: opencode.Facts.DefaultAgent, AgentKey: opencode.Facts.AgentKey,
		GenericChildren: opencode.Facts.GenericChildren, RawMCPTools: opencode.Facts.RawMCPTools}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("OpenCode's facts %+v, want %+v (and change the copies in delegation/hosts_test.go and policy/hosts_test.go)", got, want)
	}
}

// hostLiteralExceptions are the files outside internal/host allowed to
// name a host in a string literal, and why.
var hostLiteralExceptions = map[string]string{
	"internal/config/defaults_gen.go": "the built-in configuration, generated from defaults.yaml: user settings keyed by host name (background.commands, background.resume)",
	"internal/usage/lines.go":         `"gemini" is the type of an entry in Gemini CLI's chat recording, a value of its file format`,
	"internal/background/opencode.go": "RunnerOpenCode is the runner id stored in the state's background tasks",
}

// TestHostLiterals: no file outside internal/host names a host in a string
// literal (test files and test-support packages aside), but the listed
// exceptions; an exception that no longer names one is dropped from the
// list.
func TestHostLiterals(t *testing.T) {
	names := make([]string, 0, len(All()))
	for _, h := range All() {
		names = append(names, h.Name)
	}
	found, err := hostlit.Find(repoRoot(t), names, []string{"internal/view/viewtest/", "internal/install/hooktest/"})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]bool{}
	for _, l := range found {
		files[l.File] = true
		if _, ok := hostLiteralExceptions[l.File]; !ok {
			t.Errorf("%s: a host's name outside internal/host: read it from the event's facts or the registry", l)
		}
	}
	for f := range hostLiteralExceptions {
		if !files[f] {
			t.Errorf("%s names no host any more: drop it from hostLiteralExceptions", f)
		}
	}
	if testing.Verbose() {
		var b strings.Builder
		for _, l := range found {
			b.WriteString("\n" + l.String())
		}
		t.Logf("%d host literals outside internal/host:%s", len(found), b.String())
	}
}
