package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Encoding versions. A session record of version 1 (one flat object) is
// migrated when it is read (see v1.go) and written back as version 2 (a
// group per feature). The project record's encoding has not changed.
const (
	SessionVersion = 2
	ProjectVersion = 1
)

// ErrNewer is returned (wrapped) for a record written by a newer atreides.
// Such a record is not damaged, so it is left where it is: the event runs
// on fresh state that is not saved, and the newer atreides still finds it.
var ErrNewer = errors.New("written by a newer atreides")

// DecodeSession decodes a stored session of any version this atreides
// knows, migrating older encodings.
func DecodeSession(b []byte) (*Session, error) {
	v, err := recordVersion(b)
	if err != nil {
		return nil, fmt.Errorf("decode session: %w", err)
	}
	switch {
	case v > SessionVersion:
		return nil, fmt.Errorf("decode session: version %d: %w (this one reads up to %d)", v, ErrNewer, SessionVersion)
	case v <= 1:
		return decodeSessionV1(b)
	}
	var s Session
	if err := json.Unmarshal(b, &s); err != nil {
		return nil, fmt.Errorf("decode session: %w", err)
	}
	return &s, nil
}

// DecodeProject decodes the stored project record; nil bytes give an empty one.
func DecodeProject(b []byte) (*Project, error) {
	p := &Project{Version: ProjectVersion}
	if len(b) == 0 {
		return p, nil
	}
	// The version first: a newer record may not fit these types at all,
	// and must not be taken for a damaged one.
	v, err := recordVersion(b)
	if err != nil {
		return nil, fmt.Errorf("decode project state: %w", err)
	}
	if v > ProjectVersion {
		return nil, fmt.Errorf("decode project state: version %d: %w (this one reads up to %d)", v, ErrNewer, ProjectVersion)
	}
	if err := json.Unmarshal(b, p); err != nil {
		return nil, fmt.Errorf("decode project state: %w", err)
	}
	p.Version = ProjectVersion
	return p, nil
}

// Encode encodes a value for storage.
func Encode(v any) ([]byte, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode state: %w", err)
	}
	return b, nil
}

// recordVersion reads a record's "v". Encode writes it first, so it is
// read from the head without a second pass over a record that may be tens
// of kilobytes; anything else is decoded in full.
func recordVersion(b []byte) (int, error) {
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
