package shell

import "testing"

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
