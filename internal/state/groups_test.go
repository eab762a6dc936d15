package state

import (
	"bytes"
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/binrec"
	"github.com/atreides-dev/atreides/internal/store"
)

// fill sets every field reachable from v to a value that differs from
// field to field: no field of a record may be zero, so one that a codec
// forgets shows up as a difference.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString("s" + strings.Repeat("x", *n%7) + string(rune('a'+*n%26)))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Uint64:
		v.SetUint(uint64(*n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			fill(v.Index(i), n)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 11, 20, 9, 30, *n, *n*1001, time.UTC)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), n)
			}
		}
	default:
		panic("fill: add " + v.Kind().String())
	}
}

// fillGroups fills the groups of the registered keys: those of the
// features this test binary links in (golden_test.go imports them all).
func fillGroups[R record](r *R, keys *[maxSections]registered[R], n *int) {
	ready()
	for _, k := range keys {
		if k.ok() {
			fill(reflect.ValueOf(k.of(r)).Elem(), n)
		}
	}
}

// TestRecordsKeepEveryField: every field of a session and of the project,
// and of the features' groups in them, survives the binary encoding.
func TestRecordsKeepEveryField(t *testing.T) {
	n := 0
	var s Session
	fill(reflect.ValueOf(&s).Elem(), &n)
	fillGroups(&s, &sessionKeys, &n)
	s.Version = SessionVersion
	got, err := DecodeSession(EncodeSession(&s))
	if err != nil || !reflect.DeepEqual(got, &s) {
		t.Errorf("session: %v\n got %+v\nwant %+v", err, got, &s)
	}
	var p Project
	fill(reflect.ValueOf(&p).Elem(), &n)
	fillGroups(&p, &projectKeys, &n)
	p.Version = ProjectVersion
	// The records of their own (the task board) are encoded apart.
	for _, r := range ownRecords {
		if r == nil {
			continue
		}
		v, _ := r.decode(nil)
		fill(reflect.ValueOf(v).Elem(), &n)
		got, err := r.decode(r.encode(v, 0))
		if err != nil || !reflect.DeepEqual(got, v) {
			t.Errorf("%s: %v\n got %+v\nwant %+v", r.name, err, got, v)
		}
	}
	gotp, err := DecodeProject(EncodeProject(&p))
	if err != nil || !reflect.DeepEqual(gotp, &p) {
		t.Errorf("project: %v\n got %+v\nwant %+v", err, gotp, &p)
	}
	// Empty records have their core only, and decode to what they were.
	empty := NewSession("e", "claude", t0)
	if got, err := DecodeSession(EncodeSession(empty)); err != nil || !reflect.DeepEqual(got, empty) {
		t.Errorf("empty session: %v %+v", err, got)
	}
}

// TestDamagedRecordsFailToDecode: no truncation of a full record decodes,
// and none panics or allocates beyond its length.
func TestDamagedRecordsFailToDecode(t *testing.T) {
	n := 0
	var s Session
	fill(reflect.ValueOf(&s).Elem(), &n)
	b := EncodeSession(&s)
	for i := 3; i < len(b); i++ {
		if _, err := DecodeSession(b[:i]); err == nil {
			t.Fatalf("record cut at %d of %d decoded", i, len(b))
		}
	}
	huge := append([]byte{magic, kindSession, SessionVersion, 1, 20}, 0xff, 0xff, 0xff, 0xff, 0x0f)
	if _, err := DecodeSession(append(huge, make([]byte, 12)...)); err == nil {
		t.Error("a count beyond the record decoded")
	}
}

