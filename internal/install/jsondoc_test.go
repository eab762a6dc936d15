package install

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestRoundTripByteIdentical(t *testing.T) {
	files, err := filepath.Glob("testdata/*.json")
	if err != nil {
		t.Fatal(err)
	}
	inline := map[string]string{
		"empty object":      "{}\n",
		"empty array":       "[]",
		"scalar":            "12345678901234567890\n",
		"four spaces":       "{\n    \"a\": [\n        1,\n        {}\n    ]\n}\n",
		"tabs":              "{\n\t\"a\": {\n\t\t\"b\": true\n\t}\n}",
		"crlf":              "{\r\n  \"a\": 1,\r\n  \"b\": [\r\n    null\r\n  ]\r\n}\r\n",
		"escapes kept":      "{\n  \"k\\u0065y\": \"\\/\\u00e9\\\"\\n\\t\\ud83d\\ude00\"\n}\n",
		"numbers kept":      "[\n  1e3,\n  -0.0,\n  1E+2,\n  12345678901234567890,\n  0.1000\n]\n",
		"duplicates kept":   "{\n  \"a\": 1,\n  \"a\": 2\n}\n",
		"unicode raw":       "{\n  \"日本\": \"✓ naïve\"\n}\n",
		"marshalindent out": mustMarshalIndent(t),
	}
	cases := map[string][]byte{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		// Compact and malformed samples are not in an indented layout.
		if strings.Contains(f, "compact") || strings.Contains(f, "trailing-comma") || strings.Contains(f, "mixed") {
			continue
		}
		cases[f] = data
	}
	for k, v := range inline {
		cases[k] = []byte(v)
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			n, err := Parse(data)
			if err != nil {
				t.Fatalf("Parse: %v", err)
			}
			got := n.Encode(DetectFormat(data))
			if string(got) != string(data) {
				t.Errorf("round trip differs\n got: %q\nwant: %q", got, data)
			}
		})
	}
}

