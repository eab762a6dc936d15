package guard

import (
	"fmt"
	"iter"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/shell"

	"github.com/bmatcuk/doublestar/v4"
)

// Request is one hook call: a shell command or a file-tool path.
type Request struct {
	Tool        string // "shell", "read", "write", "edit", "search"
	Command     string // for Tool == "shell"
	Path        string // for file tools; for "search", the directory searched
	Pattern     string // for "search": the glob searched for, if any
	Cwd         string
	Home        string
	ProjectRoot string
	TempDirs    []string
	Resolve     func(path string) (string, error)

	// Self is the installed atreides binary, absolute with symlinks
	// resolved; atreides-mcp is expected beside it. ConfigDir is the
	// user's atreides configuration directory ($XDG_CONFIG_HOME/atreides,
	// else ~/.config/atreides). HostSettings are the files that register
	// atreides with the agent hosts (the host registry's HookFiles); an
	// entry ending in "/" is a directory and everything under it. Writes
	// to these, and to the project's .atreides directory, are atreides
	// switching itself off (selfguard.go).
	Self         string
	ConfigDir    string
	HostSettings []string
	// Plugins are the directories of atreides's installed plugins and
	// extensions (the agent hosts' copies, and the package the running
	// binary came from): they hold its programs, hooks and manifests, so
	// writing under one is replacing or disabling atreides
	// (self.binary-write).
	Plugins []string
	// SelfOf, when set and Self is empty, gives Self the first time the
	// guard needs it (Binary): finding the running binary costs system
	// calls, and a command of programs the guard knows never needs it.
	SelfOf func() string
	// Agents are the agent hosts' programs: starting one with atreides
	// left out is atreides switching itself off (agents.go).
	Agents AgentCLIs
	// HostVars are the variables by which the hosts mark their agents'
	// commands (a name ending in "*": every variable beginning with the
	// rest): a command that sets, unsets or clears one would pass for the
	// user's or another session's (selfguard.go, hostVar).
	HostVars []string
	// PathDirs are the directories of the PATH the agent's shell
	// searches: a file named like an atreides program in one of them
	// shadows or replaces atreides (self.binary-write).
	PathDirs []string
	// Readlink reads a symbolic link (os.Readlink); with it a link whose
	// target does not exist yet is followed, so a dangling link to a
	// protected file is that file. Nil: such links are not followed.
	Readlink func(path string) (string, error)
	// SameBinary reports whether the file at an absolute path has the
	// content of an installed atreides program (a renamed copy). It is
	// asked only for a program run by a path in the project or a temp
	// directory; nil: copies are known only by name and by links.
	SameBinary func(path string) bool
	// ReadScript reads the text of a script file a command runs (`bash
	// x.sh`, `source x.sh`, `./x.sh`), given its absolute path with links
	// resolved: a regular file of at most MaxScriptBytes, else an error
	// (shellcall.ReadScript). Nil: script files are not read.
	ReadScript func(path string) (string, error)

	// Deadline, if set, is when the analysis gives up: the command is
	// then judged parse.too-complex, so a slow input costs at most this.
	Deadline time.Time

	// Hosts, when set, fills HostSettings and Plugins the first time the
	// guard reads them (hostFiles): most commands write no file, and
	// listing every host's files up front was a tenth of the guard's
	// work in a hook.
	Hosts     func(r *Request)
	hostsRead bool
	selfRead  bool

	own   *ownPaths // built from the fields above on the first write judged
	hints []string  // mentionHints, built on the first text searched
}

// Binary is Self, asked of SelfOf on first use.
func (req *Request) Binary() string {
	if req.Self == "" && req.SelfOf != nil && !req.selfRead {
		req.selfRead = true
		req.Self = req.SelfOf()
	}
	return req.Self
}

// hostFiles are HostSettings and Plugins, filled by Hosts on first use.
func (req *Request) hostFiles() (settings, plugins []string) {
	if req.Hosts != nil && !req.hostsRead {
		req.hostsRead = true
		req.Hosts(req)
	}
	return req.HostSettings, req.Plugins
}