func loadedStore(t *testing.T, s *Session, p *Project) *store.Store {
	t.Helper()
	st := store.Open(filepath.Join(t.TempDir(), ".atreides"))
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		if s != nil {
			if err := SaveSession(tx, s); err != nil {
				return err
			}
		}
		if p != nil {
			return SaveProject(tx, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func stored(t *testing.T, st *store.Store) (sess, proj []byte) {
	t.Helper()
	err := st.View(context.Background(), func(tx *store.Tx) error {
		if tx.Get(bucketSessions, "s") != nil || tx.Get(bucketProject, keyProject) != nil {
			t.Errorf("a record is still in the bucket")
		}
		var err1, err2 error
		sess, _, err1 = storedSession(tx, "s")
		proj, _, err2 = storedProject(tx)
		return errors.Join(err1, err2)
	})
	if err != nil {
		t.Fatal(err)
	}
	return sess, proj
}

// TestLoadSaveGroups: an event decodes only its groups, writes back the
// others as they were, writes nothing when nothing changed, and refuses to
// save a change to a group it did not load.
func TestLoadSaveGroups(t *testing.T) {
	k, note := registerTally(t), registerNote(t)
	busy := func() *Project {
		p := busyProject()
		*k.Of(p) = tally{Next: 2, IDs: []int{1, 2}, Holders: []string{"s"}}
		return p
	}
	st := loadedStore(t, busySession("s"), busy())
	sess0, proj0 := stored(t, st)
	run := func(groups Groups, fn func(*Loaded)) error {
		return st.Update(context.Background(), func(tx *store.Tx) error {
			l, err := Load(tx, "s", "claude", t0, groups)
			if err != nil {
				return err
			}
			fn(l)
			return l.Save(tx)
		})
	}
	if err := run(k.Group(), func(l *Loaded) {
		for tag, g := range l.Project.groups {
			if g != nil && tag != tallyTag {
				t.Errorf("decoded the group of section %d, not declared", tag)
			}
		}
		if !reflect.DeepEqual(k.Read(l.Project), k.Read(busy())) || l.Session.Counters.Events != 4000 {
			t.Errorf("decoded: tally %+v, events %d", k.Read(l.Project), l.Session.Counters.Events)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if sess, proj := stored(t, st); string(sess) != string(sess0) || string(proj) != string(proj0) {
		t.Error("an event that changed nothing rewrote the records")
	}
	if err := run(k.Group(), func(l *Loaded) { l.Session.Counters.Events++ }); err != nil {
		t.Fatal(err)
	}
	sess, proj := stored(t, st)
	if string(proj) != string(proj0) {
		t.Error("the project was rewritten though it did not change")
	}
	got, err := DecodeSession(sess)
	want := busySession("s")
	want.Counters.Events++
	if err != nil || !reflect.DeepEqual(got, want) {
		t.Errorf("after a core-only change: %v\n got %+v\nwant %+v", err, got, want)
	}
	if err := run(k.Group(), func(l *Loaded) { k.Of(l.Project).Holders[0] = "changed" }); err != nil {
		t.Fatal(err)
	}
	sess, proj = stored(t, st)
	gotp, err := DecodeProject(proj)
	wantp := busy()
	k.Of(wantp).Holders[0] = "changed"
	if err != nil || !reflect.DeepEqual(gotp, wantp) {
		t.Errorf("after a change to one group: %v\n got %+v\nwant %+v", err, gotp, wantp)
	}
	err = run(k.Group(), func(l *Loaded) { note.Of(l.Session).Text = "x" })
	if err == nil || !strings.Contains(err.Error(), "note") {
		t.Errorf("a change to a group not loaded: %v", err)
	}
	if s, p := stored(t, st); string(s) != string(sess) || string(p) != string(proj) {
		t.Error("a refused save wrote")
	}
}

// TestLoadMigratesJSON: a version 2 (JSON) session and a version 1
// project are read whole and written back in the binary encoding, all of
// them, whatever groups the event loaded.
func TestLoadMigratesJSON(t *testing.T) {
	s := busySession("s")
	p := busyProject()
	js, _ := jsonOf(s, 2)
	jp, _ := jsonOf(p, 1)
	st := store.Open(filepath.Join(t.TempDir(), ".atreides"))
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		if err := tx.Put(bucketSessions, "s", js); err != nil {
			return err
		}
		if err := tx.Put(bucketProject, keyProject, jp); err != nil {
			return err
		}
		l, err := Load(tx, "s", "claude", t0, 0)
		if err != nil {
			return err
		}
		return l.Save(tx)
	})
	if err != nil {
		t.Fatal(err)
	}
	sess, proj := stored(t, st)
	gs, err1 := DecodeSession(sess)
	gp, err2 := DecodeProject(proj)
	if !isBinary(sess) || !isBinary(proj) || errors.Join(err1, err2) != nil {
		t.Fatalf("not migrated: %v %v", err1, err2)
	}
	if !reflect.DeepEqual(gs, s) || !reflect.DeepEqual(gp, p) {
		t.Errorf("migration changed the records:\n%+v\n%+v", gs, gp)
	}
}

// TestDamagedSectionQuarantinesTheSession: a session whose loaded group
// is damaged is quarantined whole and starts afresh, as before groups.
func TestDamagedSectionQuarantinesTheSession(t *testing.T) {
	b := EncodeSession(busySession("s"))
	b[len(b)-2] = 0xff // inside the last section
	st := store.Open(filepath.Join(t.TempDir(), ".atreides"))
	err := st.Update(context.Background(), func(tx *store.Tx) error {
		if err := tx.Put(bucketSessions, "s", b); err != nil {
			return err
		}
		l, err := Load(tx, "s", "claude", t0, AllGroups)
		if err != nil {
			return err
		}
		if l.Session.Counters.Events != 0 {
			t.Error("the damaged session was not started afresh")
		}
		if qs, _ := QuarantinedRecords(tx); len(qs) != 1 || string(qs[0].Data) != string(b) {
			t.Errorf("quarantine %+v", qs)
		}
		return l.Save(tx)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestSalvageBinaryProject: a damaged section of the project record costs
// that section only.
func TestSalvageBinaryProject(t *testing.T) {
	k := registerTally(t)
	p := busyProject()
	*k.Of(p) = tally{Next: 1, IDs: []int{1, 4}, Extra: "x"} // a counter behind: raised
	b := EncodeProject(p)
	rec, err := splitRecord(b, kindProject, ProjectVersion)
	if err != nil {
		t.Fatal(err)
	}
	// Damage the tally's further section: its string's length becomes a
	// varint that does not end inside the section.
	end := strings.Index(string(b), rec[tallyExtraTag]) + len(rec[tallyExtraTag])
	b[end-1], b[end-2] = 0xff, 0xff
	got, lost := salvageProject(b)
	want := busyProject()
	*k.Of(want) = tally{Next: 4, IDs: []int{1, 4}}
	if strings.Join(lost, ",") != "tally extra" || !reflect.DeepEqual(got, raiseCounters(want)) {
		t.Errorf("lost %v\n got %+v\nwant %+v", lost, got, want)
	}
}

// TestNewerSectionsKept: a section a newer atreides added (a tag past this
// build's sections) is no damage: it is read past and written back as it
// was, so that running an older build between two newer ones loses
// nothing of the newer groups.
func TestNewerSectionsKept(t *testing.T) {
	s := NewSession("s", "claude", time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC))
	b, err := encodeRecord(kindSession, SessionVersion, sessionSections[:], s, AllGroups, &raw{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	w := &binrec.Writer{B: append([]byte(nil), b[:len(b)-1]...)} // drop the end mark
	putSection(w, maxSections-1, "from the future")
	w.Uint(endMark)
	rec, err := splitRecord(w.B, kindSession, SessionVersion)
	if err != nil {
		t.Fatalf("a newer section taken for damage: %v", err)
	}
	again, err := encodeRecord(kindSession, SessionVersion, sessionSections[:], s, NoGroups, &rec, nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, w.B) {
		t.Errorf("re-encoded record differs:\n%q\n%q", again, w.B)
	}
}

// TestLoadRecordsOnDemand: a record of its own not declared is not read
// by Load; asked for in the transaction, it is read once (a second call
// keeps the handler's change) and saved with the event; changed without
// being loaded, it is refused.
func TestLoadRecordsOnDemand(t *testing.T) {
	k := registerPad(t)
	st := store.Open(filepath.Join(t.TempDir(), ".atreides"))
	update := func(fn func(tx *store.Tx) error) error {
		t.Helper()
		return st.Update(context.Background(), fn)
	}
	err := update(func(tx *store.Tx) error {
		return UpdateProject(tx, func(p *Project) error {
			*k.Of(p) = pad{Next: 1, Lines: []string{"one"}}
			return nil
		})
	})
	if err != nil {
		t.Fatal(err)
	}
	err = update(func(tx *store.Tx) error {
		l, err := Load(tx, "s", "claude", t0, NoGroups)
		if err != nil {
			return err
		}
		if len(k.Read(l.Project).Lines) != 0 {
			t.Error("Load read the record no handler declared")
		}
		if err := l.LoadRecords(k.Group()); err != nil {
			return err
		}
		if len(k.Read(l.Project).Lines) != 1 {
			t.Fatalf("LoadRecords gave %+v", k.Read(l.Project))
		}
		k.Of(l.Project).Lines[0] = "changed"
		if err := l.LoadRecords(k.Group()); err != nil || k.Read(l.Project).Lines[0] != "changed" {
			t.Errorf("a second LoadRecords read the record again (%v)", err)
		}
		return l.Save(tx)
	})
	if err != nil {
		t.Fatal(err)
	}
	err = update(func(tx *store.Tx) error {
		p, err := LoadProject(tx)
		if err == nil && k.Read(p).Lines[0] != "changed" {
			t.Errorf("the record loaded on demand was not saved: %+v", k.Read(p))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	err = update(func(tx *store.Tx) error {
		l, err := Load(tx, "s", "claude", t0, NoGroups)
		if err != nil {
			return err
		}
		k.Of(l.Project).Lines = []string{"lost"}
		return l.Save(tx)
	})
	if err == nil || !strings.Contains(err.Error(), "pad group was changed") {
		t.Errorf("a change to a record not loaded: %v", err)
	}
}

// TestSectionLengthRoom: a section encoded in place, after room for as
// long a length as the stored section's, comes out as one encoded on its
// own, whether its length needs more bytes than the stored one's, fewer,
// or as many.
func TestSectionLengthRoom(t *testing.T) {
	type blob struct{ s string }
	secs := []section[blob]{newSection(0, "blob", func(b *blob, c *binrec.Codec) { c.Str(&b.s) })}
	for _, tc := range []struct {
		name    string
		was, is int // the stored section's length, and the string's
	}{
		{"none stored, short", 0, 10},
		{"none stored, two-byte length", 0, 200},
		{"none stored, three-byte length", 0, 20000},
		{"shrinks to one byte", 300, 10},
		{"shrinks to two bytes", 20000, 300},
		{"grows to three bytes", 300, 20000},
		{"same size", 300, 400},
		{"at the edge", 127, 127},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v := &blob{s: strings.Repeat("x", tc.is)}
			got, err := encodeRecord('B', 1, secs, v, NoGroups, &raw{0: strings.Repeat("o", tc.was)}, nil)
			if err != nil {
				t.Fatal(err)
			}
			body := binrec.Writer{}
			body.Str(v.s)
			want := &binrec.Writer{B: []byte{magic, 'B'}}
			want.Uint(1)
			putSection(want, 0, string(body.B))
			want.Uint(endMark)
			if !bytes.Equal(got, want.B) {
				t.Errorf("got %d bytes %.40q..., want %d bytes %.40q...", len(got), got, len(want.B), want.B)
			}
		})
	}
}
