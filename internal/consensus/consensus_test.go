package consensus

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		name   string
		answer string
		want   []Finding
		err    error
	}{
		{"bare object", `{"findings":[{"file":"./a.go","line":3,"severity":"HIGH","title":" nil  map write ","detail":"d"}]}`,
			[]Finding{{File: "a.go", Line: 3, EndLine: 3, Severity: High, Title: "nil map write", Detail: "d"}}, nil},
		{"fenced in prose", "Here is my review.\n```json\n{\"findings\":[{\"path\":\"b/c.go\",\"line\":\"10-12\",\"severity\":\"minor\",\"title\":\"t\",\"description\":\"x\"}]}\n```\nDone.",
			[]Finding{{File: "b/c.go", Line: 10, EndLine: 12, Severity: Low, Title: "t", Detail: "x"}}, nil},
		{"bare array after prose", `I found: [{"file":"a.go","line":5,"end_line":2,"severity":"bogus","title":"x"}]`,
			[]Finding{{File: "a.go", Line: 5, EndLine: 5, Severity: Info, Title: "x"}}, nil},
		{"untitled dropped, negative line", `{"findings":[{"file":"a.go","title":""},{"file":"a.go","line":-4,"title":"y"}]}`,
			[]Finding{{File: "a.go", Severity: Info, Title: "y"}}, nil},
		{"empty list is no error", `{"findings": []}`, []Finding{}, nil},
		{"prose array is not findings", `see lines [1, 2] and {"x": 1}`, nil, ErrNoFindings},
		{"no json", `Looks fine to me.`, nil, ErrNoFindings},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := Parse(c.answer)
			if !errors.Is(err, c.err) {
				t.Fatalf("err = %v, want %v", err, c.err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("got  %+v\nwant %+v", got, c.want)
			}
		})
	}
}

func TestParseCapsFindings(t *testing.T) {
	s := `{"findings":[`
	for i := range MaxFindings + 5 {
		if i > 0 {
			s += ","
		}
		s += `{"file":"a.go","title":"t"}`
	}
	got, err := Parse(s + "]}")
	if err != nil || len(got) != MaxFindings {
		t.Fatalf("%d findings, %v; want %d", len(got), err, MaxFindings)
	}
}

func f(file string, line int, sev Severity, title string) Finding {
	return Finding{File: file, Line: line, EndLine: line, Severity: sev, Title: title}
}

func TestMerge(t *testing.T) {
	type row struct {
		title     string
		reviewers []string
		sev       Severity
	}
	for _, c := range []struct {
		name    string
		reports []Report
		want    []row
	}{
		{"shared finding ranks first though less severe",
			[]Report{
				{"claude", []Finding{f("a.go", 10, Critical, "SQL injection in query builder"), f("b.go", 4, Low, "Unchecked error from Close")}},
				{"gemini", []Finding{f("b.go", 5, Medium, "unchecked errors from close()"), f("c.go", 1, High, "Race on counter")}},
			},
			[]row{{"Unchecked error from Close", []string{"claude", "gemini"}, Medium}, {"SQL injection in query builder", []string{"claude"}, Critical}, {"Race on counter", []string{"gemini"}, High}}},
		{"same file, lines far apart stay apart",
			[]Report{{"a", []Finding{f("a.go", 10, Low, "unchecked error")}}, {"b", []Finding{f("a.go", 40, Low, "unchecked error")}}},
			[]row{{"unchecked error", []string{"a"}, Low}, {"unchecked error", []string{"b"}, Low}}},
		{"same place, different titles stay apart",
			[]Report{{"a", []Finding{f("a.go", 10, Low, "unchecked error")}}, {"b", []Finding{f("a.go", 10, High, "integer overflow in length")}}},
			[]row{{"integer overflow in length", []string{"b"}, High}, {"unchecked error", []string{"a"}, Low}}},
		{"different files stay apart",
			[]Report{{"a", []Finding{f("a.go", 1, Low, "leak")}}, {"b", []Finding{f("b.go", 1, Low, "leak")}}},
			[]row{{"leak", []string{"a"}, Low}, {"leak", []string{"b"}, Low}}},
		{"whole-file finding joins a line finding",
			[]Report{{"a", []Finding{f("a.go", 0, Low, "goroutine leak")}}, {"b", []Finding{f("a.go", 77, High, "Goroutine leaks")}}},
			[]row{{"goroutine leak", []string{"a", "b"}, High}}},
		{"one reviewer repeating itself counts once",
			[]Report{{"a", []Finding{f("a.go", 3, Low, "leak here"), f("a.go", 4, Low, "leak here")}}, {"b", []Finding{f("z.go", 1, Low, "other")}}},
			[]row{{"leak here", []string{"a"}, Low}, {"other", []string{"b"}, Low}}},
		{"three reviewers beat two",
			[]Report{
				{"a", []Finding{f("x.go", 1, Low, "nil deref"), f("y.go", 1, Critical, "panic on empty input")}},
				{"b", []Finding{f("x.go", 1, Low, "nil deref"), f("y.go", 2, Critical, "panic on empty input")}},
				{"c", []Finding{f("x.go", 2, Info, "possible nil deref")}},
			},
			[]row{{"nil deref", []string{"a", "b", "c"}, Low}, {"panic on empty input", []string{"a", "b"}, Critical}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Merge(c.reports)
			var rows []row
			for _, m := range got {
				if m.Agreement != len(m.Reviewers) {
					t.Errorf("%q: agreement %d with %d reviewers", m.Title, m.Agreement, len(m.Reviewers))
				}
				rows = append(rows, row{m.Title, m.Reviewers, m.Severity})
			}
			if !reflect.DeepEqual(rows, c.want) {
				t.Errorf("got  %+v\nwant %+v", rows, c.want)
			}
		})
	}
}

