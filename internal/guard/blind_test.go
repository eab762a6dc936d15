package guard

import (
	"bufio"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
)

// blindSets are the blind sets (testdata/blind/README.md) with their
// floors under the default policy: the % of rows whose block-or-allow
// agrees, and the harmless rows blocked at the most. Floors stand at the
// last measurement and only rise.
var blindSets = []struct {
	file         string
	min          float64
	allowBlocked int
}{
	{"set-a.tsv", 95.9, 5},
	{"set-b.tsv", 94.6, 8},
	{"set-c.tsv", 96.5, 4},
	{"set-d.tsv", 88.9, 9},
}

// blindReq is a shell request in the blind sets' context.
func blindReq(cmd string) Request {
	const home = "/home/dev"
	return Request{Tool: "shell", Command: cmd, Cwd: home + "/src/app", Home: home, ProjectRoot: home + "/src/app", TempDirs: testTemps}
}

// blindRow is a row of a blind set.
type blindRow struct {
	cmd, expected, category string
	line                    int
}

func loadBlind(t *testing.T, name string) []blindRow {
	t.Helper()
	f, err := os.Open("testdata/blind/" + name)
	if err != nil {
		t.Fatalf("blind set: %v", err)
	}
	defer f.Close()
	var rows []blindRow
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if n == 1 {
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 4 || c[1] != "allow" && c[1] != "ask" && c[1] != "deny" {
			t.Fatalf("%s:%d: want command, allow|ask|deny, category, note", name, n)
		}
		rows = append(rows, blindRow{cmd: c[0], expected: c[1], category: c[2], line: n})
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("blind set %s: %v", name, err)
	}
	return rows
}

func TestBlindSets(t *testing.T) {
	for _, b := range blindSets {
		t.Run(b.file, func(t *testing.T) { blindSet(t, b.file, b.min, b.allowBlocked) })
	}
}

// blindSet replays one set and holds it to its floors.
func blindSet(t *testing.T, file string, min float64, maxAllowBlocked int) {
	rows := loadBlind(t, file)
	p := DefaultPolicy()
	var agree, exact, allows, allowBlocked int
	perCat := map[string][2]int{}
	var misses []string
	for _, r := range rows {
		res := p.check(blindReq(r.cmd))
		blocked := res.Verdict != Allow
		ok := blocked == (r.expected != "allow")
		if ok {
			agree++
		}
		if res.Verdict.String() == r.expected {
			exact++
		}
		if r.expected == "allow" {
			allows++
			if blocked {
				allowBlocked++
			}
		}
		c := perCat[r.category]
		c[1]++
		if ok {
			c[0]++
		} else {
			misses = append(misses, fmt.Sprintf("line %d want %s got %s (%s): %s", r.line, r.expected, res.Verdict, res.Rule, r.cmd))
		}
		perCat[r.category] = c
	}
	pct := 100 * float64(agree) / float64(len(rows))
	t.Logf("%s: agree %d/%d = %.1f%% (floor %.1f%%), exact %d, harmless blocked %d/%d (at most %d)", file, agree, len(rows), pct, min, exact, allowBlocked, allows, maxAllowBlocked)
	cats := make([]string, 0, len(perCat))
	for c := range perCat {
		cats = append(cats, c)
	}
	sort.Strings(cats)
	for _, c := range cats {
		t.Logf("  %-18s %d/%d", c, perCat[c][0], perCat[c][1])
	}
	if testing.Verbose() {
		for _, m := range misses {
			t.Log(m)
		}
	}
	if pct < min {
		t.Errorf("%s agreement %.1f%% below its floor %.1f%%", file, pct, min)
	}
	if allowBlocked > maxAllowBlocked {
		t.Errorf("%s blocks %d harmless rows, more than %d", file, allowBlocked, maxAllowBlocked)
	}
}
