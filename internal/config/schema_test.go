package config

import "reflect"

// walkSchema appends to missing the key of every struct field of t that
// the tree v lacks.
func walkSchema(t reflect.Type, v *value, key string, missing *[]string) {
	if t.Kind() != reflect.Struct {
		return
	}
	for i := range t.NumField() {
		f := t.Field(i)
		name := yamlName(f)
		if name == "" {
			continue
		}
		c := v.fields[name]
		if c == nil {
			*missing = append(*missing, joinKey(key, name))
			continue
		}
		walkSchema(f.Type, c, joinKey(key, name), missing)
	}
}
