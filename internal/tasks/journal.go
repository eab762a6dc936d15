package tasks

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// journalFile names the temporary files of a write between its two
// phases; it exists only while the renames run (or after they failed).
const journalFile = ".files.journal"

// maxJournal bounds the journal read: three names and hashes.
const maxJournal = 4 << 10

// journal is what a write promises to put in place: each file's temporary
// name and the board generation they carry.
type journal struct {
	Gen   int            `json:"generation"`
	Files []journalEntry `json:"files"`
}

type journalEntry struct {
	Name string `json:"name"`
	Temp string `json:"temp"`
	// Sum is the sha256 of the content, so that a TODO.md put in place
	// by recovery is known as atreides' own, not a hand edit.
	Sum string `json:"sha256"`
}

// tempPrefix starts the temporary names of a generated file (the pattern
// confined.Dir.CreateTemp and ReplaceFile use).
func tempPrefix(name string) string { return "." + name + ".tmp-" }

// isTemp reports whether name is a temporary file of a write: of one of
// the three files or of the journal.
func isTemp(name string) bool {
	for _, f := range append(fileNames[:len(fileNames):len(fileNames)], journalFile) {
		if rest, ok := strings.CutPrefix(name, tempPrefix(f)); ok && rest != "" {
			return true
		}
	}
	return false
}

func (j *journal) encode() []byte {
	data, err := json.Marshal(j)
	if err != nil {
		panic(fmt.Sprintf("tasks: encode journal: %v", err)) // strings and ints only
	}
	return append(data, '\n')
}

// parseJournal reads a journal and accepts it only if every entry names
// one of the generated files once, with a temporary name of that file:
// recovery renames what it names, so a journal that names anything else
// (another file, a path) is refused, never acted on.
func parseJournal(data []byte) (*journal, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var j journal
	if err := dec.Decode(&j); err != nil {
		return nil, fmt.Errorf("journal: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("journal: data after the document")
	}
	if j.Gen <= 0 {
		return nil, fmt.Errorf("journal: generation %d", j.Gen)
	}
	if len(j.Files) == 0 {
		return nil, fmt.Errorf("journal: no files")
	}
	seen := map[string]bool{}
	for _, e := range j.Files {
		if !slices.Contains(fileNames, e.Name) || seen[e.Name] {
			return nil, fmt.Errorf("journal: file %q is not a generated file or is named twice", e.Name)
		}
		seen[e.Name] = true
		rest, ok := strings.CutPrefix(e.Temp, tempPrefix(e.Name))
		if !ok || rest == "" || strings.ContainsFunc(rest, func(r rune) bool {
			return !('0' <= r && r <= '9' || 'a' <= r && r <= 'z')
		}) {
			return nil, fmt.Errorf("journal: %q is not a temporary name of %s", e.Temp, e.Name)
		}
		if len(e.Sum) != 64 || strings.Trim(e.Sum, "0123456789abcdef") != "" {
			return nil, fmt.Errorf("journal: bad sha256 for %s", e.Name)
		}
	}
	return &j, nil
}

// genMarkerOf is what precedes the generation number in the file, in its
// first bytes (readGen reads no further). A switch, not a map: no init
// work in the hook binary.
func genMarkerOf(name string) string {
	if name == TodoFile {
		return "(" + genMarker
	}
	return `"generation": ` // state.json, errors.json
}

// genPrefix is how much of a file readGen looks at.
const genPrefix = 512

// readGen finds the generation a file's first bytes carry; ok is false
// when they carry none (a hand edit removed it, or not our file).
func readGen(name string, head []byte) (gen int, ok bool) {
	_, rest, found := bytes.Cut(head[:min(len(head), genPrefix)], []byte(genMarkerOf(name)))
	if !found {
		return 0, false
	}
	end := bytes.IndexFunc(rest, func(r rune) bool { return r < '0' || r > '9' })
	if end < 0 {
		end = len(rest)
	}
	n, err := strconv.Atoi(string(rest[:end]))
	return n, err == nil && end > 0
}
