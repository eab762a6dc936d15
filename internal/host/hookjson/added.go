package hookjson

import (
	"encoding/json"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
	"github.com/atreides-dev/atreides/internal/host/strictjson"
)

// EditTools names a Claude-format host's tools that put text into a file,
// whose inputs share their field names (file_path, content, old_string,
// new_string, edits); "" for a tool the host does not have.
type EditTools struct {
	Write     string // writes content, the whole file
	Edit      string // replaces old_string by new_string
	MultiEdit string // makes each of edits' replacements
	// Original is the key under which a write's response holds the file's
	// content before it (see [host.OriginalIn]).
	Original string
}

// edited holds the input fields of the edit tools that say what they put
// into the file.
type edited struct {
	FilePath  string `json:"file_path"`
	Content   string `json:"content"`
	OldString string `json:"old_string"`
	NewString string `json:"new_string"`
	Edits     []struct {
		OldString string `json:"old_string"`
		NewString string `json:"new_string"`
	} `json:"edits"`
}

// Added is what a successful call of one of the edit tools added to its
// file; response is where the host reports the call's result. A write's
// response holds the file's original content when the file existed: then
// only the lines it did not hold count. A payload that does not parse
// adds nothing; the comment checker fails open.
func (e EditTools) Added(t event.Tool, response json.RawMessage) []event.FileLines {
	var in edited
	if t.Raw == "" || strictjson.Unmarshal(t.Input, &in) != nil || in.FilePath == "" {
		return nil
	}
	switch t.Raw {
	case e.Write:
		return []event.FileLines{host.Written(in.FilePath, in.Content, host.OriginalIn(response, e.Original))}
	case e.Edit:
		return []event.FileLines{host.Replaced(in.FilePath, in.OldString, in.NewString)}
	case e.MultiEdit:
		var out []event.FileLines
		for _, r := range in.Edits {
			out = append(out, host.Replaced(in.FilePath, r.OldString, r.NewString))
		}
		return out
	}
	return nil
}
