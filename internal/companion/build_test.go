package companion

import (
	"runtime/debug"
	"slices"
	"testing"
)

// TestSourceOf: only a 'go install' of cmd/atreides at a version the go
// command can fetch again names a source to install the companions from.
func TestSourceOf(t *testing.T) {
	const mod = "github.com/atreides-dev/atreides"
	for _, tc := range []struct {
		name, path, version string
		ok                  bool
	}{
		{"release", mod + "/cmd/atreides", "v0.3.0", true},
		{"prerelease", mod + "/cmd/atreides", "v0.3.1-rc.1", true},
		{"pseudo-version", mod + "/cmd/atreides", "v0.0.0-20261129203750-dda03cc1a2b3", true},
		{"checkout", mod + "/cmd/atreides", "(devel)", false},
		{"dirty checkout", mod + "/cmd/atreides", "v0.0.0-20261129203750-dda03cc1a2b3+dirty", false},
		{"another program", mod + "/cmd/atreides-ui", "v0.3.0", false},
		{"no version", mod + "/cmd/atreides", "", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bi := &debug.BuildInfo{Path: tc.path, Main: debug.Module{Path: mod, Version: tc.version}}
			src, ok := sourceOf(bi)
			if ok != tc.ok {
				t.Fatalf("sourceOf(%s %s) ok = %v, want %v", tc.path, tc.version, ok, tc.ok)
			}
			if ok && (src.Module != mod || src.Version != tc.version) {
				t.Errorf("source = %+v", src)
			}
		})
	}
}

// TestInstallArgs: one go command installs every companion, each at the
// same version.
func TestInstallArgs(t *testing.T) {
	got := Source{Module: "example.com/m", Version: "v1.2.3"}.installArgs()
	want := []string{"install", "example.com/m/cmd/atreides-team@v1.2.3", "example.com/m/cmd/atreides-mcp@v1.2.3",
		"example.com/m/cmd/atreides-ui@v1.2.3", "example.com/m/cmd/atreides-otel@v1.2.3"}
	if !slices.Equal(got, want) {
		t.Errorf("installArgs = %q, want %q", got, want)
	}
}

// TestInstallEnv: the go env file is off (the agent can write it with
// 'go env -w'), the toolchain is the local one and GOBIN is the
// directory of atreides, whatever the environment said.
func TestInstallEnv(t *testing.T) {
	got := installEnv([]string{"PATH=/usr/bin", "GOENV=/tmp/planted.env", "GOBIN=/tmp/elsewhere", "GOTOOLCHAIN=go1.99.0", "GOPROXY=https://proxy.example"}, "/opt/atreides")
	want := []string{"PATH=/usr/bin", "GOPROXY=https://proxy.example", "GOENV=off", "GOTOOLCHAIN=local", "GOBIN=/opt/atreides"}
	if !slices.Equal(got, want) {
		t.Errorf("installEnv = %q, want %q", got, want)
	}
}
