package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"
)

// The regression guard (-guard FILE): every payload of every hook host
// side by side with the floor, interleaved, and per payload the median of
// the pair-by-pair CPU ratios to the floor, package init (lines and ms),
// system calls and peak RSS. FILE holds the recorded values; a ratio more
// than ratioSlack above its recorded value fails, and so does an init line
// count or a count of the program's own system calls above its recorded
// value (those two do not depend on the machine's speed: exact budgets).
// Times themselves are never compared, only ratios measured in the same
// run on the same machine.

// ratioSlack is how far above its recorded value a CPU ratio may rise.
const ratioSlack = 0.10

// syscallRuns is how many runs under strace count a payload's system
// calls. Even without the runtime's scheduling calls (schedCalls) a count
// varies by one now and then (a short read); the check takes the least of
// the runs and -update records the most, so one odd run neither fails the
// guard nor loosens its budget.
const syscallRuns = 3

// syscallSlack is how many calls above its recorded count a payload may
// make: the count also follows the session's state, which the warm-up
// runs grow (a record that outgrows its slot is written whole once, a few
// calls more), so the same build differs by a call or two between runs
// of different lengths. A real change (a file opened or statted once more
// per event) still shows.
const syscallSlack = 3

type guardOpts struct {
	file        string   // the recorded values
	update      bool     // write file from this run instead of checking
	payloads    string   // directory of <host>/*.json
	vs          string   // the reference: "floor" or a binary
	hosts       []string // default: every hook host
	runs, warm  int
	out         io.Writer
	retryFailed bool // measure failing ratios once more before failing
}

// row is one host/payload's measures.
type row struct {
	key        string // host/payload
	ratio      float64
	wallRatio  float64
	init       initStats
	sys        syscallStats // the run with the fewest own calls
	sysMost    int          // the most own calls of the runs
	memA, memB memory
	retried    bool
}

// budget is one recorded line of FILE.
type budget struct {
	ratio     float64
	initLines int
	syscalls  int
}

// errRegressed is guard's error when a measure is over its budget (the
// table says which).
var errRegressed = errors.New("over the recorded budget (see the table)")

