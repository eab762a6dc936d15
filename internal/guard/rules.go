package guard

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/atreides-dev/atreides/internal/shell"
)

// Rule is one built-in check expressed as data over an unwrapped simple
// command. The matcher tests the fields in order: Names, Sub, flags,
// Pattern, then When. A rule fires when every non-empty field matches.
type Rule struct {
	ID       ruleID
	Category string
	// Group is "" for rules that are on by default, or the opt-in group name.
	Group   string
	Verdict Verdict
	// Switch, when set, takes the verdict from that policy switch; a switch
	// set to "allow" turns the rule off.
	Switch string
	Reason string

	// Names are normalized command names; a trailing '*' is a prefix match
	// (e.g. "mkfs*"). Empty means the rule only fires from the analysis
	// (redirections, pipelines) and is looked up by ID.
	Names []string
	// Sub are the leading positional words, each "a|b" for alternatives.
	Sub []string
	// AnyFlag: at least one present. AllFlag: all present. NoFlag: none.
	// Long flags may be abbreviated when the command accepts that (git).
	AnyFlag []string
	AllFlag []string
	NoFlag  []string
	// Pattern is matched against the arguments joined by spaces.
	Pattern *lazyRegexp
	// When is an escape hatch for conditions that are not flag-shaped.
	When func(c *Cmd) bool
}

// The rules_*.go files register their rules as batches, each run only
// when a command needs it (rulebatch.go); batch numbers are positions in
// registrations (ruleindex_gen.go): keep the order. A function returning
// an array, which allocates nothing, rather than init functions appending
// closures to a table, which allocated in every process's package init;
// not a package-level table, which the registrations would refer back to
// through the batches (an initialization cycle; rulebatch.go's builtin
// breaks the one through the rules each registration files).
func registrations() [ruleBatchCount]func() {
	return [...]func(){
		registerInterpAPI,
		registerProduce,
		registerCloud,
		registerContainers,
		registerCore1,
		registerCore2,
		registerCore3,
		registerCore4,
		registerDatabases,
		registerDisruption,
		registerEffects,
		registerGit,
		registerHostaccess,
		registerKubernetes,
		registerMCP,
		registerMessaging,
		registerMonitoring,
		registerNetwork,
		registerPackages,
		registerPersistence,
		registerPlatform,
		registerProtectedBranches,
		registerPublish,
		registerRemote,
		registerSaaS,
		registerSecrets1,
		registerSecrets2,
		registerStorage,
		registerTampering,
		registerSelfguard,
	}
}

// ruleBatchCount is the number of rule registrations.
const ruleBatchCount = 30

// register adds rules to the batch being loaded.
func register(rs ...*Rule) { loading.rules = append(loading.rules, rs...) }

// setValueOpts declares, in the batch being loaded, options of a command
// that take a separate value, so that their value is not mistaken for a
// subcommand or target.
func setValueOpts(name string, opts ...string) {
	loading.valueOpts[name] = append(loading.valueOpts[name], opts...)
}

// abbrevLong marks commands whose long options may be abbreviated to any
// unambiguous prefix (git's parse-options does this).
var abbrevLong = []string{"git"}

// Cmd is what a rule sees: one simple command after unwrapping (the
// shell model's record), with what the rules work out of it.
type Cmd struct {
	shell.Command

	flags map[string]string
	pos   []shell.Word
	a     *analyzer
	// env is the command's own assignments (X=1 cmd, env X=1 cmd).
	env map[string]shell.Word
	// previewOnly is set when the command only previews (a dry run).
	previewOnly bool
	// stdin is what is piped into the command, when the walk knows it
	// (echo FLUSHALL | redis-cli): the statements a client reads.
	stdin shell.Feed
}

func (c *Cmd) parse() {
	if c.flags != nil {
		return
	}
	c.flags = map[string]string{}
	vo := valueOptsOf(c.Name)
	for i := 0; i < len(c.Args); i++ {
		w := c.Args[i]
		s := asciiDashes(w.Text)
		switch {
		case s == "--":
			c.pos = append(c.pos, c.Args[i+1:]...)
			return
		case strings.HasPrefix(s, "--") && !w.Dyn:
			name, val, has := strings.Cut(s, "=")
			if !has && vo.has(name) && i+1 < len(c.Args) {
				val = c.Args[i+1].Text
				i++
			}
			if strings.HasPrefix(name, "--no-") {
				// --no-X cancels an earlier --X (git, GNU tools).
				delete(c.flags, "--"+name[5:])
			}
			c.flags[name] = val
		case len(s) > 1 && s[0] == '-' && !w.Dyn && !isNumber(s[1:]):
			for j := 1; j < len(s); j++ {
				f := "-" + s[j:j+1]
				if vo.has(f) {
					if j+1 < len(s) {
						c.flags[f] = s[j+1:]
					} else if i+1 < len(c.Args) {
						c.flags[f] = c.Args[i+1].Text
						i++
					} else {
						c.flags[f] = ""
					}
					break
				}
				c.flags[f] = ""
			}
		default:
			c.pos = append(c.pos, w)
		}
	}
}

