package codex

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// updateSchemas rewrites testdata/schema from the binary named by
// ATREIDES_CODEX_NATIVE (see testdata/schema/README.md).
var updateSchemas = flag.Bool("update-schemas", false, "rewrite testdata/schema from $ATREIDES_CODEX_NATIVE")

// TestVendoredSchemas checks testdata/schema against the schemas built
// into the Codex binary named by ATREIDES_CODEX_NATIVE (the platform
// binary, not the npm wrapper), or rewrites them with -update-schemas.
// Without the variable it only checks that the vendored files parse: the
// binary is 300 MB, read only when asked for.
func TestVendoredSchemas(t *testing.T) {
	vendored, err := filepath.Glob(filepath.Join(schemaDir, "*.schema.json"))
	if err != nil || len(vendored) == 0 {
		t.Fatalf("no vendored schemas in %s: %v", schemaDir, err)
	}
	for _, f := range vendored {
		var v any
		if b, err := os.ReadFile(f); err != nil || json.Unmarshal(b, &v) != nil {
			t.Errorf("%s: not JSON (%v)", f, err)
		}
	}
	bin := os.Getenv("ATREIDES_CODEX_NATIVE")
	if bin == "" {
		return
	}
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := embeddedSchemas(data)
	if err != nil {
		t.Fatal(err)
	}
	if *updateSchemas {
		writeSchemas(t, vendored, embedded)
		return
	}
	var names []string
	for name, doc := range embedded {
		names = append(names, filepath.Join(schemaDir, name))
		if b, err := os.ReadFile(filepath.Join(schemaDir, name)); err != nil || !bytes.Equal(b, doc) {
			t.Errorf("%s differs from the binary's (run with -update-schemas)", name)
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, vendored) {
		t.Errorf("the binary has %v, testdata has %v", names, vendored)
	}
}

// schemaStart opens every hook schema Codex embeds: its generator writes
// them pretty-printed, draft-07, $schema first.
var schemaStart = []byte("{\n  \"$schema\": \"http://json-schema.org/draft-07/schema#\"")

// embeddedSchemas finds the hook schemas in a Codex binary, by file name
// (<title>.schema.json), each as its bytes plus a newline. An object ends
// at the first "\n}": only the outermost brace is unindented.
func embeddedSchemas(data []byte) (map[string][]byte, error) {
	out := map[string][]byte{}
	for rest := data; ; {
		i := bytes.Index(rest, schemaStart)
		if i < 0 {
			return out, nil
		}
		rest = rest[i:]
		end := bytes.Index(rest, []byte("\n}"))
		if end < 0 {
			return out, nil
		}
		doc := rest[:end+2]
		rest = rest[end+2:]
		var head struct {
			Title string `json:"title"`
		}
		if err := json.Unmarshal(doc, &head); err != nil || head.Title == "" {
			continue // a schema of something else
		}
		out[head.Title+".schema.json"] = append(slices.Clip(doc), '\n')
	}
}

func writeSchemas(t *testing.T, old []string, embedded map[string][]byte) {
	t.Helper()
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			t.Fatal(err)
		}
	}
	for name, doc := range embedded {
		if err := os.WriteFile(filepath.Join(schemaDir, name), doc, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}