// Result is the decision with enough context for the agent to adapt.
type Result struct {
	Verdict  Verdict
	Rule     string
	Category string
	Reason   string
	// Effect names what the command does that the rule judged ("changes
	// remote or shared state") and Evidence the words that show it
	// ("--namespace production"); both are empty for an allow.
	Effect   string
	Evidence string
	Commands []string
	// Effects is what a shell command writes and whether it verifies.
	Effects shell.Effects
}

// Options configures a Policy; see docs/guard-policy.md.
type Options struct {
	Disabled []string
	Verdicts map[string]string
	Groups   []string
	Switches map[string]string
	Custom   []CustomRule
	// Production names the environments whose changes ask (effect_where.go).
	Production Production
}

// CustomRule is a user rule from config.
type CustomRule struct {
	ID      string
	Verdict string
	Tool    string // "shell", "read", "write", "edit", "search", "*"
	Command string // word-wise argv prefix, e.g. "terraform apply"
	Path    string // doublestar glob on the canonical path
	Reason  string
}

type customRule struct {
	CustomRule
	verdict Verdict
	words   []string
}

// switchDef describes one policy switch. Values are verdict names; "allow"
// turns the behaviour off.
type switchDef struct {
	name, def, doc string
}

var switchDefs = []switchDef{
	{"rm_recursive_in_project", "allow", "recursive forced delete of a path inside the project (not the project root itself)"},
	{"rm_outside_project", "allow", "non-recursive rm of a file outside the project and temp dirs"},
	{"heredoc_to_non_shell", "allow", "dangerous-looking heredoc/here-string text fed to a command that does not execute it (cat, wc, tee)"},
	{"interpreter_api_calls", "deny", "interpreter one-liners calling delete APIs (shutil.rmtree, fs.rmSync, FileUtils.rm_rf, os.remove) on critical paths, or writing home dotfiles and .git (open(p, 'w'), fs.writeFileSync, File.write)"},
	{"interpreter_one_liners", "allow", "every inline interpreter program (python -c, node -e, ...)"},
	{"git_medium", "ask", "recoverable git discards: branch -D, stash drop, tag -d, rebase/merge --abort, git rm -f"},
	{"git_rebase", "allow", "git rebase (history rewrite of the current branch)"},
	{"dynamic_targets", "allow", "recursive delete whose target is computed at run time (rm -rf $DIR with $DIR unknown)"},
	{"strict_dynamic", "ask", "commands whose program or code cannot be known statically ($cmd, eval of computed text, unknown script on stdin)"},
	{"sudo", "allow", "running any command through sudo/doas (the inner command is always judged too)"},
	{"package_uninstall", "ask", "removing system or global packages (apt remove, brew uninstall, pip uninstall, npm -g uninstall)"},
	{"process_control", "ask", "kill -9 (SIGKILL/SIGSTOP or a process group), killall, pkill, systemctl/service stop|disable|mask|kill|isolate, launchctl unload"},
	{"find_delete_in_project", "ask", "find ... -delete inside the project or temp"},
	{"find_exec_rm", "ask", "find ... -exec rm/unlink of the matches without both -r and -f (root, homes and system dirs are always denied)"},
	{"strict_unverifiable", "allow", "anything the guard cannot fully verify although it is routinely harmless: heredoc bodies, shell-init idioms, options or subcommands computed by substitution, interpreter code/module/script paths held in variables, secret paths used for metadata or named in inline code"},
	{"interpreter_delete_any", "allow", "interpreter one-liners and heredoc programs calling delete APIs (shutil.rmtree, fs.rmSync, ...) on any literal path, not only critical ones"},
	{"secret_cli_configs", "allow", "coding-CLI credential and settings files (~/.codex/auth.json, ~/.claude/settings.json, .mcp.json ...: the secret.cli.* rules) count as secret files for reads, writes and shell commands"},
	{"sync_delete", "ask", "rsync --delete/--remove-source-files and rclone sync/purge/delete whose deleting side is outside the project and temp dirs"},
}

