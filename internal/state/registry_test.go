package state

import (
	"bytes"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/store"
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

// registerNote registers the note group at the last tag, for the test at
// hand only: the group a build links there (package ctxbudget's, when the
// test binary links it) is set aside and put back after the test.
// TestNewerSectionsKept takes that tag for a newer build's.
func registerNote(t *testing.T) SessionKey[note] {
	ready()
	tag := maxSections - 1
	key, sec := sessionKeys[tag], sessionSections[tag]
	sessionKeys[tag], sessionSections[tag] = registered[Session]{}, section[Session]{}
	t.Cleanup(func() { sessionKeys[tag], sessionSections[tag] = key, sec })
	k := SessionKey[note]{Tag: tag, Name: "note", JSON: "note", Fields: (*note).fields}
	k.register()
	return k
}

// TestRegisteredGroup: a registered group is encoded in its section when
// set and left out when empty, decoded only when declared, kept byte for
// byte when not, refused when changed undeclared, and carried in the JSON
// of older records.
func TestRegisteredGroup(t *testing.T) {
	noteKey := registerNote(t)
	if noteKey.Group()&AllGroups == 0 || noteKey.Group()&NoGroups != 0 {
		t.Fatalf("group %b", noteKey.Group())
	}
	padKey := registerPad(t)
	if !strings.Contains(AllGroups.String(), "note") || noteKey.Group().String() != "note" || padKey.Group().String() != "pad" {
		t.Errorf("groups %q; the note's %q, the pad's %q", AllGroups.String(), noteKey.Group(), padKey.Group())
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

	l, err = LoadBytes(b, nil, "s", "claude", t0, NoGroups)
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
	if got := k.Read(&s); got.Text != "" || s.groups[k.Tag] != nil {
		t.Fatalf("Read = %+v, slot %v: want a zero group and an untouched record", got, s.groups[k.Tag])
	}
	k.Of(&s).Text = "kept"
	if got := k.Read(&s).Text; got != "kept" {
		t.Errorf("after Of: Read = %q, want kept", got)
	}
}

// tally is a project group as a feature declares one with more than a
// section, members at the top of the project's JSON, and the hooks of
// prune and salvage.
type tally struct {
	Next    int      `json:"next_tally"`
	IDs     []int    `json:"tally_ids,omitempty"`
	Holders []string `json:"holders,omitempty"` // sessions
	// Extra came later, in a section of its own.
	Extra string `json:"extra,omitempty"`
}

func (g *tally) fields(c *binrec.Codec) {
	c.Int(&g.Next)
	binrec.List(c, &g.IDs, codeInt)
	c.Strs(&g.Holders)
}

func (g *tally) extra(c *binrec.Codec) {
	if c.More(g.Extra != "") {
		c.Str(&g.Extra)
	}
}

func (g *tally) ForgetSession(id string) {
	g.Holders = slices.DeleteFunc(g.Holders, func(h string) bool { return h == id })
}

func (g *tally) Salvaged() { g.Next = max(g.Next, slices.Max(append([]int{0}, g.IDs...))) }

// The tally's sections: tags no group of the project has.
const tallyTag, tallyExtraTag = maxSections - 3, maxSections - 2

// registerTally registers the tally group for the test at hand only.
func registerTally(t *testing.T) ProjectKey[tally] {
	ready()
	t.Cleanup(func() {
		projectKeys[tallyTag] = registered[Project]{}
		projectSections[tallyTag], projectSections[tallyExtraTag] = section[Project]{}, section[Project]{}
	})
	k := ProjectKey[tally]{Tag: tallyTag, Name: "tally", Fields: (*tally).fields,
		More: []Section[tally]{{Tag: tallyExtraTag, Name: "tally extra", Fields: (*tally).extra}}}
	k.register()
	return k
}

// TestGroupOfTwoSections: a group's further section is written only when
// it holds something, decoded and kept with the group, and the group's
// members sit beside the project's own in JSON.
func TestGroupOfTwoSections(t *testing.T) {
	k := registerTally(t)
	p := &Project{}
	*k.Of(p) = tally{Next: 2, IDs: []int{1, 2}}
	rec, err := splitRecord(EncodeProject(p), kindProject, ProjectVersion)
	if err != nil || rec[tallyTag] == "" || rec[tallyExtraTag] != "" {
		t.Fatalf("sections %q: %v", rec, err)
	}
	k.Of(p).Extra = "later"
	b := EncodeProject(p)
	if rec, _ = splitRecord(b, kindProject, ProjectVersion); rec[tallyExtraTag] == "" {
		t.Fatalf("no further section: %q", rec)
	}
	for _, tc := range []struct {
		groups Groups
		want   tally
	}{
		{k.Group(), *k.Of(p)},
		{NoGroups, tally{}},
	} {
		l, err := LoadBytes(nil, b, "s", "claude", t0, tc.groups)
		if err != nil || !reflect.DeepEqual(*k.Read(l.Project), tc.want) {
			t.Errorf("groups %v: %v %+v, want %+v", tc.groups, err, k.Read(l.Project), tc.want)
		}
		if _, got, err := l.Encode(); err != nil || got != nil {
			t.Errorf("groups %v: the record changed: %v", tc.groups, err)
		}
	}
	js, err := json.Marshal(p)
	if err != nil || !strings.Contains(string(js), `"next_tally":2,"tally_ids":[1,2],"extra":"later"}`) {
		t.Fatalf("JSON %s: %v", js, err)
	}
	var back Project
	if err := json.Unmarshal(js, &back); err != nil || !reflect.DeepEqual(k.Read(&back), k.Read(p)) {
		t.Errorf("from JSON: %v %+v", err, k.Read(&back))
	}
}
func codeInt(n *int, c *binrec.Codec) { c.Int(n) }

// pad is a record of its own as a feature declares one.
type pad struct {
	Next  int      `json:"next,omitempty"`
	Lines []string `json:"lines,omitempty"`
	// Marks came later, in a further section.
	Marks []string `json:"marks,omitempty"`
}

func (p *pad) fields(c *binrec.Codec) {
	c.Int(&p.Next)
	c.Strs(&p.Lines)
}

func (p *pad) marks(c *binrec.Codec) {
	if c.More(len(p.Marks) > 0) {
		c.Strs(&p.Marks)
	}
}

// registerPad registers the pad record for the test at hand only.
func registerPad(t *testing.T) RecordKey[pad] {
	ready()
	i := slices.Index(ownRecords[:], nil)
	t.Cleanup(func() { ownRecords[i] = nil })
	k := RecordKey[pad]{Index: i, Name: "pad", What: "note pad", Kind: 'N', Version: 1, Fields: (*pad).fields,
		More: []Section[pad]{{Tag: 1, Name: "marks", Fields: (*pad).marks}}}
	k.register()
	return k
}

// TestPartNames: a lost part of a damaged project record is reported as
// what its group says it holds, found by its section's name, its JSON
// member, or one of its members at the top of the JSON; a part no group
// holds by its own name.
func TestPartNames(t *testing.T) {
	registerTally(t)
	for key, want := range map[string]string{
		"tally":        "what the tally counts",
		"tally extra":  "tally extra", // a further section: not the group's name
		"next_tally":   "what the tally counts",
		"tally_ids":    "what the tally counts",
		"housekeeping": "housekeeping (when old sessions were last pruned)",
		"elsewhere":    "elsewhere",
	} {
		if got := partName(key); got != want {
			t.Errorf("partName(%q) = %q, want %q", key, got, want)
		}
	}
}

func (*tally) Describe() string { return "what the tally counts" }

// TestRecordOfItsOwn: a record of its own is not written while empty;
// its further section only when it holds something; raw readers decode
// it into the project; and one that does not decode, or is of a newer
// version, is an error for a loader and reported damaged by a raw reader,
// never replaced by an empty one, while the project still decodes.
func TestRecordOfItsOwn(t *testing.T) {
	k := registerPad(t)
	st, _ := testStore(t)
	stored := func() (b []byte) {
		t.Helper()
		view(t, st, func(tx *store.Tx) error {
			var err error
			b, err = tx.Record(setProject, "pad")
			return err
		})
		return b
	}
	save := func(v pad) {
		t.Helper()
		update(t, st, func(tx *store.Tx) error {
			return UpdateProject(tx, func(p *Project) error { *k.Of(p) = v; return nil })
		})
	}
	save(pad{})
	if b := stored(); b != nil {
		t.Fatalf("an empty record written: %q", b)
	}
	for _, v := range []pad{{Next: 1, Lines: []string{"one"}}, {Next: 1, Lines: []string{"one"}, Marks: []string{"m"}}} {
		save(v)
		rec, err := splitRecord(stored(), 'N', 1)
		if err != nil || rec[0] == "" || (rec[1] != "") != (len(v.Marks) > 0) {
			t.Errorf("%+v: sections %q: %v", v, rec, err)
		}
		view(t, st, func(tx *store.Tx) error {
			raw, err := ReadRaw(tx)
			if err != nil {
				return err
			}
			d := raw.Decode()
			if len(d.Damaged) != 0 || !reflect.DeepEqual(*k.Read(d.Project), v) {
				t.Errorf("raw: damaged %v, read %+v, want %+v", d.Damaged, *k.Read(d.Project), v)
			}
			return nil
		})
	}

	for _, tc := range []struct {
		name string
		b    []byte
		want error
	}{
		{"damaged", []byte{magic, 'N', 1, 0, 9, 1}, nil},
		{"newer", []byte{magic, 'N', 2, endMark}, ErrNewer},
	} {
		update(t, st, func(tx *store.Tx) error { return tx.PutRecord(setProject, "pad", tc.b) })
		update(t, st, func(tx *store.Tx) error {
			_, err := LoadProject(tx)
			var de *DamagedError
			if !errors.As(err, &de) || de.Key != "pad" || tc.want != nil && !errors.Is(err, tc.want) || !strings.Contains(err.Error(), "note pad") {
				t.Errorf("%s: LoadProject: %v", tc.name, err)
			}
			raw, err := ReadRaw(tx)
			if err != nil {
				return err
			}
			if d := raw.Decode(); len(d.Damaged) != 1 || d.Damaged[0].Key != "pad" || d.Project == nil {
				t.Errorf("%s: raw: damaged %v", tc.name, d.Damaged)
			}
			return nil
		})
		if b := stored(); !bytes.Equal(b, tc.b) {
			t.Errorf("%s: the record was replaced: %q", tc.name, b)
		}
	}
}
