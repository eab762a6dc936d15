package state

import (
	"encoding/json"
	"fmt"

	"github.com/atreides-dev/atreides/internal/lazy"
)

// A session record of encoding version 1 held every feature's fields side
// by side in one JSON object; version 2 gave each feature a member of its
// own. A version 1 record is rewritten as version 2's JSON and decoded as
// that, so that each group, wherever its type lives, decodes its own part.
// Delete this once no supported release writes version 1.

// v1Moves are the members of a version 1 record that moved into a group:
// the group's member and the field there.
var v1Moves = lazy.Value[map[string][2]string]{New: func() map[string][2]string {
	return map[string][2]string{
		"phase":       {"phase", "current"},
		"phase_calls": {"phase", "calls"},
		"transitions": {"phase", "transitions"},
		"strikes":     {"strikes", "targets"},
		"agent_todos": {"todos", "agent"},
		"stop_blocks": {"stop", "blocks"},
		"interrupted": {"stop", "interrupted"},
		"snapshot":    {"memory", "snapshot"},
	}
}}

// v1Governance are the members of version 1's governance object and the
// groups they went to.
var v1Governance = lazy.Value[map[string]string]{New: func() map[string]string {
	return map[string]string{"spawns": "delegation", "agents": "delegation", "snaps": "governance"}
}}

// decodeSessionV1 reads a version 1 record into the current groups.
func decodeSessionV1(b []byte) (*Session, error) {
	v2, err := sessionV1ToV2(b)
	if err != nil {
		return nil, fmt.Errorf("decode session (version 1): %w", err)
	}
	s := &Session{}
	if err := json.Unmarshal(v2, s); err != nil {
		return nil, fmt.Errorf("decode session (version 1): %w", err)
	}
	s.Version = SessionVersion
	return s, nil
}

// sessionV1ToV2 rewrites a version 1 record as version 2's JSON.
func sessionV1ToV2(b []byte) ([]byte, error) {
	var v1 map[string]json.RawMessage
	if err := json.Unmarshal(b, &v1); err != nil {
		return nil, err
	}
	groups := map[string]map[string]json.RawMessage{}
	into := func(group, field string, v json.RawMessage) {
		if groups[group] == nil {
			groups[group] = map[string]json.RawMessage{}
		}
		groups[group][field] = v
	}
	// The stop object kept its fields, but for the two that were kept
	// beside it, which win, as they always did.
	if stop, ok := v1["stop"]; ok {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(stop, &fields); err != nil {
			return nil, fmt.Errorf("stop: %w", err)
		}
		delete(fields, "blocks")
		delete(fields, "interrupted")
		for field, v := range fields {
			into("stop", field, v)
		}
		delete(v1, "stop")
	}
	if gov, ok := v1["governance"]; ok {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(gov, &fields); err != nil {
			return nil, fmt.Errorf("governance: %w", err)
		}
		for field, v := range fields {
			if group, ok := v1Governance.Get()[field]; ok {
				into(group, field, v)
			}
		}
		delete(v1, "governance")
	}
	for member, to := range v1Moves.Get() {
		if v, ok := v1[member]; ok {
			into(to[0], to[1], v)
			delete(v1, member)
		}
	}
	for group, fields := range groups {
		g, err := json.Marshal(fields)
		if err != nil {
			return nil, err
		}
		v1[group] = g
	}
	return json.Marshal(v1)
}
