package guard

import (
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkCheckCorpus: one op = one Check over one corpus row (all rows in
// turn). The median per-command latency is reported as median-ns.
func BenchmarkCheckCorpus(b *testing.B) {
	var cmds []string
	for _, f := range []string{"cc-safety-net.tsv", "cc-safety-net-multiline.tsv", "dcg.tsv", "dcg-multiline.tsv", "parry-guard.tsv", "bypasses.tsv"} {
		for _, r := range loadCorpus(b, f) {
			cmds = append(cmds, r.cmd)
		}
	}
	p := DefaultPolicy()
	per := make([]time.Duration, 0, len(cmds))
	for _, c := range cmds {
		s := time.Now()
		p.Check(shellReq(c, testProject))
		per = append(per, time.Since(s))
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
