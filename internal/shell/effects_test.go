package shell

import (
	"strconv"
	"testing"
)

func TestProgramName(t *testing.T) {
	for name, want := range map[string]string{
		"sed": "sed", "/usr/bin/tee": "tee", "my prog": "", "\x00foo": "",
		"git": "git", "a=b": "", "": "", "python3.12": "python3.12",
	} {
		if got := programName(name); got != want {
			t.Errorf("programName(%q) = %q, want %q", name, got, want)
		}
	}
}

func TestEffectsRecording(t *testing.T) {
	var e Effects
	e.Read("/p/a")
	e.Read("/p/a")
	if len(e.Reads) != 1 || e.Changes != "" {
		t.Errorf("a read: %+v", e)
	}
	e.UnknownWrite("patch writes what the patch names", false, "patch")
	if e.Changes != "" || len(e.Unknown) != 1 {
		t.Errorf("an uncertain unknown write: %+v", e)
	}
	e.Wrote("/p/x", "rm")
	e.Wrote("/p/x", "cp")
	e.UnknownWrite("tar extracts", true, "tar -x")
	if e.Changes != "rm" || len(e.Writes) != 1 || len(e.Unknown) != 2 {
		t.Errorf("the first certain change names it, a path is listed once: %+v", e)
	}
	for i := range 2 * maxPaths {
		e.Wrote("/p/"+strconv.Itoa(i), "rm")
	}
	if len(e.Writes) != maxPaths {
		t.Errorf("%d writes listed, want at most %d", len(e.Writes), maxPaths)
	}
}
