package jsonl

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

func TestDeeper(t *testing.T) {
	for _, tc := range []struct {
		in   string
		max  int
		want bool
	}{
		{`{"a":[1,2]}`, 2, false},
		{`{"a":[[1]]}`, 2, true},
		{`"[[[[[["`, 2, false},     // inside a string
		{`"\"[[[["`, 2, false},     // an escaped quote does not end it
		{`["\\",[[[]]]]`, 2, true}, // an escaped backslash does
		{`]]]]]][[`, 2, false},     // not JSON: only depth counts
		{strings.Repeat("[", 65), 64, true},
		{strings.Repeat("[", 64), 64, false},
	} {
		if got := Deeper([]byte(tc.in), tc.max); got != tc.want {
			t.Errorf("Deeper(%q, %d) = %v, want %v", tc.in, tc.max, got, tc.want)
		}
	}
}

// TestReadLine: a line over the bound is dropped whole and reading goes
// on with the next one.
func TestReadLine(t *testing.T) {
	in := "short\n" + strings.Repeat("x", 100) + "\nnext\nlast"
	br := bufio.NewReaderSize(strings.NewReader(in), 16)
	type got struct {
		line    string
		tooLong bool
	}
	var lines []got
	for {
		l, tooLong, err := ReadLine(br, 50)
		lines = append(lines, got{string(l), tooLong})
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	want := []got{{"short", false}, {strings.Repeat("x", 100), true}, {"next", false}, {"last", false}}
	if len(lines) != len(want) {
		t.Fatalf("lines %v, want %v", lines, want)
	}
	for i := range want {
		if lines[i].tooLong != want[i].tooLong || !strings.HasPrefix(want[i].line, lines[i].line) || !want[i].tooLong && lines[i].line != want[i].line {
			t.Errorf("line %d = %+v, want %+v", i, lines[i], want[i])
		}
	}
}