func TestMergeKeepsLineRangeAndDetails(t *testing.T) {
	a := Finding{File: "a.go", Line: 10, EndLine: 12, Severity: Low, Title: "leak", Detail: "one"}
	b := Finding{File: "a.go", Line: 8, EndLine: 14, Severity: Low, Title: "leak", Detail: "two"}
	got := Merge([]Report{{"x", []Finding{a}}, {"y", []Finding{b}}})
	if len(got) != 1 || got[0].Line != 8 || got[0].EndLine != 14 || got[0].Detail != "one" || !reflect.DeepEqual(got[0].Details, []string{"two"}) {
		t.Errorf("%+v", got)
	}
}

// FuzzParse: any answer parses without panicking, and what comes back
// obeys the bounds a report relies on.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"findings":[{"file":"a.go","line":3,"severity":"high","title":"t"}]}`,
		"```json\n[{\"path\":\"x\",\"line\":\"1-2\",\"title\":\"y\"}]\n```",
		`{"findings":[{"file":"../..","line":1e99,"title":"\u00e9\u00e9"}]}`,
		`[[[[{`, `{"findings":null}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, err := Parse(s)
		if err != nil && got != nil {
			t.Fatalf("findings with an error: %v", err)
		}
		if len(got) > MaxFindings {
			t.Fatalf("%d findings", len(got))
		}
		for _, x := range got {
			if x.Title == "" || len(x.Title) > maxTitle || len(x.Detail) > maxDetail || len(x.File) > maxFile {
				t.Fatalf("unbounded finding %+v", x)
			}
			if x.Line < 0 || x.EndLine < x.Line || x.Severity.Rank() == 0 && x.Severity != Info {
				t.Fatalf("bad finding %+v", x)
			}
		}
		Merge([]Report{{"a", got}, {"b", got}})
	})
}

// TestParseFileIsOnePlainLine: a finding's file is model output put into
// the report inside a code span: a newline or a backtick in it would let a
// reviewer (or text it read in the code under review) write lines of its
// own into the report, such as a finding all reviewers seem to agree on.
func TestParseFileIsOnePlainLine(t *testing.T) {
	got, err := Parse(`{"findings":[{"file":"a.go` + "`" + `\n2. **[critical] forged** — ` + "`" + `b.go\r\u0007","title":"t"}]}`)
	if err != nil || len(got) != 1 {
		t.Fatalf("Parse: %v %+v", err, got)
	}
	for _, r := range got[0].File {
		if r == '`' || r < ' ' || r == 0x7f {
			t.Fatalf("file %q keeps %q", got[0].File, r)
		}
	}
}

// TestParseReadsTheLastFindings: the prompt asks the answer to end with
// the findings object; what comes before may quote code (braces by the
// dozen) or another findings object (a fixture of the code under review,
// an example): the last one is the answer.
func TestParseReadsTheLastFindings(t *testing.T) {
	code := "The handler:\n" + strings.Repeat("if x { y[0] = map[string]int{} }\n", 40)
	final := `{"findings": [{"file": "real.go", "line": 2, "severity": "high", "title": "real"}]}`
	for name, answer := range map[string]string{
		"after code":    code + "\nMy findings:\n" + final + "\n",
		"after a quote": `The test fixture reads {"findings": [{"file": "fixture.go", "line": 1, "title": "quoted"}]} as input.` + "\n" + final,
	} {
		got, err := Parse(answer)
		if err != nil || len(got) != 1 || got[0].File != "real.go" {
			t.Errorf("%s: %+v, %v; want the final object's finding", name, got, err)
		}
	}
}
