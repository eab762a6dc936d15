package inspect

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/guard"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/host/all"
	"github.com/atreides-dev/atreides/internal/policy"
	"github.com/atreides-dev/atreides/internal/project"
	"github.com/atreides-dev/atreides/internal/view"
	"github.com/spf13/cobra"
)

const checkAbout = `Explain the guard's verdict for one shell command (--tool shell, the
default) or one path (--tool read|write|edit|search), with this project's
configuration. With --jsonl, read one JSON object per line on stdin,
{"command": "...", "cwd": "...", "tool": "...", "path": "..."}, and write
one JSON verdict per line, in order.

Exit status is 0 whenever the input was evaluated, whatever the verdict;
with --exit-code, 3 when the verdict (or, with --jsonl, any verdict) is
deny, so a script or CI job can stop on it. 1 when the input could not be
evaluated, 2 on bad usage.

Examples:
  atreides check 'git push --force'
  atreides check --tool write .env
  atreides check --jsonl < requests.jsonl`

// checkJSON is one verdict as scripts see it.
type checkJSON struct {
	Decision string   `json:"decision"`
	Rule     string   `json:"rule"`
	Category string   `json:"category"`
	Reason   string   `json:"reason"`
	Effect   string   `json:"effect"`   // what the command does that the rule judged
	Evidence string   `json:"evidence"` // the words that show it
	Commands []string `json:"commands"` // with --explain; [] without
	Error    string   `json:"error"`    // --jsonl: why a line could not be judged
}

type checkRequest struct {
	Command string `json:"command"`
	Path    string `json:"path"`
	Cwd     string `json:"cwd"`
	Tool    string `json:"tool"`
}

// checkOptions are the arguments of 'atreides check'.
type checkOptions struct {
	asJSON, explain, jsonl, rules bool
	exitCode                      bool
	cwd, tool                     string
	args                          []string
}

func NewCheckCmd(io *command.IO) *cobra.Command {
	o := &checkOptions{}
	cmd := &cobra.Command{
		Use:   "check [flags] [--] COMMAND|PATH\n  atreides check --jsonl < requests.jsonl\n  atreides check --rules",
		Short: "explain the guard's verdict for a command or path",
		Long:  checkAbout,
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, args []string) error {
			o.args = args
			return o.run(io)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&o.asJSON, "json", false, "print the verdict as JSON")
	f.BoolVarP(&o.explain, "explain", "e", false, "also list the commands the guard saw after unwrapping")
	f.StringVarP(&o.cwd, "cwd", "C", "", "working directory to judge in (default: the current one)")
	f.StringVarP(&o.tool, "tool", "t", "shell", "shell, read, write, edit or search")
	command.CompleteValues(cmd, "tool", "shell", "read", "write", "edit", "search")
	f.BoolVar(&o.jsonl, "jsonl", false, "read JSON requests from stdin, one per line")
	f.BoolVar(&o.rules, "rules", false, "list the rules (verdict, group, switch, what each stops), groups and switches")
	f.BoolVar(&o.exitCode, "exit-code", false, "exit 3 when the verdict is deny")
	return cmd
}

