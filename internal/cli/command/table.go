package command

import (
	stdio "io"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/atreides-dev/atreides/internal/sanitize"
	"golang.org/x/term"
)

// Every list a command prints goes through one Table, as gh's do: on a
// terminal, a header row, columns aligned and cut to the terminal's
// width, colour when the terminal takes it; anywhere else, one line per
// row with the cells separated by tabs, no header, nothing cut and no
// colour, so a script can cut -f the columns it wants.

// fallbackWidth is the width of a terminal that does not say its own.
const fallbackWidth = 80

// minCell is the narrowest a cut column becomes (an ellipsis and a few
// characters), so that no column vanishes on a narrow terminal.
const minCell = 5

// colGap is the space between two columns of a terminal's table.
const colGap = "  "

// TermFor returns the lazy answer to "is out a terminal, and how wide?":
// a hook never prints a table, so never pays the ioctl.
func TermFor(out *os.File) func() (bool, int) {
	return sync.OnceValues(func() (bool, int) {
		fd := int(out.Fd())
		if !term.IsTerminal(fd) {
			return false, 0
		}
		if w, _, err := term.GetSize(fd); err == nil && w > 0 {
			return true, w
		}
		return true, fallbackWidth
	})
}

// terminal is io's answer: whether Out is a terminal, and its width.
func (io *IO) terminal() (bool, int) {
	if io.Term == nil {
		return false, 0
	}
	return io.Term()
}

// IsTTY reports whether Out is a terminal (a person reads it).
func IsTTY(io *IO) bool {
	tty, _ := io.terminal()
	return tty
}

// cell is one value of a row: its text, and how it is painted once cut.
type cell struct {
	text  string
	paint func(string) string
}

// Table is a list being printed: NewTable, then Add cells and EndRow for
// each row, then Render.
type Table struct {
	w      stdio.Writer
	tty    bool
	width  int
	style  Style
	header []string
	rows   [][]cell
	cur    []cell
	// fixed are the widths of a streaming table (NewStream): each row is
	// written as it ends.
	fixed []int
	// flex are the columns cut first on a narrow terminal (Flex).
	flex []int
}

// Flex names the columns (by index) that give way first when a row is
// wider than the terminal: free text such as a title or a command, not
// an id, which is no use cut. The others are cut only when cutting these
// to a few characters is not enough.
func (t *Table) Flex(cols ...int) *Table {
	t.flex = cols
	return t
}

// NewTable is a table written to w (io.Out, or a buffer over it) with
// these column titles, shown on a terminal only.
func NewTable(io *IO, w stdio.Writer, header ...string) *Table {
	tty, width := io.terminal()
	return &Table{w: w, tty: tty, width: width, style: StyleOf(io), header: header}
}

// NewStream is a table whose rows are written as they end (`log
// --follow`): on a terminal its header is written at once and every
// column has the fixed width given with its title (0: the rest of the
// line), since the rows to come cannot be measured.
func NewStream(io *IO, w stdio.Writer, cols ...Column) (*Table, error) {
	t := NewTable(io, w)
	for i, c := range cols {
		t.header = append(t.header, c.Title)
		t.fixed = append(t.fixed, c.Width)
		if c.Flex {
			t.flex = append(t.flex, i)
		}
	}
	if !t.tty {
		return t, nil
	}
	t.fitFixed()
	_, err := stdio.WriteString(w, t.headerLine(t.fixed))
	return t, err
}

// Column is a streaming table's column: its title, its fixed width, and
// whether it gives way first on a narrow terminal (Table.Flex).
type Column struct {
	Title string
	Width int
	Flex  bool
}

// Columns sets the titles and the flex columns of a table from the
// columns a stream of the same rows would have (their widths are not
// used: a table measures its rows).
func (t *Table) Columns(cols ...Column) *Table {
	t.header, t.flex = nil, nil
	for i, c := range cols {
		t.header = append(t.header, c.Title)
		if c.Flex {
			t.flex = append(t.flex, i)
		}
	}
	return t
}

// Add appends a plain cell to the current row.
func (t *Table) Add(text string) *Table { return t.AddPainted(text, nil) }

// AddPainted appends a cell painted by paint (a Style method) on a
// terminal that takes colour; the text is cut first, so that colour codes
// are never counted or cut.
func (t *Table) AddPainted(text string, paint func(string) string) *Table {
	t.cur = append(t.cur, cell{text: flatten(text), paint: paint})
	return t
}

// Row adds one row of plain cells.
func (t *Table) Row(texts ...string) error {
	for _, s := range texts {
		t.Add(s)
	}
	return t.EndRow()
}

// EndRow ends the current row; a streaming table writes it.
func (t *Table) EndRow() error {
	row := t.cur
	t.cur = nil
	if t.fixed == nil {
		t.rows = append(t.rows, row)
		return nil
	}
	widths := t.fixed
	if !t.tty {
		widths = nil // piped: tab-separated, nothing cut
	}
	_, err := stdio.WriteString(t.w, t.line(row, widths))
	return err
}

// Render writes the rows (with the header, on a terminal).
func (t *Table) Render() error {
	var b strings.Builder
	if !t.tty {
		for _, r := range t.rows {
			b.WriteString(t.line(r, nil))
		}
		_, err := stdio.WriteString(t.w, b.String())
		return err
	}
	widths := t.fit()
	if len(t.rows) > 0 && len(t.header) > 0 {
		b.WriteString(t.headerLine(widths))
	}
	for _, r := range t.rows {
		b.WriteString(t.line(r, widths))
	}
	_, err := stdio.WriteString(t.w, b.String())
	return err
}

