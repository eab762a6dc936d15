package hook

import (
	"runtime/debug"
	"testing"
)

// TestTuneGC: a server collects garbage at serverGCPercent, unless GOGC
// says otherwise.
func TestTuneGC(t *testing.T) {
	was := debug.SetGCPercent(100)
	defer debug.SetGCPercent(was)
	for _, tc := range []struct {
		gogc string
		want int
	}{
		{"", serverGCPercent},
		{"50", 100}, // the user's: the runtime read it at start
	} {
		debug.SetGCPercent(100)
		tuneGC(func(k string) string {
			if k == "GOGC" {
				return tc.gogc
			}
			return ""
		})
		if got := debug.SetGCPercent(100); got != tc.want {
			t.Errorf("GOGC=%q: target %d, want %d", tc.gogc, got, tc.want)
		}
	}
}