func (o *checkOptions) run(io *command.IO) error {
	if o.rules {
		return listRules(io, o.asJSON)
	}
	wd, err := io.Getwd()
	if err != nil {
		return fmt.Errorf("working directory: %w", err)
	}
	cwd := o.cwd
	if cwd == "" {
		cwd = wd
	} else if !filepath.IsAbs(cwd) {
		cwd = filepath.Join(wd, cwd)
	}
	root := project.Root("", cwd)
	s := hook.NewSettings(root)
	pol, err := s.Policy()
	var degraded *policy.Degraded
	if errors.As(err, &degraded) {
		// The hook goes on with the fallback policy: check says what it does.
		fmt.Fprintln(io.Err, "atreides check: the configuration has problems ('atreides config validate' lists them), so the guard uses its built-in policy tightened by the settings that could be read")
	} else if err != nil {
		return err
	}
	if c, err := s.Config(); err == nil && !s.Builtin() {
		command.NoteUntrusted(io.Err, c.Trust())
	}
	if pol == nil {
		// The hook then allows every call: check says what the hook does.
		fmt.Fprintln(io.Err, "atreides check: the guard is switched off in the configuration (guard.enabled: false): every call is allowed")
	}
	if o.jsonl {
		if len(o.args) > 0 {
			return command.Usagef("--jsonl reads stdin and takes no arguments")
		}
		denied, err := checkLines(io, pol, cwd, root)
		if err != nil {
			return err
		}
		return o.status(denied)
	}
	if len(o.args) != 1 {
		return command.Usagef("want exactly one command or path, got %d arguments (quote the command)", len(o.args))
	}
	req, err := guardRequest(checkRequest{Tool: o.tool, Cwd: cwd}, o.args[0], root)
	if err != nil {
		return &command.UsageError{Msg: err.Error()}
	}
	res := judgeOrAllow(pol, req)
	if o.asJSON {
		if err := writeJSONLine(io, verdictJSON(res, o.explain)); err != nil {
			return err
		}
	} else {
		printVerdict(io, res, o.explain)
	}
	if res.Verdict == guard.Deny {
		return o.status(1)
	}
	return nil
}

func guardRequest(r checkRequest, arg, root string) (guard.Request, error) {
	if r.Tool == "" {
		r.Tool = "shell"
	}
	switch r.Tool {
	case "shell", "read", "write", "edit", "search":
		req := policy.NewRequest(r.Tool, arg, r.Cwd, root)
		all.Guard().Apply(&req)
		return req, nil
	}
	return guard.Request{}, fmt.Errorf("unknown tool %q (shell, read, write, edit, search)", r.Tool)
}

// status is the outcome of a check that denied n requests.
func (o *checkOptions) status(n int) error {
	if o.exitCode && n > 0 {
		return &command.ProblemsError{N: n}
	}
	return nil
}

// checkLines answers every request on stdin and returns how many it denied.
func checkLines(io *command.IO, pol *guard.Policy, cwd, root string) (int, error) {
	sc := bufio.NewScanner(io.In)
	sc.Buffer(make([]byte, 0, 64<<10), hook.MaxPayload)
	enc := json.NewEncoder(io.Out)
	denied := 0
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		var r checkRequest
		if err := json.Unmarshal([]byte(line), &r); err != nil {
			denied++
			// One bad line must not stop a batch, and its answer must not
			// read as an allow.
			enc.Encode(checkJSON{Decision: "deny", Rule: "check.bad-input", Reason: "line could not be read", Error: fmt.Sprintf("line %d: %v", n, err)})
			continue
		}
		if r.Cwd == "" {
			r.Cwd = cwd
		}
		arg := r.Command
		if r.Tool != "" && r.Tool != "shell" {
			arg = r.Path
		}
		req, err := guardRequest(r, arg, root)
		if err != nil {
			denied++
			enc.Encode(checkJSON{Decision: "deny", Rule: "check.bad-input", Reason: "request could not be judged", Error: fmt.Sprintf("line %d: %v", n, err)})
			continue
		}
		res := judgeOrAllow(pol, req)
		if res.Verdict == guard.Deny {
			denied++
		}
		if err := enc.Encode(verdictJSON(res, false)); err != nil {
			return denied, fmt.Errorf("write verdict: %w", err)
		}
	}
	if err := sc.Err(); err != nil {
		return denied, fmt.Errorf("read stdin: %w", err)
	}
	return denied, nil
}

func verdictJSON(r guard.Result, explain bool) checkJSON {
	out := checkJSON{Decision: r.Verdict.String(), Rule: r.Rule, Category: r.Category, Reason: r.Reason,
		Effect: r.Effect, Evidence: r.Evidence, Commands: []string{}}
	if explain {
		out.Commands = view.List(r.Commands)
	}
	return out
}

