package shell

import "testing"

func TestScopeCloneIsApart(t *testing.T) {
	s := NewScope("/p")
	s.Vars["A"] = Lit("1")
	c := s.Clone()
	c.Vars["A"], c.Cwd = Lit("2"), "/q"
	c.NoteDownload("x.sh")
	if s.Vars["A"].Text != "1" || s.Cwd != "/p" || s.Downloaded("x.sh") {
		t.Errorf("a change to the clone reached the scope: %+v", s)
	}
	if !c.Downloaded("x.sh") || !c.Downloaded("/q/x.sh") || c.Downloaded("/p/x.sh") {
		t.Error("the clone's download is not where it was made")
	}
}

func TestDownloadedInAnUnknownDirectory(t *testing.T) {
	s := NewScope("")
	s.NoteDownload("bin/tool")
	if !s.Downloaded("bin/tool") || !s.Downloaded("tool") || s.Downloaded("other") {
		t.Error("a relative download in an unknown directory is not matched by name")
	}
	if s.CwdIf() != "" || NewScope("/p").CwdIf() != "/p" {
		t.Error("CwdIf")
	}
}
