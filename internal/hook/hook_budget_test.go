package hook

import (
	"testing"
	"time"
)

// The budget stays under the timeout install wrote, with room to answer.
func TestBudgetFor(t *testing.T) {
	for _, tc := range []struct{ timeout, want time.Duration }{
		{10 * time.Second, 8 * time.Second},
		{3 * time.Second, 2 * time.Second},
		{time.Second, 500 * time.Millisecond},
		{60 * time.Second, 48 * time.Second},
		{1500 * time.Millisecond, 750 * time.Millisecond},
	} {
		if got := budgetFor(tc.timeout); got != tc.want || got >= tc.timeout {
			t.Errorf("budgetFor(%v) = %v, want %v", tc.timeout, got, tc.want)
		}
	}
}
