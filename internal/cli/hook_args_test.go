package cli

import "testing"

// TestHookArgs: the command line hosts run is read without the command
// tree, and everything else is left to it (help, unknown flags, values
// that do not parse, no host or two).
func TestHookArgs(t *testing.T) {
	for _, tc := range []struct {
		args []string
		ok   bool
		want hookOptions
	}{
		{[]string{"hook", "claude"}, true, hookOptions{host: "claude"}},
		{[]string{"hook", "copilot", "--event", "preToolUse"}, true, hookOptions{host: "copilot", event: "preToolUse"}},
		{[]string{"hook", "--event=Stop", "--timeout", "10", "claude"}, true, hookOptions{host: "claude", event: "Stop", timeout: 10}},
		{[]string{"hook", "gemini", "--timeout=2.5"}, true, hookOptions{host: "gemini", timeout: 2.5}},
		{[]string{"hook"}, false, hookOptions{}},
		{[]string{"hook", "claude", "codex"}, false, hookOptions{}},
		{[]string{"hook", "--event", "Stop"}, false, hookOptions{}},
		{[]string{"hook", "claude", "--timeout", "soon"}, false, hookOptions{}},
		{[]string{"hook", "claude", "--timeout"}, false, hookOptions{}},
		{[]string{"hook", "claude", "--help"}, false, hookOptions{}},
		{[]string{"hook", "claude", "-h"}, false, hookOptions{}},
		{[]string{"hook", "claude", "--", "x"}, false, hookOptions{}},
		{[]string{"hook", "claude", "--verbose"}, false, hookOptions{}},
		{[]string{"status", "claude"}, false, hookOptions{}},
	} {
		o, ok := hookArgs(tc.args)
		if ok != tc.ok {
			t.Errorf("hookArgs(%q) ok = %v, want %v", tc.args, ok, tc.ok)
			continue
		}
		if ok && *o != tc.want {
			t.Errorf("hookArgs(%q) = %+v, want %+v", tc.args, *o, tc.want)
		}
	}
}
