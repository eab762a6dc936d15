package agents

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/atreides-dev/atreides/internal/confined"
	"go.yaml.in/yaml/v3"
)

// Skill is one skill file.
type Skill struct {
	Name        string
	Description string
	Body        string // the markdown after the front matter, trimmed
	Path        string // where it was read, relative to the project root
}

// Context is the skill as an agent reads it.
func (s Skill) Context() string {
	head := "Skill " + s.Name
	if s.Description != "" {
		head += ": " + s.Description
	}
	return head + "\n\n" + s.Body
}

// SkillsDir is atreides's own skill folder, relative to the root; it is
// searched before any host's.
const SkillsDir = ".atreides/skills"

// maxSkillBytes bounds one SKILL.md: skills go into a model's context,
// where anything larger would not fit anyway.
const maxSkillBytes = 64 << 10

// ParseSkill reads a SKILL.md: an optional front matter between "---"
// lines holding name and description (other keys, such as a host's
// allowed-tools, are ignored), then the body. A file without a name in its
// front matter is named by its directory (dirName).
func ParseSkill(data []byte, dirName string) (Skill, error) {
	text := unixLines(string(bytes.TrimPrefix(data, []byte("\ufeff"))))
	s := Skill{Name: dirName}
	if rest, ok := strings.CutPrefix(text, "---\n"); ok {
		front, body, found := cutFence(rest)
		if !found {
			return Skill{}, errors.New("front matter opened with --- is never closed")
		}
		var fm struct {
			Name        any `yaml:"name"`
			Description any `yaml:"description"`
		}
		if err := yaml.Unmarshal([]byte(front), &fm); err != nil {
			return Skill{}, fmt.Errorf("front matter: %w", err)
		}
		name, okName := scalar(fm.Name)
		desc, okDesc := scalar(fm.Description)
		if !okName || !okDesc {
			return Skill{}, errors.New("front matter: name and description must be text")
		}
		if name != "" {
			s.Name = name
		}
		s.Description = strings.Join(strings.Fields(desc), " ")
		text = body
	}
	if !ValidName(s.Name) {
		return Skill{}, fmt.Errorf("skill name %q: use lowercase letters, digits, - and _, starting with a letter", s.Name)
	}
	s.Body = strings.TrimSpace(text)
	return s, nil
}

// unixLines drops the carriage returns that end lines ("\r\n", and
// "\r\r\n" from a file converted twice), so that a file reads the same
// whatever its line endings, and reading it again changes nothing.
func unixLines(s string) string {
	if !strings.Contains(s, "\r\n") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, l := range lines[:len(lines)-1] {
		lines[i] = strings.TrimRight(l, "\r")
	}
	return strings.Join(lines, "\n")
}

// cutFence splits front matter from the body at the first line that is
// exactly "---".
func cutFence(s string) (front, body string, ok bool) {
	if rest, found := strings.CutPrefix(s, "---\n"); found || s == "---" {
		return "", rest, true
	}
	front, body, ok = strings.Cut(s, "\n---\n")
	if !ok && strings.HasSuffix(s, "\n---") {
		return strings.TrimSuffix(s, "\n---"), "", true
	}
	return front, body, ok
}

// scalar is a front-matter value as text; absent is "". YAML reads
// "description: 1.0" as a number, which is still text to a person.
func scalar(v any) (string, bool) {
	switch x := v.(type) {
	case nil:
		return "", true
	case string:
		return strings.TrimSpace(x), true
	case int, float64, bool:
		return fmt.Sprint(x), true
	}
	return "", false
}

// LoadSkills reads the named skills from <dir>/<name>/SKILL.md below the
// project root, looking in .atreides/skills first and then in dirs (the
// hosts' own skill folders, relative to root), never following a link out
// of the project. It returns the skills it found, in the order named
// (each once), and an error naming every skill it could not read and where
// it looked.
func LoadSkills(root string, names []string, dirs ...string) ([]Skill, error) {
	search := append([]string{SkillsDir}, dirs...)
	var out []Skill
	var errs []error
	seen := map[string]bool{}
	for _, name := range names {
		if seen[name] {
			continue
		}
		seen[name] = true
		s, err := loadSkill(root, name, search)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, s)
	}
	return out, errors.Join(errs...)
}

func loadSkill(root, name string, search []string) (Skill, error) {
	if !ValidName(name) {
		return Skill{}, fmt.Errorf("skill %q: not a skill name (lowercase letters, digits, - and _, starting with a letter)", name)
	}
	var looked []string
	for _, dir := range search {
		rel := path.Join(dir, name, "SKILL.md")
		data, err := confined.ReadFile(root, rel, maxSkillBytes)
		if errors.Is(err, fs.ErrNotExist) {
			looked = append(looked, rel)
			continue
		}
		if err != nil {
			return Skill{}, fmt.Errorf("skill %q: %s: %w", name, rel, err)
		}
		s, err := ParseSkill(data, name)
		if err != nil {
			return Skill{}, fmt.Errorf("skill %q: %s: %w", name, rel, err)
		}
		s.Path = rel
		return s, nil
	}
	return Skill{}, fmt.Errorf("skill %q not found (looked for %s below %s)", name, strings.Join(looked, ", "), root)
}
