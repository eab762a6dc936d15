package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Encoding versions. Session records of version 1 (one flat JSON object)
// and 2 (JSON, a group per feature) are migrated when they are read (see
// v1.go) and written back as version 3; project records of version 1
// (JSON) likewise as version 2. The current versions are binary (see
// groups.go and sections.go): a hook decodes only the groups its handlers
// touch, and a busy session's hundred tool calls decode without
// reflection.
const (
	SessionVersion = 3
	ProjectVersion = 2
)

// ErrNewer is returned (wrapped) for a record written by a newer atreides.
// Such a record is not damaged, so it is left where it is: the event runs
// on fresh state that is not saved, and the newer atreides still finds it.
var ErrNewer = errors.New("written by a newer atreides")

// DecodeSession decodes a stored session of any version this atreides
// knows, migrating older encodings.
func DecodeSession(b []byte) (*Session, error) {
	s, _, err := decodeSession(b, AllGroups)
	return s, err
}

// decodeSession decodes the core and groups of a stored session. A binary
// record also comes back split into its sections, for [encodeLoaded]; a
// JSON one (an older version) is decoded in full, and then rec is nil.
func decodeSession(b []byte, groups Groups) (s *Session, rec *raw, err error) {
	ready()
	v, err := recordVersion(b, kindSession)
	if err != nil {
		return nil, nil, fmt.Errorf("decode session: %w", err)
	}
	switch {
	case v > SessionVersion:
		return nil, nil, fmt.Errorf("decode session: version %d: %w (this one reads up to %d)", v, ErrNewer, SessionVersion)
	case v <= 1:
		s, err = decodeSessionV1(b)
		return s, nil, err
	case !isBinary(b):
		s = &Session{}
		if err := json.Unmarshal(b, s); err != nil {
			return nil, nil, fmt.Errorf("decode session: %w", err)
		}
		s.Version = SessionVersion
		return s, nil, nil
	}
	sec, err := splitRecord(b, kindSession, SessionVersion)
	if err == nil {
		s = &Session{Version: SessionVersion}
		err = decodeSections(sessionSections[:], &sec, groups, s)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("decode session: %w", err)
	}
	return s, &sec, nil
}

// DecodeProject decodes the stored project record; nil bytes give an empty one.
func DecodeProject(b []byte) (*Project, error) {
	p, _, err := decodeProject(b, AllGroups)
	return p, err
}

// decodeProject is [DecodeProject] of the housekeeping and groups only;
// see decodeSession.
func decodeProject(b []byte, groups Groups) (*Project, *raw, error) {
	ready()
	p := &Project{Version: ProjectVersion}
	if len(b) == 0 {
		return p, &raw{}, nil
	}
	// The version first: a newer record may not fit these types at all,
	// and must not be taken for a damaged one.
	v, err := recordVersion(b, kindProject)
	if err != nil {
		return nil, nil, fmt.Errorf("decode project state: %w", err)
	}
	switch {
	case v > ProjectVersion:
		return nil, nil, fmt.Errorf("decode project state: version %d: %w (this one reads up to %d)", v, ErrNewer, ProjectVersion)
	case !isBinary(b):
		if err := json.Unmarshal(b, p); err != nil {
			return nil, nil, fmt.Errorf("decode project state: %w", err)
		}
		p.Version = ProjectVersion
		return p, nil, nil
	}
	sec, err := splitRecord(b, kindProject, ProjectVersion)
	if err == nil {
		err = decodeSections(projectSections[:], &sec, groups, p)
	}
	if err != nil {
		return nil, nil, fmt.Errorf("decode project state: %w", err)
	}
	return p, &sec, nil
}

// EncodeSession encodes a session for storage, in the current version.
func EncodeSession(s *Session) []byte { return encodeSession(nil, s) }

// encodeSession is [EncodeSession] appended to dst.
func encodeSession(dst []byte, s *Session) []byte {
	ready()
	s.Version = SessionVersion
	b, _ := encodeRecord(kindSession, SessionVersion, sessionSections[:], s, AllGroups, &raw{}, dst)
	return b
}

// EncodeProject encodes the project record for storage, in the current
// version.
func EncodeProject(p *Project) []byte { return encodeProject(nil, p) }

// encodeProject is [EncodeProject] appended to dst.
func encodeProject(dst []byte, p *Project) []byte {
	ready()
	p.Version = ProjectVersion
	b, _ := encodeRecord(kindProject, ProjectVersion, projectSections[:], p, AllGroups, &raw{}, dst)
	return b
}

// Encode encodes a value for storage: a session or project record in
// its binary encoding, anything else as JSON.
func Encode(v any) ([]byte, error) {
	switch v := v.(type) {
	case *Session:
		return EncodeSession(v), nil
	case *Project:
		return EncodeProject(v), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode state: %w", err)
	}
	return b, nil
}

// recordVersion reads a record's version: from the head of a binary
// record, or a JSON record's "v". The JSON encoder wrote "v" first, so it
// is read from the head without a second pass over a record that may be
// tens of kilobytes; anything else is decoded in full.
func recordVersion(b []byte, kind byte) (int, error) {
	if isBinary(b) {
		return binaryVersion(b, kind)
	}
	if rest, ok := bytes.CutPrefix(b, []byte(`{"v":`)); ok {
		n, i := 0, 0
		for ; i < len(rest) && i < 6 && rest[i] >= '0' && rest[i] <= '9'; i++ {
			n = n*10 + int(rest[i]-'0')
		}
		if i > 0 && i < len(rest) && (rest[i] == ',' || rest[i] == '}') {
			return n, nil
		}
	}
	var head struct {
		V int `json:"v"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return 0, err
	}
	return head.V, nil
}
