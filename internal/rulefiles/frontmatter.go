package rulefiles

import (
	"bytes"
	"strings"

	"go.yaml.in/yaml/v3"
)

// rule is a conditional rules file, parsed.
type rule struct {
	globs  []string // project-relative doublestar patterns
	always bool     // applies to every file (alwaysApply, or no globs at all)
	body   string   // the text after the front matter
}

// frontMatter is the keys of a rules file's front matter this package
// reads: Claude Code's paths, Cursor's globs and alwaysApply. paths and
// globs are a list or one comma-separated string.
type frontMatter struct {
	Paths       any  `yaml:"paths"`
	Globs       any  `yaml:"globs"`
	AlwaysApply bool `yaml:"alwaysApply"`
}

// parseRule reads a conditional rules file. A file without front matter,
// or whose front matter names no globs, applies everywhere (Claude Code
// loads such a .claude/rules file at start); one whose front matter is not
// YAML is still read for its paths: and globs: lines, since Cursor writes
// `globs: *.ts` unquoted, which YAML takes for an alias. A Cursor rule with
// alwaysApply false and no globs is one the agent asks for by name: it
// applies nowhere.
func parseRule(data []byte) rule {
	head, body, ok := splitFrontMatter(data)
	if !ok {
		return rule{always: true, body: strings.TrimSpace(string(data))}
	}
	r := rule{body: strings.TrimSpace(string(body))}
	var fm frontMatter
	if err := yaml.Unmarshal(head, &fm); err != nil {
		fm = scanFrontMatter(head)
	}
	r.globs = append(globList(fm.Paths), globList(fm.Globs)...)
	_, hasAlways := keyOf(head, "alwaysApply")
	r.always = fm.AlwaysApply || len(r.globs) == 0 && !hasAlways
	return r
}

// splitFrontMatter cuts a "---" fenced block off the start of data.
func splitFrontMatter(data []byte) (head, body []byte, ok bool) {
	data = bytes.TrimPrefix(data, []byte("\ufeff"))
	rest, found := bytes.CutPrefix(data, []byte("---"))
	if !found {
		return nil, data, false
	}
	nl := bytes.IndexByte(rest, '\n')
	if nl < 0 || len(bytes.TrimSpace(rest[:nl])) != 0 {
		return nil, data, false
	}
	rest = rest[nl+1:]
	for off := 0; off <= len(rest); {
		line := rest[off:]
		end := bytes.IndexByte(line, '\n')
		if end >= 0 {
			line = line[:end]
		}
		if bytes.Equal(bytes.TrimRight(line, " \t\r"), []byte("---")) {
			if end < 0 {
				return rest[:off], nil, true
			}
			return rest[:off], rest[off+end+1:], true
		}
		if end < 0 {
			break
		}
		off += end + 1
	}
	return nil, data, false
}

// scanFrontMatter reads paths:, globs: and alwaysApply: as plain lines.
func scanFrontMatter(head []byte) frontMatter {
	var fm frontMatter
	if v, ok := keyOf(head, "paths"); ok {
		fm.Paths = v
	}
	if v, ok := keyOf(head, "globs"); ok {
		fm.Globs = v
	}
	if v, ok := keyOf(head, "alwaysApply"); ok {
		fm.AlwaysApply = strings.EqualFold(v, "true")
	}
	return fm
}

// keyOf is the raw value of a top-level "key:" line of the front matter.
func keyOf(head []byte, key string) (string, bool) {
	for line := range strings.SplitSeq(string(head), "\n") {
		if v, ok := strings.CutPrefix(line, key+":"); ok {
			return strings.TrimSpace(v), true
		}
	}
	return "", false
}

// globList reads a list of globs or one comma-separated string of them.
func globList(v any) []string {
	var raw []string
	switch v := v.(type) {
	case string:
		raw = strings.Split(v, ",")
	case []any:
		for _, x := range v {
			if s, ok := x.(string); ok {
				raw = append(raw, strings.Split(s, ",")...)
			}
		}
	}
	var out []string
	for _, g := range raw {
		g = strings.TrimSpace(strings.Trim(strings.TrimSpace(g), `"'`))
		g = strings.TrimSpace(strings.TrimPrefix(g, "./"))
		if g != "" {
			out = append(out, g)
		}
	}
	return out
}
