package hook

import (
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/config"
	"github.com/atreides-dev/atreides/internal/engine"
	"github.com/atreides-dev/atreides/internal/event"
)

// presetHandlers are the handlers each preset runs, in the engine's order:
// a handler added to handlers() fails this table until it is placed in
// presetOf, and a change of preset of one shows here.
var presetHandlers = map[config.Preset][]string{
	config.PresetGuard: {"guard", "governance", "plan-approval", "health", "record", "config-note", "errors"},
	config.PresetStandard: {"guard", "governance", "plan-approval", "outputs", "health", "memory", "memory-pending", "memory-anchors",
		"monitor", "strikes", "todo-tracker", "stop-gate", "record", "config-note", "errors", "rule-files", "mcp-caller"},
	config.PresetFull: {"guard", "governance", "plan-approval", "delegation-todo", "delegation", "read-first",
		"edit-checks", "outputs", "health", "session-context", "memory", "memory-pending", "memory-anchors", "monitor", "phase",
		"strikes", "todo-tracker", "stop-gate", "verify-gate", "record", "config-note", "errors", "keywords", "comments",
		"rule-files", "context-tiers", "mcp-caller", "background", "skills"},
}

func handlerNames(s *Settings) []string {
	var out []string
	for _, h := range handlers(s, engine.AnyKind) {
		out = append(out, h.Name)
	}
	return out
}

// TestHandlersFitTheirRoom: the handler list is made once at its full
// size; one that outgrew handlersCap would be copied as it grows.
func TestHandlersFitTheirRoom(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg")) // no user file: preset full
	s := NewSettings(filepath.Join(dir, "project"))
	hs := handlers(s, engine.AnyKind)
	if len(hs) < len(presetHandlers[config.PresetFull]) || cap(hs) != handlersCap {
		t.Errorf("%d handlers in a list of room %d; handlersCap is %d", len(hs), cap(hs), handlersCap)
	}
}

// TestPresetHandlers: each preset, set in the user's file (the user's own,
// trusted), runs exactly its handlers; no file at all runs full's, and so
// does a file that cannot be read. Below full the roster is empty.
func TestPresetHandlers(t *testing.T) {
	tests := []struct {
		name, user, project string // "" writes no file
		want                config.Preset
	}{
		{"no file", "", "", config.PresetFull},
		{"guard", "preset: guard\n", "", config.PresetGuard},
		{"standard", "preset: standard\n", "", config.PresetStandard},
		{"full", "preset: full\n", "", config.PresetFull},
		{"broken project file", "preset: guard\n", "preset: [\n", config.PresetFull},
		{"unknown preset", "", "preset: minimal\n", config.PresetFull},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			t.Setenv("XDG_CONFIG_HOME", dir+"/xdg")
			writeConfig(t, filepath.Join(dir, "xdg", "atreides", "config.yaml"), tt.user)
			root := filepath.Join(dir, "project")
			writeConfig(t, filepath.Join(root, ".atreides", "config.yaml"), tt.project)
			s := NewSettings(root)
			if got := handlerNames(s); !slices.Equal(got, presetHandlers[tt.want]) {
				t.Errorf("handlers = %q\nwant %q", got, presetHandlers[tt.want])
			}
			if full := tt.want == config.PresetFull; (len(s.roster()) > 0) != full {
				t.Errorf("roster of %d agents with preset %s", len(s.roster()), tt.want)
			}
		})
	}
}

// TestPresetUntrusted: a project file may lower the preset only once the
// user trusts it (a lower preset switches off handlers that block).
func TestPresetUntrusted(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir+"/xdg")
	root := filepath.Join(dir, "project")
	writeConfig(t, filepath.Join(root, ".atreides", "config.yaml"), "preset: guard\n")
	if got := handlerNames(NewSettings(root)); !slices.Equal(got, presetHandlers[config.PresetFull]) {
		t.Fatalf("untrusted preset: guard applied: %q", got)
	}
	paths := config.DefaultPaths(root)
	c, err := config.Load(paths)
	if err != nil {
		t.Fatal(err)
	}
	if err := config.TrustProject(paths, c.Trust(), false, time.Now()); err != nil {
		t.Fatal(err)
	}
	if got := handlerNames(NewSettings(root)); !slices.Equal(got, presetHandlers[config.PresetGuard]) {
		t.Errorf("trusted preset: guard: %q", got)
	}
}

// BenchmarkHandlers is building the handler list of one event, full (no
// file) and guard: the filter must cost no allocation of its own.
func BenchmarkHandlers(b *testing.B) {
	for _, p := range []string{"", "preset: guard\n"} {
		dir := b.TempDir()
		b.Setenv("XDG_CONFIG_HOME", dir+"/xdg")
		writeConfig(b, filepath.Join(dir, "xdg", "atreides", "config.yaml"), p)
		s := NewSettings(filepath.Join(dir, "project"))
		name := "full"
		if p != "" {
			name = "guard"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = handlers(s, engine.AnyKind)
			}
		})
	}
}

// TestHandlersOfOneKind: for an event of each kind, a hook builds fewer
// handlers than the full list, and among them every one of the full list
// that may run on it, in the same order: those it skips would not run.
func TestHandlersOfOneKind(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("HOME", dir)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(dir, "xdg"))
	s := NewSettings(filepath.Join(dir, "project"))
	every := handlers(s, engine.AnyKind)
	for _, k := range []event.Kind{event.SessionStart, event.UserPrompt, event.PreTool, event.PermissionRequest,
		event.PostTool, event.Stop, event.SubagentStart, event.SubagentStop, event.PreCompact, event.PostCompact,
		event.SessionEnd, event.Notification} {
		var want, got []string
		for _, h := range every {
			if len(h.Kinds) == 0 || slices.Contains(h.Kinds, k) {
				want = append(want, h.Name)
			}
		}
		built := handlers(s, engine.RunsOn(k))
		for _, h := range built {
			if len(h.Kinds) == 0 || slices.Contains(h.Kinds, k) {
				got = append(got, h.Name)
			}
		}
		if !slices.Equal(got, want) || len(built) >= len(every) {
			t.Errorf("%s: built %d of %d handlers, of which these run: %q, want %q", k, len(built), len(every), got, want)
		}
	}
}
