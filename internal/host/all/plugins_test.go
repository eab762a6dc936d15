package all

import (
	"slices"
	"testing"
)

// TestPluginDirs: the folders where the hosts keep atreides's installed
// plugin and extension, which the guard protects like the binary; none
// when the home is unknown.
func TestPluginDirs(t *testing.T) {
	got := pluginDirs("/home/user", func(string) string { return "" })
	want := []string{
		"/home/user/.claude/plugins/cache/atreides/", "/home/user/.claude/plugins/marketplaces/atreides/",
		"/home/user/.claude/plugins/data/atreides-atreides/", "/home/user/.gemini/extensions/atreides/",
	}
	if !slices.Equal(got, want) {
		t.Errorf("plugin dirs\n got %q\nwant %q", got, want)
	}
	if got := pluginDirs("", func(string) string { return "" }); len(got) != 0 {
		t.Errorf("no home: %q", got)
	}
	if Guard().Plugins == nil {
		t.Error("the guard's hosts carry no plugin folders")
	}
}
