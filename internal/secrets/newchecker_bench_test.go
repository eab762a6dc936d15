package secrets

import "testing"

func BenchmarkNewChecker(b *testing.B) {
	for b.Loop() {
		if _, err := NewChecker(Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
