package guard

import "testing"

// BenchmarkCheckCorpusHosts: BenchmarkCheckCorpus with the hosts'
// settings files handed to the guard, as every wiring site hands them:
// the pre-filter of texts that may name one (mentionHints) is then built
// from them.
func BenchmarkCheckCorpusHosts(b *testing.B) {
	var cmds []string
	for _, f := range []string{"cc-safety-net.tsv", "cc-safety-net-multiline.tsv", "dcg.tsv", "dcg-multiline.tsv", "parry-guard.tsv", "bypasses.tsv"} {
		for _, r := range loadCorpus(b, f) {
			cmds = append(cmds, r.cmd)
		}
	}
	p := DefaultPolicy()
	req := func(c string) Request {
		r := shellReq(c, testProject)
		r.HostSettings = testHostSettings
		return r
	}
	for _, c := range cmds {
		p.Check(req(c))
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		p.Check(req(cmds[i%len(cmds)]))
		i++
	}
}

// BenchmarkMentionHints: a request's pre-filter when the process has
// built it for the same hosts' files (lastHints); BenchmarkBuildHints:
// building it.
func BenchmarkMentionHints(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		r := selfReq("shell", "")
		r.mentionHints()
	}
}

func BenchmarkBuildHints(b *testing.B) {
	r := selfReq("shell", "")
	b.ReportAllocs()
	for b.Loop() {
		buildHints(&r)
	}
}
