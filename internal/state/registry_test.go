package state

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/binrec"
)

// note is a feature's group as a feature package declares one.
type note struct {
	Text  string   `json:"text,omitempty"`
	Count int      `json:"count,omitempty"`
	Tags  []string `json:"tags,omitempty"`
}

func (n *note) fields(c *binrec.Codec) {
	c.Str(&n.Text)
	c.Int(&n.Count)
	c.Strs(&n.Tags)
}

// registerNote registers the note group at the one tag no group has,
// for the test at hand only (TestNewerSectionsKept takes that tag for a
// newer build's).
func registerNote(t *testing.T) SessionKey[note] {
	tag, next, names := maxSections-1, nextGroup, groupNames
	t.Cleanup(func() {
		sessionKeys[tag], sessionSections[tag] = nil, section[Session]{}
		nextGroup, groupNames = next, names
	})
	return RegisterSession(tag, "note", "note", (*note).fields)
}

// TestRegisteredGroup: a registered group is encoded in its section when
// set and left out when empty, decoded only when declared, kept byte for
// byte when not, refused when changed undeclared, and carried in the JSON
// of older records.
func TestRegisteredGroup(t *testing.T) {
	noteKey := registerNote(t)
	if noteKey.Group()&AllGroups == 0 || noteKey.Group()&(GroupTodos|GroupTasks|NoGroups) != 0 {
		t.Fatalf("group %b", noteKey.Group())
	}
	if !strings.Contains(AllGroups.String(), "note") {
		t.Errorf("groups %q", AllGroups.String())
	}
	s := NewSession("s", "claude", t0)
	empty := EncodeSession(s)
	noteKey.Of(s).Count = 0 // touched, still empty: no section
	if b := EncodeSession(s); string(b) != string(empty) {
		t.Errorf("an empty group has a section: %x", b)
	}
	*noteKey.Of(s) = note{Text: "hello", Count: 3, Tags: []string{"a", "b"}}
	b := EncodeSession(s)

	l, err := LoadBytes(b, nil, "s", "claude", t0, noteKey.Group())
	if err != nil || !reflect.DeepEqual(noteKey.Of(l.Session), noteKey.Of(s)) {
		t.Fatalf("declared: %v %+v", err, noteKey.Of(l.Session))
	}
	noteKey.Of(l.Session).Count++
	if sess, _, err := l.Encode(); err != nil || sess == nil {
		t.Fatalf("a change to a declared group not saved: %v", err)
	}

	l, err = LoadBytes(b, nil, "s", "claude", t0, GroupTodos)
	if err != nil || noteKey.Of(l.Session).Text != "" {
		t.Fatalf("undeclared, decoded anyway: %v %+v", err, noteKey.Of(l.Session))
	}
	if sess, _, err := l.Encode(); err != nil || sess != nil {
		t.Errorf("undeclared: not kept as it was: %v", err)
	}
	noteKey.Of(l.Session).Text = "lost"
	if _, _, err := l.Encode(); err == nil || !strings.Contains(err.Error(), "note group was changed") {
		t.Errorf("an undeclared change: %v", err)
	}

	js, err := json.Marshal(s)
	if err != nil || !strings.Contains(string(js), `"note":{"text":"hello","count":3,"tags":["a","b"]}`) {
		t.Fatalf("JSON %s: %v", js, err)
	}
	var back Session
	if err := json.Unmarshal(js, &back); err != nil || !reflect.DeepEqual(noteKey.Of(&back), noteKey.Of(s)) || back.ID != "s" {
		t.Errorf("from JSON: %v %+v", err, back)
	}
}

// TestReadLeavesRecord: reading a group the record does not have gives
// its zero value and leaves the record as it was, so readers sharing a
// record never write to it; Of places the group so that changes stick.
func TestReadLeavesRecord(t *testing.T) {
	k := registerNote(t)
	var s Session
	if got := k.Read(&s); got.Text != "" || s.groups[k.tag] != nil {
		t.Fatalf("Read = %+v, slot %v: want a zero group and an untouched record", got, s.groups[k.tag])
	}
	k.Of(&s).Text = "kept"
	if got := k.Read(&s).Text; got != "kept" {
		t.Errorf("after Of: Read = %q, want kept", got)
	}
}
