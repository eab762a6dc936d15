package comments

import (
	conf "github.com/atreides-dev/atreides/internal/config"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// FuzzCheck: for any text in any syntax, with any lines marked added, the
// check does not panic, every line it reports is an added input line with
// its text, noise never outnumbers the added lines, and a line reported
// as a memo holds its phrase.
func FuzzCheck(f *testing.F) {
	f.Add("a.go", "x := \"// no\" // yes\n/* a\nb */\n// now uses c", uint64(0xff))
	f.Add("a.py", "\"\"\"doc\n# x\n\"\"\"\n# changed from y\nz = 1", uint64(0b1011))
	f.Add("a.sh", "cat <<EOF\n# x\nEOF\necho ${#a} # as requested", uint64(0xf))
	f.Add("a.sql", "SELECT '--x'; -- y\n/* z", uint64(1))
	f.Add("a.lua", "--[[ x\n]] -- y", uint64(3))
	f.Add("a.html", "<!-- a --> <!--", uint64(1))
	f.Fuzz(func(t *testing.T, path, text string, mask uint64) {
		lines := strings.Split(text, "\n")
		marks := make([]bool, len(lines))
		for i := range marks {
			marks[i] = mask&(1<<(i%64)) != 0
		}
		fl := event.FileLines{Path: path, Lines: lines, New: marks, Whole: mask&1 == 0}
		r := Check(fl)
		added := 0
		for i := range lines {
			if fl.IsNew(i) {
				added++
			}
		}
		if len(r.Noise) > r.Lines || r.Lines > added {
			t.Fatalf("%d noise lines, %d counted, %d added", len(r.Noise), r.Lines, added)
		}
		for _, l := range append(r.Noise, r.Memos...) {
			if l.Index < 0 || l.Index >= len(lines) || !fl.IsNew(l.Index) || lines[l.Index] != l.Text {
				t.Fatalf("reported line %+v is not an added input line", l)
			}
		}
		for _, l := range r.Memos {
			if !strings.Contains(strings.ToLower(l.Text), l.Phrase) {
				t.Fatalf("memo %+v does not hold its phrase", l)
			}
		}
		_ = FromConfig(conf.Builtin()).Note([]Report{r})
	})
}
