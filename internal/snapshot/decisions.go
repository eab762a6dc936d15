package snapshot

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/atreides-dev/atreides/internal/audit"
)

// auditLine is an audit record as the read side decodes it.
type auditLine struct {
	audit.Record
	Marks []Mark `json:"marks,omitempty"`
}

// Mark is a change of a session's state the audit trail recorded with the
// event that made it (a phase change, a strike, a todo closed, ...).
type Mark struct {
	Kind string `json:"kind"`
	Text string `json:"text"`
}

// Decisions reads the audit trail's records that match f, keeping the
// newest limit (0: all) in time order; total counts every match. A line
// that does not decode is skipped: the trail's reader already checked it
// is JSON, so only a record of another shape is lost, never the view.
func Decisions(t *audit.Trail, f audit.Filter, limit int) (recs []audit.Record, total int, err error) {
	lines, total, err := readLines(t, f, limit)
	recs = make([]audit.Record, 0, len(lines))
	for _, l := range lines {
		recs = append(recs, l.Record)
	}
	return recs, total, err
}

// readLines is the decoded records that match f, the newest limit of
// them (0: all), in a ring so that a trail of a million lines costs the
// memory of limit records.
func readLines(t *audit.Trail, f audit.Filter, limit int) ([]auditLine, int, error) {
	var ring []auditLine
	total := 0
	_, err := t.Read(f, func(line []byte) error {
		var l auditLine
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
