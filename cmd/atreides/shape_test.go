package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// jsonShape is the testscript command 'jsonshape FILE': it prints the
// shape of the JSON document in FILE, one line per path with its type
// ("[]" stands for every element of a list, which must all share one
// shape), so a golden file pins the keys and types of a --json document
// without its values (ids, times, paths).
func jsonShape(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: jsonshape FILE")
	}
	dec := json.NewDecoder(strings.NewReader(ts.ReadFile(args[0])))
	var v any
	if err := dec.Decode(&v); err != nil {
		ts.Fatalf("%s is not JSON: %v", args[0], err)
	}
	if _, err := dec.Token(); err != io.EOF {
		ts.Fatalf("%s holds more than one JSON document", args[0])
	}
	var lines []string
	if err := shape(".", v, &lines); err != nil {
		ts.Fatalf("%v", err)
	}
	fmt.Fprintln(ts.Stdout(), strings.Join(lines, "\n"))
}

func shape(path string, v any, lines *[]string) error {
	switch v := v.(type) {
	case map[string]any:
		*lines = append(*lines, path+" object")
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := shape(strings.TrimSuffix(path, ".")+"."+k, v[k], lines); err != nil {
				return err
			}
		}
	case []any:
		if len(v) == 0 {
			*lines = append(*lines, path+" empty list")
			return nil
		}
		*lines = append(*lines, path+" list")
		var first []string
		for i, e := range v {
			var el []string
			if err := shape(strings.TrimSuffix(path, ".")+"[]", e, &el); err != nil {
				return err
			}
			if i == 0 {
				first = el
			} else if !slices.Equal(el, first) {
				return fmt.Errorf("%s: element %d has another shape than element 0:\n%s\n---\n%s", path, i, strings.Join(el, "\n"), strings.Join(first, "\n"))
			}
		}
		*lines = append(*lines, first...)
	case string:
		*lines = append(*lines, path+" string")
	case float64:
		*lines = append(*lines, path+" number")
	case bool:
		*lines = append(*lines, path+" bool")
	case nil:
		*lines = append(*lines, path+" null")
	}
	return nil
}
