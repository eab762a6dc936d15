package config

import "strconv"

// Source is where a resolved value came from: the built-in defaults (File
// is empty) or a line and column of a config file.
type Source struct {
	File      string
	Line, Col int
}

// IsDefault reports whether the value is a built-in default.
func (s Source) IsDefault() bool { return s.File == "" }

// String returns "default" or "file:line".
func (s Source) String() string {
	switch {
	case s.File == "":
		return "default"
	case s.Line == 0:
		return s.File
	}
	return s.File + ":" + strconv.Itoa(s.Line)
}

type valueKind uint8

const (
	kindScalar valueKind = iota
	kindMapping
	kindList
	// kindNull is an explicit null in a file; merging turns it into a
	// reset, so merged trees never hold one.
	kindNull
)

// value is one node of a validated config tree. Trees are immutable once
// built: merging copies the mappings it changes, so the cached defaults
// tree can be shared.
type value struct {
	kind valueKind
	// free is true for mappings decoded from a Go map (rule ids, switch
	// names), whose keys are data rather than schema.
	free bool
	src  Source
	// scalar is a string, bool or int.
	scalar any
	// tag is the YAML tag of a string that was written as another kind
	// of scalar (switches: {strict: true}), for Show.
	tag    string
	keys   []string // mapping keys in file order
	fields map[string]*value
	items  []*value
}

func (v *value) child(k string) *value {
	switch v.kind {
	case kindMapping:
		return v.fields[k]
	case kindList:
		i, err := strconv.Atoi(k)
		if err != nil || i < 0 || i >= len(v.items) {
			return nil
		}
		return v.items[i]
	}
	return nil
}

// A path names a value as a list of keys and list indices ("2"), which is
// unambiguous even when a map key contains dots (rule ids do). Its
// printable form, used in messages, quotes such keys:
// guard.verdicts."git.reset-hard", guard.disable[2].

func joinKey(prefix, key string) string {
	if !plainKey(key) {
		key = strconv.Quote(key)
	}
	if prefix == "" {
		return key
	}
	return prefix + "." + key
}

func joinIndex(prefix string, i int) string {
	return prefix + "[" + strconv.Itoa(i) + "]"
}

func plainKey(k string) bool {
	if k == "" {
		return false
	}
	for _, r := range k {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return false
		}
	}
	return true
}

// Pos returns where the value at path was set, e.g.
// c.Pos("guard", "verdicts", "git.reset-hard") or c.Pos("guard", "disable", "2").
// Scalars report their value's position, lists and mappings the key that
// introduced them. A path that names nothing returns the zero Source, which
// reads as "default".
func (c *Config) Pos(path ...string) Source {
	v := c.tree()
	for _, p := range path {
		if v == nil {
			return Source{}
		}
		v = v.child(p)
	}
	if v == nil {
		return Source{}
	}
	return v.src
}

// Key returns the printable form of path, as used in error messages:
// guard.verdicts."git.reset-hard", rules[0].path. List indices are known
// from the loaded tree; a path that leaves the tree continues as keys.
func (c *Config) Key(path ...string) string {
	v := c.tree()
	key := ""
	for _, p := range path {
		if v != nil && v.kind == kindList {
			if i, err := strconv.Atoi(p); err == nil {
				key = joinIndex(key, i)
				v = v.child(p)
				continue
			}
		}
		key = joinKey(key, p)
		if v != nil {
			v = v.child(p)
		}
	}
	return key
}

// ErrorAt builds a FieldError pointing at the value at path, for checks
// only other packages can make (unknown rule ids, groups, switches).
// Collect them in a [ValidationError] to report them all at once.
func (c *Config) ErrorAt(msg string, path ...string) FieldError {
	s := c.Pos(path...)
	return FieldError{File: s.File, Line: s.Line, Col: s.Col, Key: c.Key(path...), Msg: msg}
}
