package intent

import (
	"bytes"
	"fmt"
	"path/filepath"

	"github.com/atreides-dev/atreides/internal/confined"
	"go.yaml.in/yaml/v3"
)

// Add appends an intent to the file at path, creating it if needed, and
// keeps the rest of the file (comments included) as it was. The result is
// validated before it is written.
func Add(path string, in Intent) error {
	if in.Status == "" {
		in.Status = Open
	}
	doc, err := readDoc(path)
	if err != nil {
		return err
	}
	top := root(doc)
	if top == nil {
		top = &yaml.Node{Kind: yaml.MappingNode}
		doc.Kind, doc.Content = yaml.DocumentNode, []*yaml.Node{top}
	}
	if top.Kind != yaml.MappingNode {
		return fmt.Errorf("%s: the top level must be a mapping", path)
	}
	list := value(top, "intents")
	if list == nil || list.Kind != yaml.SequenceNode {
		seq := &yaml.Node{Kind: yaml.SequenceNode}
		if list == nil {
			top.Content = append(top.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "intents"}, seq)
		} else {
			*list = *seq
		}
		list = value(top, "intents")
	}
	var n yaml.Node
	if err := n.Encode(in); err != nil {
		return err
	}
	list.Content = append(list.Content, &n)
	return writeDoc(path, doc)
}

// SetStatus changes an intent's status in the file at path.
func SetStatus(path, id, status string) error {
	doc, err := readDoc(path)
	if err != nil {
		return err
	}
	top := root(doc)
	if top == nil {
		return fmt.Errorf("no intent %q in %s", id, path)
	}
	list := value(top, "intents")
	if list == nil {
		return fmt.Errorf("no intent %q in %s", id, path)
	}
	for _, n := range list.Content {
		if v := value(n, "id"); v != nil && v.Value == id {
			if s := value(n, "status"); s != nil {
				s.Value, s.Tag, s.Style = status, "!!str", 0
			} else {
				n.Content = append(n.Content,
					&yaml.Node{Kind: yaml.ScalarNode, Value: "status"},
					&yaml.Node{Kind: yaml.ScalarNode, Value: status})
			}
			return writeDoc(path, doc)
		}
	}
	return fmt.Errorf("no intent %q in %s", id, path)
}

func value(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

func readDoc(path string) (*yaml.Node, error) {
	data, err := readFile(path)
	if err != nil && !NotExist(err) {
		return nil, err
	}
	if _, err := Parse(path, data); err != nil && len(data) > 0 {
		return nil, fmt.Errorf("fix the intents file first:\n%w", err)
	}
	doc, err := decode(data)
	if err != nil {
		return nil, err
	}
	return doc, nil
}

// writeDoc validates and writes the document atomically (temp + rename),
// inside the .atreides directory reached without links; the rename replaces
// whatever holds the name, a link included, and never writes through it.
func writeDoc(path string, doc *yaml.Node) error {
	var b bytes.Buffer
	enc := yaml.NewEncoder(&b)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return err
	}
	enc.Close()
	if _, err := Parse(path, b.Bytes()); err != nil {
		return err
	}
	base, rel := confined.Split(path, 2)
	dir, err := confined.MkdirAll(base, filepath.Dir(rel), 0o755)
	if err != nil {
		return err
	}
	defer dir.Close()
	return dir.ReplaceFile(filepath.Base(rel), b.Bytes(), true)
}
