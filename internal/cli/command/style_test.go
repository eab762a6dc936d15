package command

import (
	"os"
	"path/filepath"
	"testing"
)

func TestColorOnlyOnATerminalWithoutNoColor(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	env := func(vals map[string]string) func(string) string { return func(k string) string { return vals[k] } }
	if ColorFor(f, env(nil))() {
		t.Error("a regular file takes colour")
	}
	for _, e := range []map[string]string{{"NO_COLOR": "1"}, {"TERM": "dumb"}} {
		if ColorFor(os.Stdin, env(e))() {
			t.Errorf("colour despite %v", e)
		}
	}
}
