package config

import (
	"reflect"
	"testing"
)

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

// TestPresetRuns: each preset runs what the ones below it bring and no
// more; a zero Config's preset is full, as the defaults say.
func TestPresetRuns(t *testing.T) {
	ps := Presets()
	for i, p := range ps {
		for j, q := range ps {
			if got, want := p.Runs(q), i >= j; got != want {
				t.Errorf("%s.Runs(%s) = %v, want %v", p, q, got, want)
			}
		}
	}
	if !Preset("").Runs(PresetFull) || Builtin().Preset != PresetFull {
		t.Errorf("the default preset is not full: %q", Builtin().Preset)
	}
}
