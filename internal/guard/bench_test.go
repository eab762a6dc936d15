package guard

import (
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkCheckCorpus: one op = one Check over one corpus row (all rows in
// turn). median-ns is the median over every row of its fastest of three
// warm runs.
func BenchmarkCheckCorpus(b *testing.B) {
	var cmds []string
	for _, f := range []string{"cc-safety-net.tsv", "cc-safety-net-multiline.tsv", "dcg.tsv", "dcg-multiline.tsv", "parry-guard.tsv", "bypasses.tsv"} {
		for _, r := range loadCorpus(b, f) {
			cmds = append(cmds, r.cmd)
		}
	}
	p := DefaultPolicy()
	for _, c := range cmds {
		// One untimed pass: rule tables and regexps are built on first
		// use, once per process (the whole-process timings count that).
		p.Check(shellReq(c, testProject))
	}
	per := make([]time.Duration, 0, len(cmds))
	for _, c := range cmds {
		// The fastest of three runs: the machine's noise only adds.
		best := time.Duration(1 << 62)
		for range 3 {
			s := time.Now()
			p.Check(shellReq(c, testProject))
			best = min(best, time.Since(s))
		}
		per = append(per, best)
	}
	sort.Slice(per, func(i, j int) bool { return per[i] < per[j] })
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p.Check(shellReq(cmds[i%len(cmds)], testProject))
		i++
	}
	b.ReportMetric(float64(per[len(per)/2].Nanoseconds()), "median-ns")
	b.ReportMetric(float64(per[len(per)*99/100].Nanoseconds()), "p99-ns")
}

// BenchmarkCheckLarge: the >2,000-character stress rows.
func BenchmarkCheckLarge(b *testing.B) {
	var cmds []string
	for _, r := range loadCorpus(b, "cc-safety-net-large.tsv") {
		cmds = append(cmds, r.cmd)
	}
	cmds = append(cmds, strings.Repeat("echo ok && ", 5000)+"true")
	p := DefaultPolicy()
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p.Check(shellReq(cmds[i%len(cmds)], testProject))
		i++
	}
}

// BenchmarkNewPolicy: compiling a project's options over the shared rule
// tables (built once per process, outside the loop).
func BenchmarkNewPolicy(b *testing.B) {
	o := Options{Disabled: []string{"git.reset-hard"}, Groups: []string{"databases", "cloud"},
		Verdicts: map[string]string{"git.push-force": "deny"}, Switches: map[string]string{"sudo": "ask"},
		Custom: []CustomRule{{ID: "c0", Verdict: "deny", Command: "terraform apply"}, {ID: "c1", Verdict: "ask", Tool: "write", Path: "migrations/**"}}}
	if _, err := NewPolicy(o); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		NewPolicy(o)
	}
}
