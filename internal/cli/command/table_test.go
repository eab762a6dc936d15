package command

import (
	"strings"
	"testing"
)

func tableIO(tty bool, width int, color bool) *IO {
	return &IO{Term: func() (bool, int) { return tty, width }, Color: func() bool { return color }}
}

func TestTableOffATerminalIsTabSeparated(t *testing.T) {
	var b strings.Builder
	tb := NewTable(tableIO(false, 0, false), &b, "id", "title")
	tb.Row("#1", "a title much longer than any terminal "+strings.Repeat("x", 200))
	tb.Add("#2").AddPainted("two\nlines", StyleOf(tableIO(false, 0, true)).Bold).EndRow()
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	want := "#1\ta title much longer than any terminal " + strings.Repeat("x", 200) + "\n#2\ttwo lines\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestTableOnATerminalHasAHeaderAndFits(t *testing.T) {
	var b strings.Builder
	tb := NewTable(tableIO(true, 30, false), &b, "id", "status", "title")
	tb.Row("#1", "open", "a title longer than the terminal is wide")
	tb.Row("#22", "done", "")
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	want := []string{
		"ID   STATUS  TITLE",
		"#1   open    a title longer t…",
		"#22  done",
	}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	for _, l := range lines {
		if n := len([]rune(l)); n > 30 {
			t.Errorf("line %q is %d wide, past the terminal's 30", l, n)
		}
	}
}

func TestTableColoursOnlyWhenAsked(t *testing.T) {
	for _, color := range []bool{false, true} {
		var b strings.Builder
		io := tableIO(true, 80, color)
		tb := NewTable(io, &b, "verdict")
		tb.AddPainted("deny", StyleOf(io).Verdict).EndRow()
		if err := tb.Render(); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(b.String(), "\x1b["); got != color {
			t.Errorf("colour %v: escape codes %v in %q", color, got, b.String())
		}
	}
}

func TestStreamHasFixedColumns(t *testing.T) {
	var b strings.Builder
	tb, err := NewStream(tableIO(true, 40, false), &b, Column{Title: "time", Width: 8}, Column{Title: "what"})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Row("12:00:00", strings.Repeat("y", 50)); err != nil {
		t.Fatal(err)
	}
	want := "TIME      WHAT\n12:00:00  " + strings.Repeat("y", 29) + "…\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestStreamPipedIsTabSeparated(t *testing.T) {
	var b strings.Builder
	tb, err := NewStream(tableIO(false, 0, false), &b, Column{Title: "time", Width: 8}, Column{Title: "what"})
	if err != nil {
		t.Fatal(err)
	}
	if err := tb.Row("12:00:00", strings.Repeat("y", 50)); err != nil {
		t.Fatal(err)
	}
	if want := "12:00:00\t" + strings.Repeat("y", 50) + "\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestTruncate(t *testing.T) {
	for _, tc := range []struct {
		s    string
		n    int
		want string
	}{{"abc", 3, "abc"}, {"abcd", 3, "ab…"}, {"abcd", 1, "…"}, {"abcd", 0, ""}, {"héllo", 4, "hél…"}} {
		if got := Truncate(tc.s, tc.n); got != tc.want {
			t.Errorf("Truncate(%q, %d) = %q, want %q", tc.s, tc.n, got, tc.want)
		}
	}
}

// On a terminal a column no row fills is left out, title and all, and
// gives its room to the others; piped, it stays, so fields keep their
// numbers.
func TestTableDropsEmptyColumnsOnATerminal(t *testing.T) {
	for _, tty := range []bool{true, false} {
		var b strings.Builder
		tb := NewTable(tableIO(tty, 20, false), &b, "id", "note", "title")
		tb.Row("1", "", "a title of twenty chars")
		if err := tb.Render(); err != nil {
			t.Fatal(err)
		}
		want := "ID  TITLE\n1   a title of twen…\n"
		if !tty {
			want = "1\t\ta title of twenty chars\n"
		}
		if b.String() != want {
			t.Errorf("tty %v: got %q, want %q", tty, b.String(), want)
		}
	}
}

// TestTableWideCharacters: a title in Chinese or with an emoji takes two
// columns a character on a terminal; the table counts columns, so its
// rows fit the terminal and the next column stays in line.
func TestTableWideCharacters(t *testing.T) {
	var b strings.Builder
	tb := NewTable(tableIO(true, 30, false), &b, "title", "status").Flex(0)
	tb.Row("修复登录处理程序中的密码哈希问题并运行测试", "open")
	tb.Row("fix 🐛 now", "done")
	if err := tb.Render(); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	col := -1
	for _, l := range lines {
		if w := Width(l); w > 30 {
			t.Errorf("line %q is %d columns, past the terminal's 30", l, w)
		}
		i := strings.LastIndex(l, "  ")
		if c := Width(l[:i+2]); col >= 0 && c != col {
			t.Errorf("the status column starts at %d in %q, at %d above", c, l, col)
		} else {
			col = c
		}
	}
	if Width("修复a") != 5 || Width("e\u0301") != 1 || Truncate("修复登录", 5) != "修复…" {
		t.Errorf("Width or Truncate: %d %d %q", Width("修复a"), Width("e\u0301"), Truncate("修复登录", 5))
	}
}

// TestTableEscapesControls: a cell's escape sequence (a todo title an
// agent wrote) reaches the terminal as text, never as a command to it.
func TestTableEscapesControls(t *testing.T) {
	for _, tty := range []bool{true, false} {
		var b strings.Builder
		tb := NewTable(tableIO(tty, 80, false), &b, "title")
		tb.Row("fix\x1b]52;c;aGVsbG8=\x07 it\x1b[2J")
		if err := tb.Render(); err != nil {
			t.Fatal(err)
		}
		if strings.ContainsAny(b.String(), "\x1b\x07") || !strings.Contains(b.String(), `fix\x1b]52;c;aGVsbG8=\x07 it`) {
			t.Errorf("terminal %v: %q", tty, b.String())
		}
	}
}

// TestOneLineEscapesAndFits: the lines status -v and the lists print
// escape control characters and cut at terminal columns, as cells do.
func TestOneLineEscapesAndFits(t *testing.T) {
	if got := OneLine("a\x1b[2Jb\nc", 80); got != `a\x1b[2Jb c` {
		t.Errorf("OneLine escaped %q", got)
	}
	if got := OneLine("修复登录处理程序", 7); Width(got) > 7 || got != "修复登…" {
		t.Errorf("OneLine cut %q (%d columns)", got, Width(got))
	}
}