func mustMarshalIndent(t *testing.T) string {
	b, err := json.MarshalIndent(map[string]any{"z": []any{1, "x", nil, map[string]any{}}, "a": map[string]any{"b": false}}, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestEncodeCompactReformats(t *testing.T) {
	n, err := Parse([]byte(`{"b":[1,{"c":"d"}],"a":{},"e":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"b\": [\n    1,\n    {\n      \"c\": \"d\"\n    }\n  ],\n  \"a\": {},\n  \"e\": []\n}\n"
	if got := string(n.Encode(DefaultFormat)); got != want {
		t.Errorf("got %q want %q", got, want)
	}
}

func TestWriteStringLikeJSONStringify(t *testing.T) {
	tests := []struct{ in, want string }{
		{`a"b\c`, `"a\"b\\c"`},
		{"\n\r\t\b\f\x01\x1f", `"\n\r\t\b\f\u0001\u001f"`},
		{"<>&", `"<>&"`},
		{"é✓😀", `"é✓😀"`},
		{"bad\xffutf8", `"bad\ufffdutf8"`},
	}
	for _, tt := range tests {
		got := string(NewString(tt.in).Encode(Format{}))
		if got != tt.want {
			t.Errorf("%q: got %s want %s", tt.in, got, tt.want)
		}
		var back string
		if err := json.Unmarshal([]byte(got), &back); err != nil {
			t.Errorf("%q: output does not decode: %v", tt.in, err)
		}
	}
}

func TestParseSyntaxErrors(t *testing.T) {
	tests := []struct {
		name, in  string
		line, col int
		hint      string
	}{
		{"trailing comma object", "{\n  \"a\": 1,\n}\n", 3, 1, "trailing comma"},
		{"trailing comma array", "{\"a\": [1, 2, ]}", 1, 14, "trailing comma"},
		{"line comment", "{\n  // my hooks\n  \"a\": 1\n}", 2, 3, "comments"},
		{"block comment", "{ /* x */ }", 1, 3, "comments"},
		{"single quotes", "{'a': 1}", 1, 2, "double quotes"},
		{"bom", "\xef\xbb\xbf{}", 1, 1, "byte-order mark"},
		{"garbage after", "{} x", 1, 4, ""},
		{"two values", "{}{}", 1, 3, ""},
		{"unterminated", "{\"a\": \"x", 1, 9, ""},
		{"empty", "", 1, 1, ""},
		{"column counts characters", "{\"é\": tru}", 1, 10, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.in))
			var se *SyntaxError
			if !errors.As(err, &se) {
				t.Fatalf("want *SyntaxError, got %v", err)
			}
			if se.Line != tt.line || se.Column != tt.col {
				t.Errorf("at %d:%d, want %d:%d (%v)", se.Line, se.Column, tt.line, tt.col, err)
			}
			if !strings.Contains(se.Hint, tt.hint) {
				t.Errorf("hint %q does not mention %q", se.Hint, tt.hint)
			}
		})
	}
}

func TestParseDeepNesting(t *testing.T) {
	deep := strings.Repeat("[", maxDepth+1) + strings.Repeat("]", maxDepth+1)
	if _, err := Parse([]byte(deep)); err == nil {
		t.Error("want an error for nesting deeper than maxDepth")
	}
	ok := strings.Repeat("[", 100) + strings.Repeat("]", 100)
	if _, err := Parse([]byte(ok)); err != nil {
		t.Error(err)
	}
}

func TestObjectEditing(t *testing.T) {
	n, err := Parse([]byte(`{"a":1,"b":2,"a":3}`))
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := n.Get("a").Number(); v != "3" {
		t.Errorf("Get takes the last duplicate, got %s", v)
	}
	if k, dup := n.DuplicateKey(); !dup || k != "a" {
		t.Errorf("DuplicateKey = %q, %v", k, dup)
	}
	n.Set("b", NewBool(true))
	n.Insert(0, "first", NewNull())
	n.Set("last", NewString("x"))
	if !n.Delete("a") || n.Delete("missing") {
		t.Error("Delete result wrong")
	}
	want := `{"first":null,"b":true,"last":"x"}`
	var got strings.Builder
	for i, m := range n.Members() {
		if i > 0 {
			got.WriteByte(',')
		}
		got.WriteString(`"` + m.Key + `":` + strings.TrimSpace(string(m.Value.Encode(Format{}))))
	}
	if "{"+got.String()+"}" != want {
		t.Errorf("got {%s} want %s", got.String(), want)
	}
}

func FuzzParseEncode(f *testing.F) {
	seeds := []string{`{}`, `[]`, `{"a":[1,2,{"b":null}],"c":"\u00e9\/"}`, `12345678901234567890`, `"x"`, `{"a":1,"a":2}`, `[1e3,-0.0,true,false]`, `{"hooks":{"Stop":[{"hooks":[]}]}}`}
	files, _ := filepath.Glob("testdata/*.json")
	for _, fn := range files {
		if b, err := os.ReadFile(fn); err == nil {
			seeds = append(seeds, string(b))
		}
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		n, err := Parse(data)
		if err != nil {
			if json.Valid(data) && !strings.Contains(err.Error(), "nesting") {
				t.Fatalf("valid JSON rejected: %v", err)
			}
			return
		}
		if !json.Valid(data) {
			t.Fatalf("invalid JSON accepted")
		}
		for _, format := range []Format{DefaultFormat, DetectFormat(data), {Indent: "\t", Newline: "\r\n"}} {
			out := n.Encode(format)
			if !json.Valid(out) {
				t.Fatalf("encoded output is not valid JSON: %q", out)
			}
			back, err := Parse(out)
			if err != nil {
				t.Fatalf("re-parse: %v", err)
			}
			if !Equal(n, back) {
				t.Fatalf("decode(encode(decode(x))) != decode(x)\nin:  %q\nout: %q", data, out)
			}
			if again := back.Encode(format); string(again) != string(out) {
				t.Fatalf("encoding is not stable: %q vs %q", out, again)
			}
		}
	})
}