// Groups lists the opt-in rule groups.
func Groups() []string { return slices.Clone(ruleGroups) }

// RuleIDs lists every built-in rule id.
func RuleIDs() []string {
	var out []string
	for r := range uniqueRules {
		out = append(out, r.ID.name)
	}
	sort.Strings(out)
	return out
}

// uniqueRules yields every built-in rule once: a rule registered under
// several command names as its first registration says.
func uniqueRules(yield func(*Rule) bool) {
	seen := map[string]bool{}
	for b := range batchesOf(allBatches) {
		for _, r := range b.rules {
			if seen[r.ID.name] {
				continue
			}
			seen[r.ID.name] = true
			if !yield(r) {
				return
			}
		}
	}
}

// IsRule reports whether id names a built-in rule.
func IsRule(id string) bool { return batchOfID(id) >= 0 }

// IsGroup reports whether name is an opt-in rule group.
func IsGroup(name string) bool { return slices.Contains(ruleGroups, name) }

// IsSwitch reports whether name is a policy switch.
func IsSwitch(name string) bool {
	_, ok := SwitchDefault(name)
	return ok
}

// SwitchNames lists the policy switches.
func SwitchNames() []string {
	out := make([]string, len(switchDefs))
	for i, s := range switchDefs {
		out[i] = s.name
	}
	return out
}

// SwitchDefault returns a switch's documented default value.
func SwitchDefault(name string) (string, bool) {
	for _, s := range switchDefs {
		if s.name == name {
			return s.def, true
		}
	}
	return "", false
}

// Policy is a compiled configuration; safe for concurrent use.
type Policy struct {
	// The rules are shared by every policy (rulebatch.go); selected says
	// which of them this policy runs.
	off      map[string]bool
	verdicts map[string]Verdict
	groups   map[string]bool
	switches map[string]Verdict
	custom   []customRule
	// prodNames are the names of production environments, lower case.
	prodNames []string
}

// The default policy is built on first use, not in package init, which
// every process runs.
var (
	defaultOnce   sync.Once
	defaultPolicy *Policy
)

func mustPolicy(o Options) *Policy {
	p, err := NewPolicy(o)
	if err != nil {
		panic(err) // only reachable with a broken built-in rule table
	}
	return p
}

// DefaultPolicy is the policy with no options.
func DefaultPolicy() *Policy {
	defaultOnce.Do(func() { defaultPolicy = mustPolicy(Options{}) })
	return defaultPolicy
}

// NewPolicy validates o and compiles it over the shared rule tables.
func NewPolicy(o Options) (*Policy, error) {
	p := &Policy{
		off:       map[string]bool{},
		verdicts:  map[string]Verdict{},
		groups:    map[string]bool{},
		switches:  make(map[string]Verdict, len(switchDefs)),
		prodNames: o.Production.names(),
	}
	for _, g := range o.Groups {
		if !IsGroup(g) {
			return nil, fmt.Errorf("guard: unknown group %q (known: %s)", g, strings.Join(ruleGroups, ", "))
		}
		p.groups[g] = true
	}
	for _, id := range o.Disabled {
		if !IsRule(id) {
			return nil, fmt.Errorf("guard: cannot disable unknown rule %q", id)
		}
		p.off[id] = true
	}
	for id, v := range o.Verdicts {
		if !IsRule(id) {
			return nil, fmt.Errorf("guard: verdict override for unknown rule %q", id)
		}
		vv, err := ParseVerdict(v)
		if err != nil {
			return nil, fmt.Errorf("guard: verdict override for rule %q: %w", id, err)
		}
		p.verdicts[id] = vv
	}
	for _, s := range switchDefs {
		v, _ := ParseVerdict(s.def)
		p.switches[s.name] = v
	}
	for name, val := range o.Switches {
		if _, ok := SwitchDefault(name); !ok {
			return nil, fmt.Errorf("guard: unknown switch %q (known: %s)", name, strings.Join(SwitchNames(), ", "))
		}
		v, err := ParseVerdict(val)
		if err != nil {
			return nil, fmt.Errorf("guard: switch %q: %w", name, err)
		}
		p.switches[name] = v
	}
	for i, c := range o.Custom {
		cr, err := compileCustom(c)
		if err != nil {
			return nil, fmt.Errorf("guard: custom rule %d (%s): %w", i, c.ID, err)
		}
		p.custom = append(p.custom, cr)
	}
	return p, nil
}

