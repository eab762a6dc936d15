package guard

import "testing"

// BenchmarkBuildHandlers: the handler table a hook builds for the first
// command it checks.
func BenchmarkBuildHandlers(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if len(buildHandlers()) == 0 {
			b.Fatal("no handlers")
		}
	}
}

// BenchmarkDerivers: the effect derivers of a program name, looked up
// (what a hook pays once per command).
func BenchmarkDerivers(b *testing.B) {
	b.ReportAllocs()
	names := []string{"go", "tail", "sudo", "env", "bash", "curl", "sh", "cd", "rm"}
	for b.Loop() {
		for _, n := range names {
			for _, p := range []byte(derivers(n)) {
				_ = deriverAt(int(p))
			}
		}
	}
}