func printVerdict(io *command.IO, r guard.Result, explain bool) {
	st := command.StyleOf(io)
	v := st.Verdict(r.Verdict.String())
	if r.Rule == "" {
		fmt.Fprintf(io.Out, "%s\n", v)
	} else {
		fmt.Fprintf(io.Out, "%s  %s (%s)\n", v, st.Bold(r.Rule), r.Category)
	}
	if r.Reason != "" {
		fmt.Fprintf(io.Out, "  %s\n", r.Reason)
	}
	if explain && r.Effect != "" {
		fmt.Fprintf(io.Out, "effect: %s\n", r.Effect)
		if r.Evidence != "" {
			fmt.Fprintf(io.Out, "evidence: %s\n", r.Evidence)
		}
	}
	if explain {
		fmt.Fprintln(io.Out, "commands seen:")
		for _, c := range r.Commands {
			fmt.Fprintf(io.Out, "  %s\n", c)
		}
	}
}

// rulesJSON is 'check --rules --json'.
type rulesJSON struct {
	Rules    []string     `json:"rules"`
	Groups   []string     `json:"groups"`
	Switches []switchJSON `json:"switches"`
}

type switchJSON struct {
	Name    string `json:"name"`
	Default string `json:"default"`
}

func listRules(io *command.IO, asJSON bool) error {
	if asJSON {
		doc := rulesJSON{Rules: view.List(guard.RuleIDs()), Groups: view.List(guard.Groups()), Switches: []switchJSON{}}
		for _, s := range guard.SwitchNames() {
			def, _ := guard.SwitchDefault(s)
			doc.Switches = append(doc.Switches, switchJSON{Name: s, Default: def})
		}
		return command.PrintJSON(io, doc)
	}
	st := command.StyleOf(io)
	tb := command.NewTable(io, io.Out, "rule", "verdict", "group", "description").Flex(3)
	for _, r := range guard.RuleIndex() {
		about := r.Summary
		if r.Switch != "" {
			// A switch sets the verdict: said first, so no cut hides it.
			about = "(switch " + r.Switch + ") " + about
		}
		tb.Add(r.ID).AddPainted(r.Verdict, st.Verdict).Add(orDash(r.Group)).Add(about).EndRow()
	}
	if err := tb.Render(); err != nil {
		return err
	}
	if !command.IsTTY(io) {
		return nil // piped: the rules alone, for cut and grep; --json has the rest
	}
	fmt.Fprintln(io.Out)
	count := map[string]int{}
	for _, r := range guard.RuleIndex() {
		count[r.Group]++
	}
	groups := command.NewTable(io, io.Out, "group (off unless in guard.groups)", "rules")
	for _, g := range guard.Groups() {
		groups.Row(g, strconv.Itoa(count[g]))
	}
	if err := groups.Render(); err != nil {
		return err
	}
	fmt.Fprintln(io.Out)
	sw := command.NewTable(io, io.Out, "switch (guard.switches)", "default", "governs").Flex(2)
	for _, s := range guard.SwitchNames() {
		def, _ := guard.SwitchDefault(s)
		sw.Add(s).AddPainted(def, st.Verdict).Add(guard.SwitchDoc(s)).EndRow()
	}
	return sw.Render()
}

func writeJSONLine(io *command.IO, v any) error {
	return json.NewEncoder(io.Out).Encode(v)
}

// judgeOrAllow is the guard's verdict, or allow when the guard is off
// (pol nil), as the hook answers then.
func judgeOrAllow(pol *guard.Policy, req guard.Request) guard.Result {
	if pol == nil {
		return guard.Result{Verdict: guard.Allow, Reason: "the guard is switched off in the configuration"}
	}
	return pol.Check(req)
}
