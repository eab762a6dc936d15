// Package intent reads and edits the project's intents
// (.atreides/intents.yaml) and decides whether a path is inside an intent's
// owned scope.
//
// An intent is a unit of work an agent must select before it writes: an id,
// a title and goal, the path globs it owns, its constraints and acceptance
// criteria. The file is validated node by node so every problem is reported
// with its line.
package intent

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/confined"
	"github.com/bmatcuk/doublestar/v4"
	"go.yaml.in/yaml/v3"
)

// FileName is the intents file inside the .atreides directory.
const FileName = "intents.yaml"

// Statuses of an intent. Only an open intent can be selected.
const (
	Open      = "open"
	Done      = "done"
	Cancelled = "cancelled"
)

// Intent is one unit of governed work.
type Intent struct {
	ID          string   `yaml:"id"`
	Title       string   `yaml:"title"`
	Goal        string   `yaml:"goal,omitempty"`
	Status      string   `yaml:"status"`
	Scope       []string `yaml:"owned_scope"`
	Constraints []string `yaml:"constraints,omitempty"`
	Acceptance  []string `yaml:"acceptance_criteria,omitempty"`
	Owner       string   `yaml:"owner,omitempty"`
	Line        int      `yaml:"-"` // where the intent starts in the file
}

// Selectable reports whether an agent may select the intent.
func (in *Intent) Selectable() bool { return in.Status == Open }

// File is the parsed intents file.
type File struct {
	Path    string
	Intents []Intent
}

// Find returns the intent with the id, or nil.
func (f *File) Find(id string) *Intent {
	if f == nil {
		return nil
	}
	for i := range f.Intents {
		if f.Intents[i].ID == id {
			return &f.Intents[i]
		}
	}
	return nil
}

// OpenIntents returns the intents that can be selected.
func (f *File) OpenIntents() []Intent {
	var out []Intent
	if f == nil {
		return nil
	}
	for _, in := range f.Intents {
		if in.Selectable() {
			out = append(out, in)
		}
	}
	return out
}

// Error is one problem in the intents file, with its position.
type Error struct {
	File      string
	Line, Col int
	Msg       string
}

func (e Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Col, e.Msg)
	}
	return e.File + ": " + e.Msg
}

// Errors lists every problem found in the file.
type Errors []Error

func (es Errors) Error() string {
	lines := make([]string, len(es))
	for i, e := range es {
		lines[i] = e.Error()
	}
	return strings.Join(lines, "\n")
}

// Load reads and validates the intents file. A missing file gives an empty
// File and an error wrapping fs.ErrNotExist.
func Load(path string) (*File, error) {
	data, err := readFile(path)
	if err != nil {
		return &File{Path: path}, err
	}
	return Parse(path, data)
}

// maxFileSize bounds what one hook reads; thousands of intents fit.
const maxFileSize = 4 << 20

// readFile reads the intents file at path, <root>/.atreides/intents.yaml.
// The file and its directory come from the repository, so neither is read
// through a link, and a FIFO or device there is refused instead of blocking
// (package confined). Governance treats the refusal like an invalid file.
func readFile(path string) ([]byte, error) {
	base, rel := confined.Split(path, 2)
	return confined.ReadFile(base, rel, maxFileSize)
}

// ValidID reports whether id is a valid intent id: a letter or digit, then
// up to 63 letters, digits, dots, underscores or dashes.
// (Checked by hand: a counted regexp repetition compiles to ~860
// allocations in package init, paid by every hook process.)
func ValidID(id string) bool {
	if id == "" || len(id) > 64 || !idChar(id[0], false) {
		return false
	}
	for i := 1; i < len(id); i++ {
		if !idChar(id[i], true) {
			return false
		}
	}
	return true
}

func idChar(c byte, punct bool) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return punct && (c == '.' || c == '_' || c == '-')
}

var knownKeys = []string{"id", "title", "goal", "status", "owned_scope", "constraints", "acceptance_criteria", "owner"}

