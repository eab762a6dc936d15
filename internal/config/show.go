package config

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"go.yaml.in/yaml/v3"
)

// Show writes the merged configuration with the source of every value.
//
// "yaml" writes a valid config file whose leaves end in a
// `# from: <source>` comment.
//
// "json" is for scripts: {"config": {...}, "sources": {"<key>": "<source>"}}
// where config is the merged configuration as plain nested JSON (read
// values with jq '.config.audit.max_mib') and sources maps the printable key
// of every leaf, as used in error messages (audit.max_mib, rules[0].path,
// guard.verdicts."git.reset-hard"), to "default" or "file:line". Empty
// lists and mappings count as leaves. Keys keep the config's order.
func (c *Config) Show(w io.Writer, format string) error {
	switch format {
	case "yaml":
		var buf bytes.Buffer
		enc := yaml.NewEncoder(&buf)
		enc.SetIndent(2)
		if err := enc.Encode(yamlNode(redacted(c.tree(), ""))); err != nil {
			return fmt.Errorf("config: encoding YAML: %w", err)
		}
		if err := enc.Close(); err != nil {
			return fmt.Errorf("config: encoding YAML: %w", err)
		}
		_, err := w.Write(buf.Bytes())
		return err
	case "json":
		var b bytes.Buffer
		b.WriteString(`{"config":`)
		writeJSON(&b, redacted(c.tree(), ""))
		b.WriteString(`,"sources":{`)
		first := true
		walkLeaves(c.tree(), "", func(key string, v *value) {
			if !first {
				b.WriteByte(',')
			}
			first = false
			writeString(&b, key)
			b.WriteByte(':')
			writeString(&b, v.src.String())
		})
		b.WriteString("}}")
		var out bytes.Buffer
		if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
			return fmt.Errorf("config: encoding JSON: %w", err)
		}
		out.WriteByte('\n')
		_, err := w.Write(out.Bytes())
		return err
	}
	return fmt.Errorf("config: unknown format %q (want yaml or json)", format)
}

func yamlNode(v *value) *yaml.Node {
	switch v.kind {
	case kindMapping:
		n := &yaml.Node{Kind: yaml.MappingNode}
		if len(v.keys) == 0 {
			n.Style = yaml.FlowStyle
			n.LineComment = "from: " + v.src.String()
		}
		for _, k := range v.keys {
			n.Content = append(n.Content, &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: k}, yamlNode(v.fields[k]))
		}
		return n
	case kindList:
		n := &yaml.Node{Kind: yaml.SequenceNode}
		if len(v.items) == 0 {
			n.Style = yaml.FlowStyle
			n.LineComment = "from: " + v.src.String()
		}
		for _, it := range v.items {
			n.Content = append(n.Content, yamlNode(it))
		}
		return n
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, LineComment: "from: " + v.src.String()}
	switch s := v.scalar.(type) {
	case string:
		n.Tag, n.Value = "!!str", s
		if v.tag != "" {
			n.Tag = v.tag
		}
	case bool:
		n.Tag, n.Value = "!!bool", strconv.FormatBool(s)
	case int:
		n.Tag, n.Value = "!!int", strconv.Itoa(s)
	}
	return n
}

func writeJSON(b *bytes.Buffer, v *value) {
	switch v.kind {
	case kindMapping:
		b.WriteByte('{')
		for i, k := range v.keys {
			if i > 0 {
				b.WriteByte(',')
			}
			writeString(b, k)
			b.WriteByte(':')
			writeJSON(b, v.fields[k])
		}
		b.WriteByte('}')
	case kindList:
		b.WriteByte('[')
		for i, it := range v.items {
			if i > 0 {
				b.WriteByte(',')
			}
			writeJSON(b, it)
		}
		b.WriteByte(']')
	default:
		switch s := v.scalar.(type) {
		case string:
			writeString(b, s)
		case bool:
			b.WriteString(strconv.FormatBool(s))
		case int:
			b.WriteString(strconv.Itoa(s))
		}
	}
}

func writeString(b *bytes.Buffer, s string) {
	// json.Marshal of a string cannot fail.
	out, _ := json.Marshal(s)
	b.Write(out)
}

// walkLeaves calls f for every scalar and every empty list or mapping, in order.
func walkLeaves(v *value, key string, f func(key string, v *value)) {
	switch v.kind {
	case kindMapping:
		if len(v.keys) == 0 {
			f(key, v)
		}
		for _, k := range v.keys {
			walkLeaves(v.fields[k], joinKey(key, k), f)
		}
	case kindList:
		if len(v.items) == 0 {
			f(key, v)
		}
		for i, it := range v.items {
			walkLeaves(it, joinIndex(key, i), f)
		}
	default:
		f(key, v)
	}
}

// Changed is c with only the settings whose value differs from the
// built-in default, each with its source, for `config show --changed`:
// a value a file sets to the default is no change. A list that differs
// is kept whole (lists replace each other whole); a mapping keeps the
// keys that differ. Empty reports whether nothing differs.
func (c *Config) Changed() (changed *Config, empty bool) {
	out := &Config{root: prune(c.tree(), defaultTree())}
	if out.root == nil {
		out.root = &value{kind: kindMapping, fields: map[string]*value{}}
		return out, true
	}
	return out, false
}

// prune is v less what equals def, the defaults at the same place; nil
// when nothing is left.
func prune(v, def *value) *value {
	switch {
	case def == nil || v.kind != def.kind:
		return v
	case v.kind == kindMapping:
		out := &value{kind: kindMapping, free: v.free, src: v.src, fields: map[string]*value{}}
		for _, k := range v.keys {
			if p := prune(v.fields[k], def.child(k)); p != nil {
				out.keys = append(out.keys, k)
				out.fields[k] = p
			}
		}
		if len(out.keys) == 0 {
			return nil
		}
		return out
	case v.kind == kindList:
		if len(v.items) == len(def.items) && sameValue(v, def) {
			return nil
		}
		return v
	}
	if v.scalar == def.scalar {
		return nil
	}
	return v
}