// asciiDashes writes an option's leading Unicode dashes (‐ ‑ ‒ – — ―
// −) as '-': the program will not read `‐‐hard` as --hard, but the agent
// meant it, and its next try will use the ASCII form.
func asciiDashes(s string) string {
	if s == "" || s[0] < 0x80 {
		return s
	}
	dashes := 0
	rest := s
	for {
		r, n := utf8.DecodeRuneInString(rest)
		if !(r >= 0x2010 && r <= 0x2015 || r == 0x2212) {
			break
		}
		dashes++
		rest = rest[n:]
	}
	if dashes == 0 {
		return s
	}
	return strings.Repeat("-", dashes) + rest
}

// Has reports whether any of the flags is present.
func (c *Cmd) Has(flags ...string) bool {
	c.parse()
	for _, f := range flags {
		if _, ok := c.flags[f]; ok {
			return true
		}
		if slices.Contains(abbrevLong, c.Name) && strings.HasPrefix(f, "--") {
			for k := range c.flags {
				if len(k) >= 4 && strings.HasPrefix(f, k) {
					return true
				}
			}
		}
	}
	return false
}

// Flag returns the value of the first flag present.
func (c *Cmd) Flag(flags ...string) (string, bool) {
	c.parse()
	for _, f := range flags {
		if v, ok := c.flags[f]; ok {
			return v, true
		}
	}
	return "", false
}

// Pos returns the positional arguments (not options, not option values).
func (c *Cmd) Pos() []shell.Word {
	c.parse()
	return c.pos
}

// Argv is the command line as the user would read it.
func (c *Cmd) Argv() string {
	var b strings.Builder
	if strings.ContainsAny(c.Name, " \t\n") {
		// A program word holding a whole command line ("$W"): bash
		// looks for a program of that name, so show it as one word.
		b.WriteString(strconv.Quote(c.Name))
	} else {
		b.WriteString(c.Name)
	}
	for _, w := range c.Args {
		b.WriteByte(' ')
		b.WriteString(w.Display())
	}
	return b.String()
}

func (c *Cmd) joined() string {
	parts := make([]string, len(c.Args))
	for i, w := range c.Args {
		parts[i] = w.Text
	}
	return strings.Join(parts, " ")
}

// match tests the declarative fields of r against c.
func (r *Rule) match(c *Cmd) bool {
	if len(r.Sub) > 0 {
		pos := c.Pos()
		if len(pos) < len(r.Sub) {
			return false
		}
		for i, alt := range r.Sub {
			if pos[i].Dyn || !oneOf(strings.ToLower(pos[i].Text), alt) {
				return false
			}
		}
	}
	if len(r.AnyFlag) > 0 && !c.Has(r.AnyFlag...) {
		return false
	}
	for _, f := range r.AllFlag {
		if !c.Has(f) {
			return false
		}
	}
	if len(r.NoFlag) > 0 && c.Has(r.NoFlag...) {
		return false
	}
	if r.Pattern != nil && !r.Pattern.get().MatchString(c.joined()) {
		return false
	}
	if r.When != nil && !r.When(c) {
		return false
	}
	return true
}

// oneOf reports whether s is one of alts, alternatives separated by "|"
// ("-c|--command"): a chain of equalities over one value, in one line.
//
// It searches alts for s and checks the match is a whole alternative,
// rather than cutting alts at every "|": the program-name tables run it
// for every registration a command name is looked up in, and most names
// are in none, so one substring search usually answers.
func oneOf(s, alts string) bool {
	switch {
	case s == "":
		return emptyAlt(alts)
	case strings.IndexByte(s, '|') >= 0: // no alternative holds a "|"
		return false
	}
	for off := 0; off < len(alts); {
		i := strings.Index(alts[off:], s)
		if i < 0 {
			return false
		}
		i += off
		end := i + len(s)
		if (i == 0 || alts[i-1] == '|') && (end == len(alts) || alts[end] == '|') {
			return true
		}
		off = i + 1
	}
	return false
}

// emptyAlt reports whether alts has an empty alternative: a leading "|"
// or "||" ("" is no alternative, "a|" ends after its last one).
func emptyAlt(alts string) bool {
	return strings.HasPrefix(alts, "|") || strings.Contains(alts, "||")
}

func isNumber(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

// posAfterSub returns the positionals after the first n (the subcommand).
func (c *Cmd) posAfterSub(n int) []shell.Word {
	p := c.Pos()
	if len(p) <= n {
		return nil
	}
	return p[n:]
}