// headerLine is the titles, upper-case, bold where colour is on.
func (t *Table) headerLine(widths []int) string {
	row := make([]cell, len(t.header))
	for i, h := range t.header {
		row[i] = cell{text: strings.ToUpper(h), paint: t.style.Bold}
	}
	return t.line(row, widths)
}

// line is one row as written: tab-separated without widths, else each
// cell cut or padded to its column, the last one not padded.
func (t *Table) line(row []cell, widths []int) string {
	var b strings.Builder
	last := len(row) - 1
	for last > 0 && widths != nil && (row[last].text == "" || (last < len(widths) && widths[last] < 0)) {
		last-- // no trailing blanks on a terminal
	}
	first := true
	for i := 0; i <= last; i++ {
		c := row[i]
		if widths != nil && i < len(widths) && widths[i] < 0 {
			continue // a column no row fills
		}
		if widths == nil {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(c.text)
			continue
		}
		if !first {
			b.WriteString(colGap)
		}
		first = false
		text := c.text
		if i < len(widths) && widths[i] > 0 {
			text = Truncate(text, widths[i])
		}
		pad := 0
		if i < last && i < len(widths) {
			pad = widths[i] - Width(text)
		}
		if c.paint != nil {
			text = c.paint(text)
		}
		b.WriteString(text)
		b.WriteString(strings.Repeat(" ", max(pad, 0)))
	}
	b.WriteByte('\n')
	return b.String()
}

// dropEmpty marks, on a terminal, the columns no row fills (width -1,
// left out with their titles): a column of blanks only takes room from
// the others. Piped, every column stays, so that cut's fields keep their
// numbers.
func (t *Table) dropEmpty(widths []int) {
	for i := range widths {
		empty := true
		for _, r := range t.rows {
			if i < len(r) && r[i].text != "" {
				empty = false
				break
			}
		}
		if empty && len(t.rows) > 0 {
			widths[i] = -1
		}
	}
}

// fit is the width of each column: its widest cell, the widest columns
// cut in turn until the row fits the terminal.
func (t *Table) fit() []int {
	n := len(t.header)
	for _, r := range t.rows {
		n = max(n, len(r))
	}
	widths := make([]int, n)
	for i, h := range t.header {
		widths[i] = Width(h)
	}
	for _, r := range t.rows {
		for i, c := range r {
			widths[i] = max(widths[i], Width(c.text))
		}
	}
	t.dropEmpty(widths)
	shown := 0
	for _, w := range widths {
		if w >= 0 {
			shown++
		}
	}
	shrink(widths, t.width-len(colGap)*(shown-1), t.flex)
	return widths
}

// minOpen is the least a streaming table's open column gets: the
// others give way first, the flex ones before the rest.
const minOpen = 20

// fitFixed gives a streaming table's open column (width 0) the rest of
// the line, at least minOpen, the other columns cut to make room.
func (t *Table) fitFixed() {
	open := slices.Index(t.fixed, 0)
	room := t.width - len(colGap)*(len(t.fixed)-1)
	if open < 0 {
		shrink(t.fixed, room, t.flex)
		return
	}
	t.fixed[open] = -1 // out of the sums below
	shrink(t.fixed, room-minOpen, slices.DeleteFunc(slices.Clone(t.flex), func(i int) bool { return i == open }))
	used := 0
	for _, w := range t.fixed {
		used += max(w, 0)
	}
	t.fixed[open] = max(room-used, minCell)
}

// shrink takes one character at a time from the widest of the flex
// columns, then from the widest of any, until the columns fit in room,
// or every column is down to minCell.
func shrink(widths []int, room int, flex []int) {
	total := 0
	for _, w := range widths {
		total += max(w, 0) // a dropped column (-1) takes no room
	}
	for _, only := range [][]int{flex, nil} {
		for total > room {
			wide := widest(widths, only)
			if wide < 0 || widths[wide] <= minCell {
				break
			}
			widths[wide]--
			total--
		}
	}
}

// widest is the index of the widest column among only (nil: all), -1
// when only names none.
func widest(widths []int, only []int) int {
	wide := -1
	for i, w := range widths {
		if w < 0 || (only != nil && !slices.Contains(only, i)) {
			continue
		}
		if wide < 0 || w > widths[wide] {
			wide = i
		}
	}
	return wide
}

// Truncate cuts s to n columns of a terminal (Width), the last one an
// ellipsis when cut.
func Truncate(s string, n int) string {
	if Width(s) <= n {
		return s
	}
	if n <= 1 {
		return "…"[:3*max(n, 0)]
	}
	w := 0
	for i, r := range s {
		if w+runeWidth(r) > n-1 {
			return s[:i] + "…"
		}
		w += runeWidth(r)
	}
	return s
}

// flatten puts a cell on one line: a newline or tab inside a value would
// break the table's rows or a script's columns. Any other control
// character is escaped (sanitize.Printable): a title is data, never a
// command to the terminal.
func flatten(s string) string {
	if strings.ContainsAny(s, "\n\r\t") {
		s = strings.NewReplacer("\r\n", " ", "\n", " ", "\r", " ", "\t", " ").Replace(s)
	}
	return sanitize.Printable(s)
}

// Text is text an agent may have written (a title, a description, a
// plan's path) made safe for the terminal, outside a table: its lines and
// tabs kept, every other control character escaped (sanitize.Printable),
// so that an escape sequence in it never drives the user's terminal.
func Text(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		fields := strings.Split(l, "\t")
		for j, f := range fields {
			fields[j] = sanitize.Printable(f)
		}
		lines[i] = strings.Join(fields, "\t")
	}
	return strings.Join(lines, "\n")
}
