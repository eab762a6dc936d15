package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/slash"
)

// usageLine is an atreides command line a slash command's text tells the
// agent to run: in backticks, starting "atreides ".
var usageLine = regexp.MustCompile("`(atreides [^`]+)`")

// placeholders are the texts' names for what the agent fills in, with a
// value of the kind each stands for.
var placeholders = strings.NewReplacer(
	"ID...", "3 5", "N M ...", "3 4", "'<title>'", "'a title'", "'<what and where>'", "'where'",
	"'<why>'", "'why'", "<critical|high|medium|low>", "high", `"<status>"`, "planned", `"..."`, "why", "TYPE", "build_error")

// TestSlashTextsNameRealCommands: every atreides command line in every
// slash command's text parses as the CLI parses it: the command exists,
// its flags exist and its arguments pass its own check. A text that tells
// the agent to run a command the CLI rejects fails here, not in the
// user's session.
func TestSlashTextsNameRealCommands(t *testing.T) {
	cmds, err := slash.All()
	if err != nil {
		t.Fatal(err)
	}
	seen := 0
	for _, c := range cmds {
		for _, m := range usageLine.FindAllStringSubmatch(c.Body("", func(s string) string { return s }), -1) {
			seen++
			line := placeholders.Replace(m[1])
			args, err := shellWords(line)
			if err != nil {
				t.Errorf("/%s: %q: %v", c.Name, m[1], err)
				continue
			}
			args = numbers(args[1:])
			if err := parseOnly(args); err != nil {
				t.Errorf("/%s names `%s`, which the CLI rejects: %v", c.Name, m[1], err)
			}
		}
	}
	if seen < 20 {
		t.Fatalf("only %d command lines found in the texts: the pattern no longer matches them", seen)
	}
}

// numbers makes the one-letter placeholders (N, K, M) task numbers.
func numbers(args []string) []string {
	out := make([]string, len(args))
	for i, a := range args {
		switch a {
		case "N", "K", "M":
			a = "1"
		}
		out[i] = a
	}
	return out
}

// parseOnly finds the command of args and checks its flags and arguments,
// running nothing.
func parseOnly(args []string) error {
	var out bytes.Buffer
	io := &command.IO{Process: hook.Process{In: strings.NewReader(""), Out: &out, Err: &out, Getenv: func(string) string { return "" }}}
	root := newRootCmd(io, args)
	cmd, rest, err := root.Find(args)
	if err != nil {
		return err
	}
	if cmd == root {
		return command.UnknownCommand(root, args[0])
	}
	if err := cmd.ParseFlags(rest); err != nil {
		return err
	}
	return cmd.ValidateArgs(cmd.Flags().Args())
}

// shellWords splits a command line as a shell would, for the quoting the
// texts use: single and double quotes, no expansions.
func shellWords(s string) ([]string, error) {
	var out []string
	var w strings.Builder
	in, quote := false, rune(0)
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			w.WriteRune(r)
		case r == '\'' || r == '"':
			quote, in = r, true
		case r == ' ':
			if in {
				out = append(out, w.String())
				w.Reset()
			}
			in = false
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if quote != 0 {
		return nil, errUnclosed
	}
	if in {
		out = append(out, w.String())
	}
	return out, nil
}

var errUnclosed = &command.UsageError{Msg: "an unclosed quote"}
