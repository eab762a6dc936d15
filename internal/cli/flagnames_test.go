package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/atreides-dev/atreides/internal/slash"
	"github.com/spf13/cobra"
)

// Flags and fields have one name everywhere (docs/work-items.md): every
// `--flag` that the slash commands' texts and the docs give an atreides
// command is one the command defines, checked against the CLI's own
// cobra definitions. Checked rather than generated: the texts are
// prose for a model, whose sentences a generator would have to write
// around, and a check fails on the one word that drifts.

var (
	// codeSpan is an inline code span or a line of a code block.
	codeSpan = regexp.MustCompile("`([^`\n]+)`")
	// flagWord is a long flag, without its value.
	flagWord = regexp.MustCompile(`(?:^|[\s\[("'])(--[a-z][a-z0-9-]*)`)
	// quoted is a quoted word of a command line.
	quoted = regexp.MustCompile(`'[^']*'|"[^"]*"`)
)

// testRoot is the whole command tree, as a command line builds it.
func testRoot(t *testing.T) *cobra.Command {
	t.Helper()
	io := &command.IO{Process: hook.Process{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{},
		Getenv: func(string) string { return "" }, Getwd: func() (string, error) { return t.TempDir(), nil }}}
	return newRootCmd(io, nil)
}

// invocations are the atreides command lines in text: code spans and
// code-block lines that begin with "atreides " (or "$ atreides ").
func invocations(text string) []string {
	var out []string
	add := func(s string) {
		s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "$ "))
		if strings.HasPrefix(s, "atreides ") {
			out = append(out, s)
		}
	}
	fenced := false
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			// A shell line may chain commands: each is checked.
			for part := range strings.SplitSeq(line, "&&") {
				add(part)
			}
			continue
		}
		for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
			add(m[1])
		}
	}
	return out
}

// resolve is the command an invocation runs and the long flags it gives
// it; nil when it names no command of the tree.
func resolve(root *cobra.Command, inv string) (*cobra.Command, []string) {
	words := strings.Fields(inv)[1:]
	var path []string
	for _, w := range words {
		if strings.HasPrefix(w, "-") || !regexp.MustCompile(`^[a-z][a-z0-9-]*$`).MatchString(w) {
			break
		}
		path = append(path, w)
	}
	cmd, _, err := root.Find(path)
	if err != nil {
		return nil, nil
	}
	// What follows "--", a shell comment or quotes is not the command's.
	inv, _, _ = strings.Cut(inv, " -- ")
	inv, _, _ = strings.Cut(inv, " #")
	inv = quoted.ReplaceAllString(inv, "''")
	var flags []string
	for _, m := range flagWord.FindAllStringSubmatch(inv, -1) {
		flags = append(flags, m[1])
	}
	return cmd, flags
}

// defines reports whether cmd takes the long flag (its own, inherited or
// help).
func defines(cmd *cobra.Command, flag string) bool {
	name := strings.TrimPrefix(flag, "--")
	return name == "help" || cmd.Flags().Lookup(name) != nil || cmd.InheritedFlags().Lookup(name) != nil
}

// TestSlashTextFlags: every --flag of a slash command's text (its
// argument hint included) is defined by one of the atreides commands the
// text runs, and every atreides command line in it gives only flags that
// command defines.
func TestSlashTextFlags(t *testing.T) {
	root := testRoot(t)
	cmds, err := slash.All()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cmds {
		text := c.ArgumentHint + "\n" + c.Body(slash.Args, nil)
		var named []*cobra.Command
		for _, inv := range invocations(text) {
			cmd, flags := resolve(root, inv)
			if cmd == nil || cmd == root {
				t.Errorf("/%s runs %q, which is no atreides command", c.Name, inv)
				continue
			}
			named = append(named, cmd)
			for _, f := range flags {
				if !defines(cmd, f) {
					t.Errorf("/%s runs %q: %q has no flag %s", c.Name, inv, cmd.CommandPath(), f)
				}
			}
		}
		for _, m := range flagWord.FindAllStringSubmatch(text, -1) {
			if !slices.ContainsFunc(named, func(cmd *cobra.Command) bool { return defines(cmd, m[1]) }) {
				t.Errorf("/%s mentions %s, which none of the commands it runs defines", c.Name, m[1])
			}
		}
	}
}

// TestDocFlags: every atreides command line in the docs and the README
// names a command of the tree and gives only flags it defines.
func TestDocFlags(t *testing.T) {
	root := testRoot(t)
	files, err := filepath.Glob("../../docs/*.md")
	if err != nil || len(files) == 0 {
		t.Fatalf("no docs: %v", err)
	}
	files = append(files, "../../README.md")
	checked := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, inv := range invocations(string(data)) {
			cmd, flags := resolve(root, inv)
			if cmd == nil || cmd == root {
				continue // prose about atreides, or a command another program adds
			}
			checked++
			for _, fl := range flags {
				if !defines(cmd, fl) {
					t.Errorf("%s: %q: %q has no flag %s", filepath.Base(f), inv, cmd.CommandPath(), fl)
				}
			}
		}
	}
	t.Logf("%d command lines checked", checked)
	if checked == 0 {
		t.Fatal("no atreides command line found in the docs")
	}
}