func compileCustom(c CustomRule) (customRule, error) {
	cr := customRule{CustomRule: c}
	v, err := ParseVerdict(c.Verdict)
	if err != nil {
		return cr, err
	}
	cr.verdict = v
	switch c.Tool {
	case "", "*", "shell", "read", "write", "edit", "search":
	default:
		return cr, fmt.Errorf("unknown tool %q", c.Tool)
	}
	if c.Command == "" && c.Path == "" {
		return cr, fmt.Errorf("needs a command or a path")
	}
	if c.Path != "" && !doublestar.ValidatePattern(c.Path) {
		return cr, fmt.Errorf("bad path glob %q", c.Path)
	}
	cr.words = strings.Fields(c.Command)
	return cr, nil
}

// askWhenOff are the groups whose rules destroy state that no local undo
// brings back (cloud resources, clusters, databases, buckets and backups,
// containers' volumes and writable layers). While such a group is off its
// rules still run, at most at ask: the user sees every destructive call,
// and enabling the group makes its denies stick. Other groups are off
// until enabled.
var askWhenOff = []string{"cloud", "kubernetes", "databases", "storage", "containers"}

// selected reports whether r can fire under p: it is not disabled, and
// its group is on or one of askWhenOff.
func (p *Policy) selected(r *Rule) bool {
	return !p.off[r.ID.name] && (r.Group == "" || p.groups[r.Group] || slices.Contains(askWhenOff, r.Group))
}

// rulesFor returns the selected rules filed under a command name.
func (p *Policy) rulesFor(name string) iter.Seq[*Rule] {
	return func(yield func(*Rule) bool) {
		for r := range rulesNamed(name) {
			if p.selected(r) && !yield(r) {
				return
			}
		}
	}
}

// hasRules reports whether a selected rule is filed under name.
func (p *Policy) hasRules(name string) bool {
	for range p.rulesFor(name) {
		return true
	}
	return false
}

// verdictFor applies overrides and switches to a rule's verdict.
func (p *Policy) verdictFor(r *Rule) (Verdict, bool) {
	if !p.selected(r) {
		return Allow, false
	}
	// A selected rule whose group is off is one of askWhenOff's.
	groupOff := r.Group != "" && !p.groups[r.Group]
	v := r.Verdict
	if r.Switch != "" {
		v = p.switches[r.Switch]
	}
	if groupOff && v > Ask {
		v = Ask
	}
	if o, ok := p.verdicts[r.ID.name]; ok {
		v = o
	}
	return v, v > Allow
}

func (p *Policy) sw(name string) Verdict { return p.switches[name] }

// protected rules cannot be overridden by a custom allow: secrets, the
// fail-closed analysis outcomes, atreides's own files and commands, and
// wiping / or the home directory.
func protected(r *Rule) bool {
	switch r.Category {
	case "secret", "parse", "dynamic", "exfiltration", "self":
		return true
	}
	return r.ID == ruleFsRmRootHome
}

// Check decides one request. It never panics: an internal failure is a
// fail-closed deny.
func (p *Policy) Check(r Request) (res Result) {
	defer func() {
		if x := recover(); x != nil {
			res = Result{Verdict: Deny, Rule: "internal.error", Category: "parse",
				Reason: fmt.Sprintf("the guard failed to analyse this request (%v); ask the user to run it", x)}
		}
	}()
	return p.check(r)
}

// check is Check without the recovery: tests and fuzz targets call it so a
// panic fails them instead of passing as a deny.
func (p *Policy) check(r Request) Result {
	switch r.Tool {
	case "", "shell", "bash", "Bash":
		return p.checkShell(r)
	default:
		return p.checkPath(r)
	}
}
