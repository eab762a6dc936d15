package state

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/store"
)

// Quarantined is a record that could not be decoded, kept aside with its
// bytes as they were so that nothing is destroyed and a bug can be
// diagnosed. Records stay there until pruned with old sessions (see
// [Prune]); at most [MaxQuarantined] are kept.
type Quarantined struct {
	Kind   string    `json:"kind"` // session | project
	Key    string    `json:"key"`  // the session id, or "project"
	Time   time.Time `json:"t"`
	Reason string    `json:"reason"`
	// Lost names the parts of a project record that could not be
	// salvaged; a session is never salvaged.
	Lost []string `json:"lost,omitempty"`
	Data []byte   `json:"data"`
}

// MaxQuarantined bounds the quarantine; the oldest record goes first.
const MaxQuarantined = 50

// QuarantinedRecords lists the quarantine, oldest first. An entry that
// does not decode itself is listed with what its key tells.
func QuarantinedRecords(tx *store.Tx) ([]Quarantined, error) {
	var out []Quarantined
	err := tx.ForEach(bucketQuarantine, func(key string, val []byte) error {
		var q Quarantined
		if err := json.Unmarshal(val, &q); err != nil {
			q = Quarantined{Kind: "unknown", Key: key, Reason: "the quarantine entry itself is unreadable: " + err.Error()}
		}
		out = append(out, q)
		return nil
	})
	return out, err
}

func quarantineSession(tx *store.Tx, id string, data []byte, cause error, now time.Time) error {
	q := Quarantined{Kind: "session", Key: id, Time: now.UTC(), Reason: cause.Error(), Data: data}
	if err := putQuarantine(tx, q); err != nil {
		return err
	}
	if err := deleteSession(tx, id); err != nil {
		return err
	}
	tx.Report(fmt.Sprintf("session %s: its state record could not be decoded (%v); moved it to the quarantine and started the session afresh (see atreides doctor)", id, cause))
	return nil
}

func quarantineProject(tx *store.Tx, b []byte, cause error, lost []string) error {
	q := Quarantined{Kind: "project", Key: keyProject, Time: time.Now().UTC(), Reason: cause.Error(), Lost: lost, Data: b}
	if err := putQuarantine(tx, q); err != nil {
		return err
	}
	kept := "everything else was kept"
	if len(lost) == 0 {
		kept = "nothing was lost"
	}
	names := partNames(lost)
	tx.Report(fmt.Sprintf("PROJECT STATE DAMAGED: the project record could not be decoded (%v); LOST: %s; %s. The record's bytes are kept in the quarantine (see atreides doctor); re-add lost todos and anchors, and select intents again.",
		cause, orNothing(strings.Join(names, ", ")), kept))
	return nil
}

func orNothing(s string) string {
	if s == "" {
		return "nothing"
	}
	return s
}

// partNames says what the lost keys of a project record held, once each.
func partNames(lost []string) []string {
	var out []string
	for _, k := range lost {
		if n := partName(k); !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// partName says what a project record's key (a section's name, a JSON
// member) holds, for the report: the group's that holds it ([Describer]).
func partName(key string) string {
	if key == "housekeeping" {
		return "housekeeping (when old sessions were last pruned)"
	}
	ready()
	for tag, k := range &projectKeys {
		if k.ok() && k.holds(key, projectSections[tag].name) {
			return k.describe()
		}
	}
	return key
}

func putQuarantine(tx *store.Tx, q Quarantined) error {
	b, err := json.Marshal(q)
	if err != nil {
		return fmt.Errorf("quarantine %s %s: %w", q.Kind, q.Key, err)
	}
	// Time first, so the bucket's byte order is oldest first.
	key := q.Time.UTC().Format("20060102T150405.000000000Z") + " " + q.Kind + " " + q.Key
	if err := tx.Put(bucketQuarantine, key, b); err != nil {
		return fmt.Errorf("quarantine %s %s: %w", q.Kind, q.Key, err)
	}
	var keys []string
	if err := tx.ForEach(bucketQuarantine, func(k string, _ []byte) error { keys = append(keys, k); return nil }); err != nil {
		return err
	}
	for _, k := range keys[:max(0, len(keys)-MaxQuarantined)] {
		if err := tx.Delete(bucketQuarantine, k); err != nil {
			return err
		}
	}
	return nil
}

// salvageProject keeps every top-level part of a damaged project record
// that decodes on its own, and names the parts that do not. Counters are
// raised past the ids kept, so a lost counter never hands out an id twice.
func salvageProject(b []byte) (*Project, []string) {
	p := &Project{Version: ProjectVersion}
	if isBinary(b) {
		return salvageBinaryProject(b)
	}
	var parts map[string]json.RawMessage
	if err := json.Unmarshal(b, &parts); err != nil {
		return p, []string{"everything (the record is not a JSON object)"}
	}
	var lost []string
	for _, k := range slices.Sorted(maps.Keys(parts)) {
		if k == "v" {
			continue
		}
		one, err := json.Marshal(map[string]json.RawMessage{k: parts[k]})
		var probe Project
		if err == nil {
			err = json.Unmarshal(one, &probe)
		}
		if err != nil {
			lost = append(lost, k)
			continue
		}
		_ = json.Unmarshal(one, p)
	}
	return raiseCounters(p), lost
}

// salvageBinaryProject keeps every section of a damaged binary project
// record that decodes on its own: those before a break in the framing, and
// each whole one that is not damaged inside.
func salvageBinaryProject(b []byte) (*Project, []string) {
	p := &Project{Version: ProjectVersion}
	ready()
	rec, err := splitRecord(b, kindProject, ProjectVersion)
	var lost []string
	for tag, sec := range projectSections {
		if !sec.known() {
			continue // no group of this build's
		}
		if rec[tag] == "" {
			if err != nil && sec.group != 0 {
				lost = append(lost, sec.name) // perhaps after the break
			}
			continue
		}
		var one Project
		if decodeSection(sec, rec[tag], &one) != nil {
			lost = append(lost, sec.name)
			continue
		}
		_ = decodeSection(sec, rec[tag], p)
	}
	return raiseCounters(p), lost
}

// raiseCounters raises a salvaged project's counters past the ids kept,
// so a lost counter never hands out an id twice.
func raiseCounters(p *Project) *Project {
	each(p, func(g any) {
		if s, ok := g.(Salvager); ok {
			s.Salvaged()
		}
	})
	return p
}
