package guard

import (
	"strings"
	"testing"
)

func TestZZDumpAllowBlocked(t *testing.T) {
	for _, f := range []string{"cc-safety-net.tsv", "cc-safety-net-multiline.tsv", "dcg.tsv", "dcg-multiline.tsv", "parry-guard.tsv", "bypasses.tsv"} {
		for _, r := range loadCorpus(t, f) {
			if r.expected != "allow" || r.has("shell:powershell") {
				continue
			}
			if _, m := r.tag("mode:"); m {
				continue
			}
			cwd := testProject
			if strings.HasPrefix(f, "cc-") && !r.has("cwd:project") {
				cwd = ""
			}
			res := DefaultPolicy().Check(shellReq(r.cmd, cwd))
			if res.Verdict != Allow {
				c := r.cmd
				if len(c) > 150 {
					c = c[:150]
				}
				t.Logf("%s:%d %s (%s) %q [%s]", f, r.line, res.Verdict, res.Rule, c, strings.Join(r.tags, "|"))
			}
		}
	}
}
