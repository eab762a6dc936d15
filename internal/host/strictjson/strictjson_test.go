package strictjson

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

type inner struct {
	Name string `json:"name"`
}

type target struct {
	Command string          `json:"command"`
	Count   int             `json:"count,omitempty"`
	Raw     json.RawMessage `json:"raw"`
	Inner   *inner          `json:"inner"`
	Value   inner           `json:"value"`
	List    []inner         `json:"list"`
	Tags    []string        `json:"tags"`
	Skip    string          `json:"-"`
	Untag   string
}

func TestUnmarshal(t *testing.T) {
	tests := []struct {
		name, in string
		want     target
		err      string // substring of the error; "" for none
	}{
		{"exact", `{"command":"ls","count":2,"tags":["a"],"Untag":"u"}`, target{Command: "ls", Count: 2, Tags: []string{"a"}, Untag: "u"}, ""},
		{"unknown keys ignored", `{"command":"ls","other":{"command":"x","COMMAND":"y"}}`, target{Command: "ls"}, ""},
		{"variant alone is not read", `{"COMMAND":"rm -rf ~"}`, target{}, ""},
		{"variant of untagged name", `{"untag":"u"}`, target{}, ""},
		{"variant after exact", `{"command":"rm -rf ~","COMMAND":"ls"}`, target{}, `keys "command" and "COMMAND" differ only in case`},
		{"variant before exact", `{"Command":"ls","command":"rm -rf ~"}`, target{}, `keys "Command" and "command"`},
		{"duplicate", `{"command":"rm -rf ~","command":"ls"}`, target{}, `duplicate key "command"`},
		{"long s", "{\"tags\":[\"a\"],\"tag\u017f\":[\"b\"]}", target{}, "differ only in case"},
		{"long s escaped", `{"tags":["a"],"TAG\u017F":["b"]}`, target{}, "differ only in case"},
		{"kelvin", "{\"tags\":[],\"\u212aey\":1,\"key\":2,\"Untag\":\"u\",\"untaG\":\"v\"}", target{}, `keys "Untag" and "untaG"`},
		{"long s alone", "{\"tag\u017f\":[\"a\"]}", target{}, ""},
		{"escaped duplicate", `{"command":"a","\u0063ommand":"b"}`, target{}, `duplicate key "command"`},
		{"nested pointer", `{"inner":{"name":"a","NAME":"b"}}`, target{}, `in inner`},
		{"nested value exact", `{"value":{"name":"a"},"inner":{"name":"b"}}`, target{Value: inner{"a"}, Inner: &inner{"b"}}, ""},
		{"nested variant not read", `{"inner":{"Name":"b"}}`, target{Inner: &inner{}}, ""},
		{"array of objects", `{"list":[{"name":"a"},{"name":"b","nAme":"c"}]}`, target{}, `in list[1]`},
		{"array decoded", `{"list":[{"name":"a"},{"Name":"b"}]}`, target{List: []inner{{"a"}, {""}}}, ""},
		{"raw kept verbatim", `{"raw":{"x":1,"X":2}}`, target{Raw: json.RawMessage(`{"x":1,"X":2}`)}, ""},
		{"null pointer", `{"inner":null}`, target{}, ""},
		{"skip tag", `{"-":"x","Skip":"y"}`, target{}, ""},
		{"truncated", `{"command":"rm -rf ~"`, target{}, "unexpected end of JSON"},
		{"type error", `{"count":"x"}`, target{}, "cannot unmarshal string"},
		{"integer", `{"count":-12}`, target{Count: -12}, ""},
		{"fraction", `{"count":1.5}`, target{}, "cannot unmarshal number 1.5"},
		{"exponent", `{"count":1e3}`, target{}, "cannot unmarshal number 1e3"},
		{"overflow", `{"count":9223372036854775808}`, target{}, "cannot unmarshal number 9223372036854775808"},
		{"not an object", `[1]`, target{}, "cannot unmarshal array"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got target
			err := Unmarshal([]byte(tt.in), &got)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

// What encoding/json does with the same inputs: the reason for this package.
func TestEncodingJSONFoldsKeys(t *testing.T) {
	for _, in := range []string{`{"command":"rm -rf ~","COMMAND":"ls"}`, "{\"tags\":[\"rm\"],\"tag\u017f\":[\"ls\"]}"} {
		var got target
		if err := json.Unmarshal([]byte(in), &got); err != nil || got.Command != "ls" && !reflect.DeepEqual(got.Tags, []string{"ls"}) {
			t.Errorf("encoding/json reads %s as %+v (%v), no longer the last folded key: revisit this package", in, got, err)
		}
	}
}

func TestUniqueKeys(t *testing.T) {
	tests := []struct{ name, in, err string }{
		{"flat ok", `{"command":"ls","description":"x"}`, ""},
		{"scalars", `"x"`, ""},
		{"flat variant", `{"command":"rm -rf ~","COMMAND":"ls"}`, `keys "command" and "COMMAND" differ only in case`},
		{"unknown key variant", `{"foo":1,"FOO":2}`, `keys "foo" and "FOO"`},
		{"nested", `{"a":{"b":{"x":1,"X":2}}}`, " in a.b"},
		{"array of objects", `{"edits":[{"old":"a"},{"old":"b","OLD":"c"}]}`, " in edits[1]"},
		{"top array", `[{"a":1},[{"k":1,"\u212a":2}]]`, " in [1][0]"},
		{"strings look like keys", `{"a":"{\"x\":1,\"X\":2}"}`, ""},
		{"same key different objects", `{"a":{"x":1},"b":{"x":2}}`, ""},
		{"many keys", manyKeys(40, false), ""},
		{"many keys variant", manyKeys(40, true), `differ only in case`},
		{"invalid", `{"a":`, "invalid JSON"},
		{"invalid after a conflict", `{"a":1,"A":2,`, "invalid JSON"},
		{"trailing data", `{"a":1} {}`, "invalid JSON"},
		{"own conflict before a nested one", `{"a":{"x":1,"X":2},"b":1,"B":2}`, `keys "b" and "B" differ only in case`},
		{"first nested conflict", `{"a":[{"x":1,"X":2}],"c":{"y":1,"Y":2}}`, `keys "x" and "X" in a[0] differ only in case`},
		{"first pair of three", `{"k":1,"K":2,"\u212a":3}`, `keys "k" and "K"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := UniqueKeys([]byte(tt.in))
			if tt.err == "" {
				if err != nil {
					t.Fatal(err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("error %v, want one containing %q", err, tt.err)
			}
			var ke *KeyError
			if tt.err != "invalid JSON" && !errors.As(err, &ke) {
				t.Errorf("%T is not a *KeyError", err)
			}
		})
	}
}

func manyKeys(n int, variant bool) string {
	var b strings.Builder
	b.WriteString(`{`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"key` + strings.Repeat("x", i) + `":1`)
	}
	if variant {
		b.WriteString(`,"KEYXX":2`)
	}
	b.WriteString(`}`)
	return b.String()
}

// Two strings fold alike exactly when strings.EqualFold says they are equal.
func FuzzFold(f *testing.F) {
	f.Add("s", "ſ")
	f.Add("k", "\u212a")
	f.Add("Straße", "STRASSE")
	f.Fuzz(func(t *testing.T, a, b string) {
		if eq := string(fold(nil, a)) == string(fold(nil, b)); eq != strings.EqualFold(a, b) {
			t.Fatalf("fold(%q)==fold(%q) is %v, EqualFold %v", a, b, eq, !eq)
		}
	})
}

// For any document UniqueKeys accepts, no object in it has two keys equal
// under case folding (checked by decoding every object with encoding/json
// into ordered key lists), and it is valid JSON.
func FuzzUniqueKeys(f *testing.F) {
	for _, s := range []string{`{"command":"ls"}`, `{"a":[{"b":1,"B":2}]}`, `{"k":1,"\u212a":2}`, `[{"x":{"y":"z"}}]`, `{"a":"\"}"}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if UniqueKeys([]byte(s)) != nil {
			return
		}
		if !json.Valid([]byte(s)) {
			t.Fatalf("accepted invalid JSON %q", s)
		}
		dec := json.NewDecoder(strings.NewReader(s))
		dec.UseNumber() // a huge number is valid JSON but no float64
		if err := checkTokens(dec); err != nil {
			t.Fatalf("accepted %q: %v", s, err)
		}
	})
}

// What wellFormed accepts encoding/json accepts too: Unmarshal runs
// encoding/json's check only on what wellFormed refuses.
func FuzzWellFormed(f *testing.F) {
	for _, s := range []string{`{"command":"ls"}`, ` [1, "\ud800", "\xff"] `, `{"a":1}{"b":2}`, `{"a":1} x`, `"\u00e9"`, ``, `01`, `{"a":[}`, "\"\xff\"", `1e999`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if wellFormed([]byte(s)) && !json.Valid([]byte(s)) {
			t.Fatalf("wellFormed accepted %q, which encoding/json refuses", s)
		}
	})
}

// checkTokens walks one JSON value with the token decoder, failing on an
// object with two keys equal under strings.EqualFold.
func checkTokens(dec *json.Decoder) error {
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		var keys []string
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return err
			}
			for _, o := range keys {
				if strings.EqualFold(o, k.(string)) {
					return errors.New("keys " + o + " and " + k.(string))
				}
			}
			keys = append(keys, k.(string))
			if err := checkTokens(dec); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	case json.Delim('['):
		for dec.More() {
			if err := checkTokens(dec); err != nil {
				return err
			}
		}
		_, err = dec.Token()
	}
	return err
}

// Unmarshal reads what encoding/json reads whenever keys are exact and
// unique, and never fails where encoding/json succeeds unless it names a
// key conflict.
func FuzzUnmarshal(f *testing.F) {
	for _, s := range []string{`{"command":"ls","list":[{"name":"a"}],"inner":{"name":"b"},"raw":[1]}`, `{"COMMAND":"x"}`, `null`, `{"count":1.5}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got, want target
		err := Unmarshal([]byte(s), &got)
		werr := json.Unmarshal([]byte(s), &want)
		var ke *KeyError
		switch {
		case errors.As(err, &ke):
			return
		case (err == nil) != (werr == nil) && exactKeys(s):
			// (A key that differs from a field's name only in case is
			// not read here, so encoding/json's error on its value is
			// not ours: {"COunt":0.0}.)
			t.Fatalf("%q: strict %v, encoding/json %v", s, err, werr)
		case err == nil && UniqueKeys([]byte(s)) == nil && !reflect.DeepEqual(got, want) && exactKeys(s):
			t.Fatalf("%q: strict %+v, encoding/json %+v", s, got, want)
		}
	})
}

// exactKeys reports a document whose keys equal a field name of target
// exactly whenever they equal one under folding.
func exactKeys(s string) bool {
	names := []string{"command", "count", "raw", "inner", "value", "list", "tags", "name", "Untag", "Skip", "-"}
	dec := json.NewDecoder(strings.NewReader(s))
	for {
		tok, err := dec.Token()
		if err != nil {
			return true
		}
		k, ok := tok.(string)
		if !ok {
			continue
		}
		for _, n := range names {
			if strings.EqualFold(k, n) && k != n {
				return false
			}
		}
	}
}

func BenchmarkUnmarshal(b *testing.B) {
	data := []byte(`{"command":"go test ./...","count":3,"raw":{"a":[1,2,3],"b":"x"},"inner":{"name":"n"},"list":[{"name":"a"},{"name":"b"}],"tags":["x","y"]}`)
	b.Run("strict", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v target
			if err := Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("encoding-json", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var v target
			if err := json.Unmarshal(data, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkUnmarshalInput is a tool input as a hook reads it: the whole
// input checked for key conflicts, then decoded.
func BenchmarkUnmarshalInput(b *testing.B) {
	data := []byte(`{"file_path":"/home/u/proj/internal/x.go","edits":[{"old_string":"func a() {\n\treturn\n}","new_string":"func a() {\n\treturn 1\n}","replace_all":false},{"old_string":"b","new_string":"c"}],"description":"Edit two places","nested":{"a":[1,2,3],"b":{"c":null}}}`)
	type edit struct {
		Old string `json:"old_string"`
		New string `json:"new_string"`
	}
	type input struct {
		Path  string `json:"file_path"`
		Edits []edit `json:"edits"`
	}
	b.ReportAllocs()
	for b.Loop() {
		var v input
		if err := UnmarshalInput(data, &v); err != nil {
			b.Fatal(err)
		}
	}
}
