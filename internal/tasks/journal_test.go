package tasks

import (
	"reflect"
	"strings"
	"testing"
)

// FuzzParseJournal: recovery renames what a journal names, so an accepted
// journal must only name the generated files, each once, by a temporary
// name of its own that isTemp recognizes; and an accepted journal written
// back reads the same.
func FuzzParseJournal(f *testing.F) {
	j := journal{Gen: 3, Files: []journalEntry{{Name: TodoFile, Temp: ".TODO.md.tmp-1x9", Sum: strings.Repeat("a", 64)}}}
	f.Add(j.encode())
	f.Add([]byte(`{"generation":2,"files":[{"name":"../x","temp":".TODO.md.tmp-a","sha256":""}]}`))
	f.Add([]byte(`{"generation":1,"files":[{"name":"state.json","temp":".state.json.tmp-/x","sha256":""}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		j, err := parseJournal(data)
		if err != nil {
			return
		}
		seen := map[string]bool{}
		for _, e := range j.Files {
			if seen[e.Name] || !contains(fileNames, e.Name) || !isTemp(e.Temp) || !strings.HasPrefix(e.Temp, tempPrefix(e.Name)) || strings.ContainsAny(e.Temp, "/\\\x00") {
				t.Fatalf("accepted %+v", e)
			}
			seen[e.Name] = true
		}
		again, err := parseJournal(j.encode())
		if err != nil || !reflect.DeepEqual(again, j) {
			t.Fatalf("round trip: %+v, %v", again, err)
		}
	})
}
