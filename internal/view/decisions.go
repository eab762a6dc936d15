package view

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/atreides-dev/atreides/internal/audit"
)

// Decisions reads the audit trail's records that match f, keeping the
// newest limit (0: all) in time order; total counts every match. A line
// that does not decode is skipped: the trail's reader already checked it
// is JSON, so only a record of another shape is lost, never the view.
func Decisions(t audit.Reader, f audit.Filter, limit int) (recs []audit.Record, total int, err error) {
	lines, total, err := readLines(t, f, limit)
	return lines, total, err
}

// readLines is the decoded records that match f, the newest limit of
// them (0: all), in a ring so that a trail of a million lines costs the
// memory of limit records.
func readLines(t audit.Reader, f audit.Filter, limit int) ([]audit.Record, int, error) {
	var ring []audit.Record
	total := 0
	_, err := t.Read(f, func(line []byte) error {
		var l audit.Record
		if json.Unmarshal(line, &l) != nil {
			return nil
		}
		if limit > 0 && len(ring) == limit {
			ring[total%limit] = l
		} else {
			ring = append(ring, l)
		}
		total++
		return nil
	})
	if err != nil {
		return nil, 0, fmt.Errorf("read the audit trail: %w", err)
	}
	if limit > 0 && total > limit {
		k := total % limit
		ring = slices.Concat(ring[k:], ring[:k])
	}
	return ring, total, nil
}
