package trace

import "testing"

// TestReplayedToolUseIsAppendedOnce: a second record of the same tool use
// and file, appended directly or from the queue, is not added; another
// file of the same call, or another call, is.
func TestReplayedToolUseIsAppendedOnce(t *testing.T) {
	f := newFixture(t)
	f.add(3)
	use := func(id, path string) *Record {
		r := record(1)
		r.Files[0].Path = path
		r.Metadata.Atreides.ToolUseID = id
		return r
	}
	if _, err := f.w.Append(use("toolu_1", "a.go")); err != nil {
		t.Fatal(err)
	}
	res, err := f.w.Append(use("toolu_1", "a.go"))
	if err != nil || res.Head.Seq != 4 || len(res.Notes) != 1 {
		t.Fatalf("replay appended: head %+v notes %v err %v", res.Head, res.Notes, err)
	}
	if err := Queue(f.path, use("toolu_1", "a.go")); err != nil {
		t.Fatal(err)
	}
	res, err = f.w.Append(use("toolu_1", "b.go"))
	if err != nil || res.Head.Seq != 5 {
		t.Fatalf("other file of the call: head %+v notes %v err %v", res.Head, res.Notes, err)
	}
	res, err = f.w.Append(use("toolu_2", "a.go"))
	if err != nil || res.Head.Seq != 6 {
		t.Fatalf("another call: head %+v err %v", res.Head, err)
	}
	if rep := f.verify(nil); !rep.OK || rep.Records != 6 {
		t.Fatalf("verify: %+v", rep)
	}
}