// Parse validates data; every problem is reported, each with its line.
func Parse(path string, data []byte) (f *File, err error) {
	f = &File{Path: path}
	defer func() {
		if r := recover(); r != nil {
			err = Errors{{File: path, Msg: fmt.Sprintf("internal error parsing YAML: %v", r)}}
		}
	}()
	doc, err := decode(data)
	if err != nil {
		return f, Errors{{File: path, Msg: "YAML syntax error: " + strings.TrimPrefix(err.Error(), "yaml: ")}}
	}
	var errs Errors
	fail := func(n *yaml.Node, format string, args ...any) {
		errs = append(errs, Error{File: path, Line: n.Line, Col: n.Column, Msg: fmt.Sprintf(format, args...)})
	}
	top := root(doc)
	if top == nil {
		return f, nil
	}
	if top.Kind != yaml.MappingNode {
		fail(top, "the top level must be a mapping with an intents: list")
		return f, errs
	}
	var list *yaml.Node
	for i := 0; i+1 < len(top.Content); i += 2 {
		k, v := top.Content[i], top.Content[i+1]
		switch k.Value {
		case "version":
			if v.Value != "1" {
				fail(v, "version %q is not supported (this atreides reads version 1)", v.Value)
			}
		case "intents":
			list = v
		default:
			fail(k, "unknown key %q (want intents, version)", k.Value)
		}
	}
	if list == nil || (list.Kind == yaml.ScalarNode && list.Tag == "!!null") {
		return f, errs.orNil()
	}
	if list.Kind != yaml.SequenceNode {
		fail(list, "intents must be a list")
		return f, errs
	}
	seen := map[string]int{}
	for _, n := range list.Content {
		if n.Kind != yaml.MappingNode {
			fail(n, "an intent must be a mapping (id: ..., title: ..., owned_scope: [...])")
			continue
		}
		in := Intent{Line: n.Line, Status: Open}
		has := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if has[k.Value] {
				fail(k, "duplicate key %q", k.Value)
			}
			has[k.Value] = true
			switch k.Value {
			case "id", "title", "goal", "status", "owner":
				if v.Kind != yaml.ScalarNode {
					fail(v, "%s must be a string", k.Value)
					continue
				}
				switch k.Value {
				case "id":
					in.ID = v.Value
					if !ValidID(v.Value) {
						fail(v, "id %q must be letters, digits, '.', '_' or '-' (at most 64)", v.Value)
					} else if line, dup := seen[v.Value]; dup {
						fail(v, "id %q is already used by the intent at line %d", v.Value, line)
					} else {
						seen[v.Value] = n.Line
					}
				case "title":
					in.Title = v.Value
				case "goal":
					in.Goal = v.Value
				case "status":
					in.Status = v.Value
					if !slices.Contains([]string{Open, Done, Cancelled}, v.Value) {
						fail(v, "status %q is not one of open, done, cancelled", v.Value)
					}
				case "owner":
					in.Owner = v.Value
				}
			case "owned_scope", "constraints", "acceptance_criteria":
				items, ok := stringList(v)
				if !ok {
					fail(v, "%s must be a list of strings", k.Value)
					continue
				}
				switch k.Value {
				case "owned_scope":
					for j, g := range items {
						if msg := checkGlob(g); msg != "" {
							fail(v.Content[j], "owned_scope: %s", msg)
						}
					}
					in.Scope = items
				case "constraints":
					in.Constraints = items
				default:
					in.Acceptance = items
				}
			default:
				fail(k, "unknown key %q (known: %s)", k.Value, strings.Join(knownKeys, ", "))
			}
		}
		if !has["id"] {
			fail(n, "an intent needs an id")
		}
		if strings.TrimSpace(in.Title) == "" && !has["title"] {
			fail(n, "intent %q needs a title", in.ID)
		}
		if len(in.Scope) == 0 {
			fail(n, "intent %q needs an owned_scope: the path globs it may write", in.ID)
		}
		f.Intents = append(f.Intents, in)
	}
	return f, errs.orNil()
}

func (es Errors) orNil() error {
	if len(es) == 0 {
		return nil
	}
	return es
}

func decode(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return &yaml.Node{Kind: yaml.DocumentNode}, nil
		}
		return nil, err
	}
	return &doc, nil
}

func root(doc *yaml.Node) *yaml.Node {
	if doc == nil || len(doc.Content) == 0 {
		return nil
	}
	n := doc.Content[0]
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	return n
}

// stringList returns the scalars of a sequence node.
func stringList(v *yaml.Node) ([]string, bool) {
	if v.Kind == yaml.ScalarNode && v.Tag == "!!null" {
		return nil, true
	}
	if v.Kind != yaml.SequenceNode {
		return nil, false
	}
	out := make([]string, 0, len(v.Content))
	for _, c := range v.Content {
		if c.Kind != yaml.ScalarNode {
			return nil, false
		}
		out = append(out, c.Value)
	}
	return out, true
}

func checkGlob(g string) string {
	switch {
	case strings.TrimSpace(g) == "":
		return "empty glob"
	case !doublestar.ValidatePattern(g):
		return fmt.Sprintf("%q is not a valid glob", g)
	}
	for _, part := range strings.Split(g, "/") {
		if part == ".." {
			return fmt.Sprintf("%q leaves the project (..); name the path from the project root", g)
		}
	}
	return ""
}

// NotExist reports whether err means the intents file is missing.
func NotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// Summary renders an intent for the agent: the goal, constraints,
// acceptance criteria and scope it now works under.
func (in *Intent) Summary() string { return in.SummaryWithin(0) }
