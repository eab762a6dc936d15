package buildinfo

import (
	"runtime/debug"
	"testing"
)

func reader(bi *debug.BuildInfo) func() (*debug.BuildInfo, bool) {
	return func() (*debug.BuildInfo, bool) { return bi, bi != nil }
}

func TestResolve(t *testing.T) {
	checkout := &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123456789abcdef01234567"},
		{Key: "vcs.time", Value: "2026-11-29T10:11:12Z"},
		{Key: "vcs.modified", Value: "true"},
	}}
	tests := []struct {
		name    string
		stamped Info
		bi      *debug.BuildInfo
		want    Info
	}{
		{"no build info", Info{}, nil, Info{Version: "devel"}},
		{"go install m@v", Info{}, &debug.BuildInfo{Main: debug.Module{Version: "v0.3.0"}}, Info{Version: "v0.3.0"}},
		{"a dirty checkout", Info{}, checkout, Info{"devel", "0123456789ab+dirty", "2026-11-29T10:11:12Z"}},
		{"clean checkout", Info{}, &debug.BuildInfo{Settings: []debug.BuildSetting{
			{Key: "vcs.revision", Value: "abc"}, {Key: "vcs.modified", Value: "false"}}},
			Info{Version: "devel", Commit: "abc"}},
		{"stamped wins", Info{"v1.2.3", "feedbeef", "2026-01-02T03:04:05Z"}, checkout, Info{"v1.2.3", "feedbeef", "2026-01-02T03:04:05Z"}},
		{"stamped version only", Info{Version: "v1.2.3"}, checkout, Info{"v1.2.3", "0123456789ab+dirty", "2026-11-29T10:11:12Z"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := resolve(tt.stamped, reader(tt.bi)); got != tt.want {
				t.Errorf("resolve = %+v, want %+v", got, tt.want)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	tests := []struct {
		i    Info
		want string
	}{
		{Info{Version: "devel"}, "atreides devel"},
		{Info{"v0.3.0", "abc1234", "2026-11-29T10:00:00Z"}, "atreides v0.3.0 (abc1234, 2026-11-29)"},
		{Info{Version: "v0.3.0", Commit: "abc1234"}, "atreides v0.3.0 (abc1234)"},
	}
	for _, tt := range tests {
		if got := tt.i.summary("atreides"); got != tt.want {
			t.Errorf("summary(%+v) = %q, want %q", tt.i, got, tt.want)
		}
	}
}

// TestRead: this test binary has a version whatever the build.
func TestRead(t *testing.T) {
	if Version() == "" {
		t.Error("Version is empty")
	}
	if s := SummaryOf("atreides-ui"); len(s) < len("atreides-ui d") {
		t.Errorf("SummaryOf = %q", s)
	}
}
