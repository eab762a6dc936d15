package guard

import (
	"github.com/atreides-dev/atreides/internal/secrets"
	"github.com/atreides-dev/atreides/internal/shell"
	"path"
	"strings"

	"github.com/bmatcuk/doublestar/v4"
	"mvdan.cc/sh/v3/syntax"
)

type funcDef struct {
	name string
	body *syntax.Stmt
	sc   *shell.Scope
}

func (a *analyzer) called(name string) {
	if a.calledSet == nil {
		a.calledSet = map[string]bool{}
	}
	a.calledSet[name] = true
}

func (p *Policy) checkShell(r Request) Result {
	return p.runShell(r).res
}

// runShell judges a shell command and returns the finished analysis.
func (p *Policy) runShell(r Request) *analyzer {
	a := newAnalyzer(p, &r, len(r.Command))
	cmd := r.Command
	if strings.TrimSpace(cmd) == "" {
		a.res = Result{Verdict: Allow}
		return a
	}
	sc := shell.NewScope(path.Clean(r.Cwd))
	if r.Cwd == "" {
		sc = shell.NewScope("")
	}
	a.walker().Script(cmd, sc, 0, shell.Feed{})
	a.res.Commands = a.cmds
	a.res.Effects = a.walkSt.eff
	if a.res.Verdict == Allow {
		a.res.Rule, a.res.Category, a.res.Reason = "", "", ""
		if a.customAllowed {
			a.res.Rule, a.res.Reason = a.customID, "allowed by custom rule"
		}
	}
	return a
}

// checkPath judges a file-tool request (read, write, edit, search).
func (p *Policy) checkPath(r Request) Result {
	a := newAnalyzer(p, &r, len(r.Path)+len(r.Pattern))
	sc := shell.NewScope(path.Clean(r.Cwd))
	if r.Cwd == "" {
		sc = shell.NewScope("")
	}
	raw := r.Path
	for _, v := range []string{"${HOME}", "$HOME"} {
		if r.Home != "" && strings.HasPrefix(raw, v) {
			raw = r.Home + raw[len(v):]
		}
	}
	raw = shell.ExpandHome(raw, r.Home)
	tool := strings.ToLower(r.Tool)
	abs, _ := a.files().canon(raw, sc)
	if cr, ok := a.customPath(tool, abs); ok {
		if cr.verdict > Allow {
			return Result{Verdict: cr.verdict, Rule: cr.ID, Category: "custom", Reason: orDefault(cr.Reason, "blocked by custom rule")}
		}
	}
	if m, ok := a.files().secretPath(raw, sc); ok {
		id := ruleSecretRead
		if oneOf(tool, "write|edit") {
			id = ruleSecretWrite
		}
		a.fire(id, nil, m)
		return a.res
	}
	if oneOf(tool, "search|grep|glob") {
		env := secretEnv{Cwd: r.Cwd, Home: r.Home, ProjectRoot: r.ProjectRoot, Resolve: r.Resolve}
		m, ok := secrets.CheckSearch(raw, r.Pattern, env)
		if !ok && p.sw("secret_cli_configs") > Allow {
			m, ok = cliSecrets.get().CheckSearch(raw, r.Pattern, env)
		}
		if ok {
			a.fire(ruleSecretRead, nil, m.Rule+": "+raw+" "+r.Pattern+" ("+m.Reason+")")
			return a.res
		}
	}
	if oneOf(tool, "write|edit") && abs != "" {
		if a.self().ownWrite(nil, abs); a.res.Category == "self" {
			return a.res // no custom allow overrides atreides's own files
		}
		if cr, ok := a.customPath(tool, abs); ok && cr.verdict == Allow {
			return Result{Verdict: Allow, Rule: cr.ID, Reason: "allowed by custom rule"}
		}
		a.files().writeTarget(nil, shell.Lit(abs), sc)
	}
	return a.res
}

func (a *analyzer) customPath(tool, abs string) (customRule, bool) {
	best := customRule{}
	found := false
	for _, cr := range a.p.custom {
		if cr.Path == "" || (cr.Tool != "" && cr.Tool != "*" && cr.Tool != tool) {
			continue
		}
		pat := cr.Path
		if !path.IsAbs(pat) && !strings.HasPrefix(pat, "~") {
			pat = path.Join(a.req.projectRoot(shell.NewScope(a.req.Cwd)), pat)
		}
		pat = shell.ExpandHome(pat, a.req.Home)
		if ok, _ := doublestar.Match(pat, abs); ok && (!found || cr.verdict > best.verdict) {
			best, found = cr, true
		}
	}
	return best, found
}

// customMatch reports whether a custom rule's command prefix matches c.
func customMatch(cr customRule, c *Cmd) bool {
	if len(cr.words) == 0 || (cr.Tool != "" && cr.Tool != "*" && cr.Tool != "shell") {
		return false
	}
	if shell.NormName(cr.words[0]) != c.Name || len(c.Args) < len(cr.words)-1 {
		return false
	}
	for i, w := range cr.words[1:] {
		if c.Args[i].Dyn || c.Args[i].Text != w {
			return false
		}
	}
	return true
}

// customRules applies custom ask/deny rules; they always take effect.
func (a *analyzer) customRules(c *Cmd) {
	for _, cr := range a.p.custom {
		if cr.verdict == Allow || !customMatch(cr, c) {
			continue
		}
		if cr.verdict > a.res.Verdict {
			a.res = Result{Verdict: cr.verdict, Rule: cr.ID, Category: "custom", Reason: orDefault(cr.Reason, "blocked by a custom rule")}
		}
	}
}

// customAllows: a custom allow overrides unprotected built-in findings on
// the exact simple command it matches.
func (a *analyzer) customAllows(c *Cmd) bool {
	for _, cr := range a.p.custom {
		if cr.verdict == Allow && customMatch(cr, c) {
			a.customAllowed, a.customID = true, cr.ID
			return true
		}
	}
	return false
}
