package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"time"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/atreides-dev/atreides/internal/store"
)

// PruneEvery is how often [Prune] is worth running: sessions age in days,
// so looking more often finds nothing new.
const PruneEvery = 24 * time.Hour

// PruneDue reports whether old sessions should be looked for at now.
func (p *Project) PruneDue(now time.Time) bool {
	return now.Sub(p.Pruned) >= PruneEvery || now.Before(p.Pruned)
}

// PruneCounts is what one [Prune] removed.
type PruneCounts struct {
	Sessions    int // sessions without an event for longer than the age
	Quarantined int // quarantine entries older than the age
	Damaged     int // undecodable session records moved to the quarantine
}

// Prune removes the sessions whose last event is older than maxAge (except
// keep, the session of the event at hand) and the quarantine entries older
// than maxAge, and tells the loaded groups of p that refer to sessions
// ([SessionForgetter], loaded with [PruneGroups]) which went (governance
// releases their intent locks); it records now in p so that
// [Project.PruneDue] waits a day. maxAge <= 0 removes nothing. Only the head of each record is read (its "updated" time), so a
// prune costs a bucket walk, not a decode of every session. An undecodable
// session record it meets is quarantined like [LoadSession] would.
func Prune(tx *store.Tx, p *Project, keep string, now time.Time, maxAge time.Duration) (PruneCounts, error) {
	var n PruneCounts
	p.Pruned = now
	if maxAge <= 0 {
		return n, nil
	}
	cutoff := now.Add(-maxAge)
	var old, damaged []string
	err := sessionRecords(tx, func(id string, b []byte, err error) error {
		if id == keep {
			return nil
		}
		var t time.Time
		if err == nil {
			t, err = sessionUpdated(b)
		}
		switch {
		case errors.Is(recordErr(err), ErrNewer), errors.Is(err, confined.ErrRefused):
			// Left alone, as Load leaves them.
		case err != nil:
			damaged = append(damaged, id)
		case t.Before(cutoff):
			old = append(old, id)
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	for _, id := range old {
		if err := deleteSession(tx, id); err != nil {
			return n, err
		}
		each(p, func(g any) {
			if f, ok := g.(SessionForgetter); ok {
				f.ForgetSession(id)
			}
		})
		n.Sessions++
	}
	for _, id := range damaged {
		if _, err := LoadSession(tx, id, "", now); err != nil {
			return n, err
		}
		n.Damaged++
	}
	var stale []string
	err = tx.ForEach(bucketQuarantine, func(key string, val []byte) error {
		var q struct {
			Time time.Time `json:"t"`
		}
		if json.Unmarshal(val, &q) != nil || q.Time.Before(cutoff) {
			stale = append(stale, key)
		}
		return nil
	})
	if err != nil {
		return n, err
	}
	for _, k := range stale {
		if err := tx.Delete(bucketQuarantine, k); err != nil {
			return n, err
		}
		n.Quarantined++
	}
	return n, nil
}

// sessionUpdated reads a session record's "updated" time: from the core
// of a binary record; the JSON encodings wrote it among the first fields, before the history, so the walk stops
// after a few hundred bytes; a record where it is not found early is
// decoded in full.
func sessionUpdated(b []byte) (time.Time, error) {
	if isBinary(b) {
		s, _, err := decodeSession(b, 0) // the core only
		if err != nil {
			return time.Time{}, err
		}
		return s.Updated, nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if tok, err := dec.Token(); err == nil && tok == json.Delim('{') {
		for range 8 {
			tok, err := dec.Token()
			if err != nil {
				break
			}
			if tok == "updated" {
				var t time.Time
				if dec.Decode(&t) == nil {
					return t, nil
				}
				break
			}
			var skip json.RawMessage
			if dec.Decode(&skip) != nil {
				break
			}
		}
	}
	s, err := DecodeSession(b)
	if err != nil {
		return time.Time{}, err
	}
	return s.Updated, nil
}
