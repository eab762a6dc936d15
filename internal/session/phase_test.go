package session

import "testing"

func TestNextPhase(t *testing.T) {
	tests := []struct {
		cur   string
		calls int
		act   activity
		want  string
	}{
		{"", 0, actNone, ""},
		{"", 0, actRead, "assessment"},
		{"intent", 0, actRead, "assessment"},
		{"assessment", 2, actRead, "assessment"},
		{"assessment", 3, actRead, "exploration"},
		{"exploration", 9, actRead, "exploration"},
		{"assessment", 0, actVerify, "assessment"}, // tests before any change are exploration-like
		{"exploration", 0, actChange, "implementation"},
		{"implementation", 0, actRead, "implementation"},
		{"implementation", 0, actVerify, "verification"},
		{"verification", 0, actRead, "verification"},
		{"verification", 0, actChange, "implementation"},
		{"verification", 0, actNone, "verification"},
	}
	for _, tt := range tests {
		if got := nextPhase(tt.cur, tt.calls, tt.act); got != tt.want {
			t.Errorf("nextPhase(%q, %d, %d) = %q, want %q", tt.cur, tt.calls, tt.act, got, tt.want)
		}
	}
}

func TestNormalizeCommand(t *testing.T) {
	for in, want := range map[string]string{
		"go test ./...":                       "go test ./...",
		"  go   test\t./...  ":                "go test ./...",
		"go test ./... 2>&1 | tail -20":       "go test ./...",
		"go test ./... | grep FAIL | head -5": "go test ./...",
		"go test ./... | go run ./cmd/format": "go test ./... | go run ./cmd/format",
		"npm test":                            "npm test",
	} {
		if got := normalizeCommand(in); got != want {
			t.Errorf("normalizeCommand(%q) = %q, want %q", in, got, want)
		}
	}
}