func guard(bin string, o guardOpts) error {
	start := time.Now()
	tmp, err := os.MkdirTemp("", "hooktime-guard-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	vs := o.vs
	if vs == "floor" {
		argv, err := vsArgv("floor", "", tmp)
		if err != nil {
			return err
		}
		vs = argv[0]
	}
	if len(o.hosts) == 0 {
		o.hosts = hookHosts()
	}
	var rows []row
	for _, h := range o.hosts {
		rs, err := measureHost(bin, vs, h, o, nil, tmp)
		if err != nil {
			return fmt.Errorf("%s: %w", h, err)
		}
		rows = append(rows, rs...)
	}
	if o.update {
		if err := writeBudgets(o.file, rows); err != nil {
			return err
		}
		printTable(o.out, rows, nil)
		fmt.Fprintf(o.out, "recorded %d rows in %s (n=%d pairs, %s)\n", len(rows), o.file, o.runs, time.Since(start).Round(time.Second))
		return nil
	}
	budgets, err := readBudgets(o.file)
	if err != nil {
		return err
	}
	if o.retryFailed {
		if err := retry(bin, vs, rows, budgets, o, tmp); err != nil {
			return err
		}
	}
	failed := printTable(o.out, rows, budgets)
	for key := range budgets {
		if !slices.ContainsFunc(rows, func(r row) bool { return r.key == key }) {
			fmt.Fprintf(o.out, "%s is recorded in %s but has no payload: run bench/guard -update\n", key, o.file)
			failed = true
		}
	}
	fmt.Fprintf(o.out, "n=%d pairs, %s\n", o.runs, time.Since(start).Round(time.Second))
	if failed {
		return errRegressed
	}
	return nil
}

// retry measures once more, with twice the pairs, the ratios that are
// over their limit, and keeps the second figure. A side-by-side median
// holds against a machine whose speed drifts, but with a few dozen pairs
// a burst of load on the shared machine that lands on one side more than
// the other can still move one row; a real regression shows again, a
// burst seldom twice in the same place. Only the failing rows are
// measured again, which keeps the stage short, and only their ratio:
// init lines and system calls do not depend on load.
func retry(bin, vs string, rows []row, budgets map[string]budget, o guardOpts, tmp string) error {
	again := map[string][]string{} // host: payload names
	for _, r := range rows {
		if b, ok := budgets[r.key]; ok && r.ratio > limit(b.ratio) {
			h, p, _ := strings.Cut(r.key, "/")
			again[h] = append(again[h], p)
		}
	}
	for _, h := range o.hosts {
		if len(again[h]) == 0 {
			continue
		}
		o2 := o
		o2.runs *= 2
		rs, err := measureHost(bin, vs, h, o2, again[h], tmp)
		if err != nil {
			return fmt.Errorf("%s: %w", h, err)
		}
		for _, r := range rs {
			i := slices.IndexFunc(rows, func(x row) bool { return x.key == r.key })
			rows[i].ratio, rows[i].wallRatio, rows[i].retried = r.ratio, r.wallRatio, true
		}
	}
	return nil
}

func limit(recorded float64) float64 { return recorded * (1 + ratioSlack) }

// measureHost measures the payloads of one host (only the named ones
// when only is set; then only the ratios).
func measureHost(bin, vs, h string, o guardOpts, only []string, tmp string) ([]row, error) {
	env, ok := hostEnv(h)
	if !ok {
		return nil, fmt.Errorf("not a hook host")
	}
	paths, err := filepath.Glob(filepath.Join(o.payloads, h, "*.json"))
	if err != nil || len(paths) == 0 {
		return nil, fmt.Errorf("no payloads in %s: %v", filepath.Join(o.payloads, h), err)
	}
	if only != nil {
		paths = slices.DeleteFunc(paths, func(p string) bool { return !slices.Contains(only, name(p)) })
	}
	raw, err := readPayloads(paths)
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp(tmp, h+"-")
	if err != nil {
		return nil, err
	}
	cmds, err := sides(bin, vs, "", h, dir, raw)
	if err != nil {
		return nil, err
	}
	samples, err := measure(cmds, paths, o.runs, o.warm, env)
	if err != nil {
		return nil, err
	}
	rows := make([]row, len(paths))
	for i, p := range paths {
		rows[i] = row{key: h + "/" + name(p),
			ratio:     ratio(field(samples[0][i], cpuOf), field(samples[1][i], cpuOf)),
			wallRatio: ratio(field(samples[0][i], wallOf), field(samples[1][i], wallOf))}
	}
	if only != nil {
		return rows, nil
	}
	return rows, probeAll(cmds, rows, env, dir)
}

// probeAll fills in the untimed measures of each row.
func probeAll(cmds []*command, rows []row, env map[string]string, tmp string) error {
	rss, err := rssAll(cmds, make([]string, len(rows)), env)
	if err != nil {
		return err
	}
	for i := range rows {
		r := &rows[i]
		r.memA, r.memB = rss[0][i], rss[1][i]
		if r.init, err = probeInit(cmds[0], i, env); err != nil {
			return fmt.Errorf("%s: %w", r.key, err)
		}
		for k := range syscallRuns {
			s, err := probeSyscalls(cmds[0], i, env, tmp)
			if err != nil {
				return fmt.Errorf("%s: %w", r.key, err)
			}
			if k == 0 || s.own < r.sys.own {
				r.sys = s
			}
			r.sysMost = max(r.sysMost, s.own)
		}
	}
	return nil
}

func cpuOf(s sample) time.Duration  { return s.cpu }
func wallOf(s sample) time.Duration { return s.wall }

// printTable prints every row and, with budgets, its verdict; it returns
// whether any row failed.
func printTable(w io.Writer, rows []row, budgets map[string]budget) (failed bool) {
	fmt.Fprintf(w, "%-30s %7s %7s %7s %7s %5s %7s %8s %5s %7s %6s %6s %6s  %s\n",
		"host/payload", "cpu A/F", "record", "limit", "wall A/F", "inits", "init ms", "syscalls", "(all)", "threads", "A MB", "(anon)", "F MB", "verdict")
	for _, r := range rows {
		b, ok := budgets[r.key]
		rec, lim, verdict := "-", "-", "recorded"
		if budgets != nil {
			verdict = "ok"
			var why []string
			switch {
			case !ok:
				why = append(why, "not recorded: run bench/guard -update")
			default:
				rec, lim = fmt.Sprintf("%.3f", b.ratio), fmt.Sprintf("%.3f", limit(b.ratio))
				if r.ratio > limit(b.ratio) {
					why = append(why, fmt.Sprintf("CPU ratio +%.0f%% over the recorded %.3f", 100*(r.ratio/b.ratio-1), b.ratio))
				}
				if r.init.lines > b.initLines {
					why = append(why, fmt.Sprintf("init lines %d > %d", r.init.lines, b.initLines))
				}
				if r.sys.own > b.syscalls+syscallSlack {
					why = append(why, fmt.Sprintf("system calls %d > %d+%d", r.sys.own, b.syscalls, syscallSlack))
				}
			}
			if len(why) > 0 {
				verdict, failed = "FAIL: "+strings.Join(why, "; "), true
			}
			if r.retried {
				verdict += " (ratio retried)"
			}
		}
		fmt.Fprintf(w, "%-30s %7.3f %7s %7s %8.3f %5d %7.3f %8d %5d %7d %6s %6s %6s  %s\n",
			r.key, r.ratio, rec, lim, r.wallRatio, r.init.lines, r.init.ms, r.sys.own, r.sys.all, r.sys.threads, mb(r.memA.peak), mb(r.memA.anon), mb(r.memB.peak), verdict)
	}
	return failed
}

const budgetHeader = `# Recorded by bench/guard -update: per hook host and payload, the median
# of the pair-by-pair CPU ratios of 'atreides hook HOST' to bench/floor,
# the package init lines (GODEBUG=inittrace=1) and the program's own
# system calls (strace -f -c, without the runtime's scheduling calls).
# bench/guard fails when a ratio is more than 10% above its value here,
# or a count above its value. Re-record after a change that makes the
# hook faster (or, saying why in the commit, slower).
# host/payload                 cpu-ratio  inits  syscalls
`

// writeBudgets records rows in file, sorted, with nothing that varies
// from run to run but the figures.
func writeBudgets(file string, rows []row) error {
	rows = slices.Clone(rows)
	slices.SortFunc(rows, func(a, b row) int { return strings.Compare(a.key, b.key) })
	var b strings.Builder
	b.WriteString(budgetHeader)
	for _, r := range rows {
		fmt.Fprintf(&b, "%-30s %10.3f %6d %9d\n", r.key, r.ratio, r.init.lines, r.sysMost)
	}
	return os.WriteFile(file, []byte(b.String()), 0o644)
}

func readBudgets(file string) (map[string]budget, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("%w (record it with bench/guard -update)", err)
	}
	defer f.Close()
	out := map[string]budget{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || line[0] == '#' {
			continue
		}
		fs := strings.Fields(line)
		if len(fs) != 4 {
			return nil, fmt.Errorf("%s:%d: want 4 fields, have %q", file, n, line)
		}
		r, err1 := strconv.ParseFloat(fs[1], 64)
		in, err2 := strconv.Atoi(fs[2])
		sys, err3 := strconv.Atoi(fs[3])
		if err := errors.Join(err1, err2, err3); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", file, n, err)
		}
		out[fs[0]] = budget{ratio: r, initLines: in, syscalls: sys}
	}
	return out, sc.Err()
}
