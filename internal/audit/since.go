package audit

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// ParseSince reads a --since value: a duration back from now ("90m",
// "2h", "1h30m", and "7d" or "2w" for days and weeks, which Go durations
// lack), a time in RFC 3339 ("2026-11-23T08:00:00Z"), or a day
// ("2026-11-23", from its midnight in loc).
func ParseSince(s string, now time.Time, loc *time.Location) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.ParseInLocation(time.DateOnly, s, loc); err == nil {
		return t, nil
	}
	if d, ok := days(s); ok {
		return now.Add(-d), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return time.Time{}, fmt.Errorf("--since %q: want a duration (2h, 30m, 7d), a day (2006-01-02) or a time (RFC 3339)", s)
	}
	return now.Add(-d), nil
}

// days reads "<n>d" or "<n>w".
func days(s string) (time.Duration, bool) {
	unit := 24 * time.Hour
	n, ok := strings.CutSuffix(s, "d")
	if !ok {
		if n, ok = strings.CutSuffix(s, "w"); !ok {
			return 0, false
		}
		unit *= 7
	}
	v, err := strconv.Atoi(n)
	if err != nil || v < 0 || v > 100*365 {
		return 0, false
	}
	return time.Duration(v) * unit, true
}
