package config

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"go.yaml.in/yaml/v3"
)

// schemaPath is the committed schema, in the docs.
const schemaPath = "../../docs/config.schema.json"

// TestSchemaGenerated writes docs/config.schema.json from the Config
// struct (with -update, as go generate does) and fails when the
// committed file is not what it generates today.
func TestSchemaGenerated(t *testing.T) {
	got, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	if *update {
		if err := os.WriteFile(schemaPath, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	committed, err := os.ReadFile(schemaPath)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(committed, got) {
		t.Error("docs/config.schema.json is not the schema of the Config struct: run `go generate ./internal/config` and commit the result")
	}
}

// compiledSchema compiles Schema with the library editors' servers
// follow the draft of.
func compiledSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := Schema()
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(SchemaID, doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile(SchemaID)
	if err != nil {
		t.Fatalf("the schema does not compile: %v", err)
	}
	return s
}

// yamlInstance is a YAML document as the JSON value a schema validates.
func yamlInstance(t *testing.T, src []byte) any {
	t.Helper()
	var v any
	if err := yaml.Unmarshal(src, &v); err != nil {
		t.Fatal(err)
	}
	j, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(j))
	if err != nil {
		t.Fatal(err)
	}
	return inst
}

// TestSchemaAccepts: the defaults and every configuration example in the
// README and the docs validate; files the loader refuses for what the
// schema can say do not.
func TestSchemaAccepts(t *testing.T) {
	s := compiledSchema(t)
	if err := s.Validate(yamlInstance(t, defaultYAML)); err != nil {
		t.Errorf("defaults.yaml: %v", err)
	}
	examples := docExamples(t)
	if len(examples) < 5 {
		t.Fatalf("found %d configuration examples in the docs, want at least 5", len(examples))
	}
	for name, src := range examples {
		if err := s.Validate(yamlInstance(t, []byte(src))); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
	for _, bad := range []string{
		"guard: {enabeld: true}\n",
		"guard: {enabled: maybe}\n",
		"preset: everything\n",
		"audit: {max_mib: 0}\n",
		"rules: [~]\n",
		"rules:\n  - {verdict: perhaps, command: ls}\n",
		"rules:\n  - {command: ls}\n",
		"rules:\n  - {verdict: deny, command: ls, path: x}\n",
		"rules:\n  - {verdict: deny}\n",
		"context: {checks: {run: [{globs: ['*.go']}]}}\n",
	} {
		if err := s.Validate(yamlInstance(t, []byte(bad))); err == nil {
			t.Errorf("%q validates; the loader refuses it", bad)
		}
		if _, err := Load(Paths{User: writeTemp(t, bad)}); err == nil {
			t.Errorf("%q loads; the case is wrong", bad)
		}
	}
	for _, good := range []string{"guard:\n", "session: {stop: {max_blocks: ~}}\n", "session: {identity: {name: 42}}\n"} {
		if err := s.Validate(yamlInstance(t, []byte(good))); err != nil {
			t.Errorf("%q: %v; the loader takes it", good, err)
		}
	}
}

func writeTemp(t *testing.T, text string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// docExamples are the yaml blocks of the README and docs/*.md whose top
// level names a configuration section (others, such as an OpenTelemetry
// collector's, are not atreides's), by file and block number.
func docExamples(t *testing.T) map[string]string {
	t.Helper()
	files, _ := filepath.Glob("../../docs/*.md")
	files = append(files, "../../README.md")
	block := regexp.MustCompile("(?s)```yaml\n(.*?)```")
	out := map[string]string{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for i, m := range block.FindAllSubmatch(data, -1) {
			var top map[string]any
			if yaml.Unmarshal(m[1], &top) != nil {
				continue
			}
			for k := range top {
				if _, ok := fieldByName(configType(), k); ok {
					out[filepath.Base(f)+"#"+strings.Repeat("I", i+1)] = string(m[1])
					break
				}
			}
		}
	}
	return out
}
