package config

import (
	"reflect"
	"slices"

	"github.com/atreides-dev/atreides/internal/guard"
)

// A config file with one typo used to leave the guard without a policy,
// and the guard fails closed: every tool call was denied, `ls` too. The
// fallback keeps the agent working without ever being weaker than the
// built-in defaults: it is the defaults tightened by what the files say
// that could be read.
//
// Each file's readable part (parse leaves out only the invalid values) is
// screened against the configuration below it exactly as an untrusted
// project file is (screen.go): a setting stays only where it is at least
// as strict as what it replaces, judged per key by the same ranks (a
// verdict may go from ask to deny, not to allow; guard.enabled may not go
// to false; a disabled rule stays only if already disabled; a program to
// run or a connection to open never stays). A file that cannot be read
// at all contributes nothing. So the user's trusted file and a trusted
// project file lose their loosening settings too while anything is
// broken: the fallback cannot know whether the broken part was what
// balanced them.

// Fallback is the configuration to go on with when [Load] of p fails: the
// built-in defaults tightened by the readable part of each file. It never
// fails. The guard's names it does not know (rule ids, groups, switches)
// are left out: an unknown name tightens nothing, and the guard would
// refuse it.
func Fallback(p Paths) *Config {
	def := defaultTree()
	root := def
	var notes []FieldError
	for _, f := range []struct {
		name    string
		project bool
	}{{p.User, false}, {p.Project, true}} {
		if f.name == "" {
			continue
		}
		data, err := readFile(f.name, f.project)
		if err != nil {
			// Missing: nothing to apply; unreadable: nothing can be.
			continue
		}
		v, _, fnotes := parse(f.name, data)
		notes = append(notes, fnotes...)
		if v == nil {
			continue
		}
		v, _ = screen(root, v)
		dropUnknownNames(v)
		root = merge(root, v, def)
	}
	c := &Config{root: root, notes: notes, fallback: true}
	assign(reflect.ValueOf(c).Elem(), root)
	return c
}

// IsFallback reports whether c is a [Fallback]: the files could not be
// read whole and only what tightens the defaults applies.
func (c *Config) IsFallback() bool { return c.fallback }

// dropUnknownNames removes from a screened file tree the rule ids,
// groups and switches the guard does not know, and the switches whose
// value is no verdict: the guard would refuse them. The screened tree's
// mappings and lists under guard are its own (screen builds them), so
// they are edited in place.
func dropUnknownNames(v *value) {
	g := v.child("guard")
	if g == nil || g.kind != kindMapping {
		return
	}
	byName := func(known func(string) bool) func(string, *value) bool {
		return func(name string, _ *value) bool { return known(name) }
	}
	keep := map[string]func(name string, v *value) bool{
		"disable": byName(guard.IsRule), "verdicts": byName(guard.IsRule),
		"groups": byName(guard.IsGroup),
		"switches": func(name string, v *value) bool {
			_, err := guard.ParseVerdict(str(v))
			return guard.IsSwitch(name) && err == nil
		},
	}
	for key, ok := range keep {
		c := g.fields[key]
		switch {
		case c == nil:
		case c.kind == kindList:
			c.items = slices.DeleteFunc(slices.Clone(c.items), func(it *value) bool { return !ok(str(it), it) })
		case c.kind == kindMapping:
			keys := c.keys[:0:0]
			for _, k := range c.keys {
				if ok(k, c.fields[k]) {
					keys = append(keys, k)
				} else {
					delete(c.fields, k)
				}
			}
			c.keys = keys
		}
	}
}
