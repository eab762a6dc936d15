package shell

import "testing"

func TestScopeCloneIsApart(t *testing.T) {
	s := NewScope("/p")
	s.SetVar("A", Lit("1"))
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

func TestChdir(t *testing.T) {
	sc := NewScope("/p")
	sc.Chdir(Lit("sub/.."), "/home/u").Chdir(Lit("src"), "/home/u")
	if sc.Cwd != "/p/src" || sc.OldPwd != "/p" {
		t.Errorf("cd src: %q, OLDPWD %q", sc.Cwd, sc.OldPwd)
	}
	if sc.Chdir(Lit("-"), "/home/u"); sc.Cwd != "/p" {
		t.Errorf("cd -: %q", sc.Cwd)
	}
	if sc.Chdir(Lit(""), "/home/u"); sc.Cwd != "/home/u" {
		t.Errorf("cd: %q", sc.Cwd)
	}
	if sc.Chdir(dynWord(), "/home/u"); sc.CwdOK || sc.Chdir(Lit("rel"), "").CwdOK {
		t.Error("cd to a directory known only at run time left the directory known")
	}
	if sc.Chdir(Lit("/abs"), ""); !sc.CwdOK || sc.Cwd != "/abs" {
		t.Errorf("cd /abs from an unknown directory: %q %v", sc.Cwd, sc.CwdOK)
	}
}

// TestScopeTablesOnFirstWrite: a scope makes its tables when first
// written, and a clone's first write, like the scope's after it, stays
// its own; a scope and a clone of it are one allocation each until then.
func TestScopeTablesOnFirstWrite(t *testing.T) {
	s := NewScope("/p")
	c := s.Clone()
	c.SetVar("A", Lit("1"))
	c.setFunc("f", nil)
	c.setCalling("f")
	c.NoteDownload("x.sh")
	if len(s.Vars) != 0 || len(s.Funcs) != 0 || len(s.Calling) != 0 || s.Downloaded("x.sh") {
		t.Errorf("the clone's first writes reached the scope: %+v", s)
	}
	s.SetVar("B", Lit("2"))
	if _, ok := c.Vars["B"]; ok || c.Vars["A"].Text != "1" || !c.Calling["f"] || !c.Downloaded("x.sh") {
		t.Errorf("the clone lost its writes or saw the scope's: %+v", c)
	}
	if n := testing.AllocsPerRun(20, func() { NewScope("/p").Clone() }); n > 2 {
		t.Errorf("a scope and its clone: %.0f allocations, want 2", n)
	}
}
