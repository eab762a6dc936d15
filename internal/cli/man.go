package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/atreides-dev/atreides/internal/cli/command"
	"github.com/atreides-dev/atreides/internal/hook"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// manOptions are the flags of 'atreides man'.
type manOptions struct {
	dir string
}

// The pages are written here rather than with cobra/doc: its Markdown
// renderer's package init (blackfriday) measured 0.34-0.59 ms and 214 KB
// in 762 allocations, paid by every hook process that links it. Nor from a
// build-time generator with it: its pages typeset every - as a hyphen (a
// flag copied from them does not work), list no subcommands with their
// summaries, name no flag's value (--level="" for --level string), give
// the root page none of the help, and carry the build's date.
func newManCmd(io *command.IO) *cobra.Command {
	o := &manOptions{}
	cmd := &cobra.Command{
		Use:   "man --dir DIR",
		Short: "write man pages for every command into a directory",
		Long: `Write a man page (section 1) for atreides and for each of its commands
into DIR, from the same command tree as the help: atreides.1,
atreides-todo.1, atreides-todo-add.1 and so on. Read one with
'man DIR/atreides-check.1', or copy them under a MANPATH directory's man1/.`,
		Args: command.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return o.run(io, cmd.Root()) },
	}
	cmd.Flags().StringVarP(&o.dir, "dir", "d", "", "directory to write the pages into (created if missing)")
	return cmd
}

func (o *manOptions) run(io *command.IO, root *cobra.Command) error {
	if o.dir == "" {
		return command.Usagef("--dir is required")
	}
	if err := os.MkdirAll(o.dir, 0o755); err != nil {
		return fmt.Errorf("man: %w", err)
	}
	n := 0
	var walk func(c *cobra.Command) error
	walk = func(c *cobra.Command) error {
		if !c.IsAvailableCommand() && c != root {
			return nil
		}
		var b strings.Builder
		writeManPage(&b, c)
		name := filepath.Join(o.dir, manName(c)+".1")
		if err := os.WriteFile(name, []byte(b.String()), 0o644); err != nil {
			return fmt.Errorf("man: %w", err)
		}
		n++
		for _, sub := range c.Commands() {
			if err := walk(sub); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return err
	}
	fmt.Fprintf(io.Out, "wrote %d man pages to %s\n", n, o.dir)
	return nil
}

// manName is the page name of a command: its path joined by dashes.
func manName(c *cobra.Command) string { return strings.ReplaceAll(c.CommandPath(), " ", "-") }

// writeManPage renders one command as roff (man(7) macros).
func writeManPage(b *strings.Builder, c *cobra.Command) {
	name := manName(c)
	fmt.Fprintf(b, ".TH %s 1 \"\" \"atreides %s\" \"atreides manual\"\n", strings.ToUpper(name), roffEscape(hook.Version()))
	fmt.Fprintf(b, ".SH NAME\n%s \\- %s\n", name, roffEscape(c.Short))
	b.WriteString(".SH SYNOPSIS\n.nf\n")
	for _, line := range strings.Split(c.UseLine(), "\n") {
		b.WriteString(roffLine(strings.TrimSpace(line)) + "\n")
	}
	b.WriteString(".fi\n")
	if desc := manDescription(c); desc != "" {
		// The help text is already wrapped and indented for a terminal; it
		// is kept as written rather than refilled.
		b.WriteString(".SH DESCRIPTION\n.nf\n")
		for _, line := range strings.Split(desc, "\n") {
			b.WriteString(roffLine(line) + "\n")
		}
		b.WriteString(".fi\n")
	}
	if c.HasAvailableSubCommands() {
		b.WriteString(".SH COMMANDS\n")
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() {
				fmt.Fprintf(b, ".TP\n.B %s\n%s (see \\fB%s\\fR(1))\n", sub.Name(), roffEscape(sub.Short), manName(sub))
			}
		}
	}
	writeManFlags(b, "OPTIONS", c.NonInheritedFlags())
	writeManFlags(b, "GLOBAL OPTIONS", c.InheritedFlags())
	if c.HasParent() {
		fmt.Fprintf(b, ".SH SEE ALSO\n\\fB%s\\fR(1)\n", manName(c.Parent()))
	}
}

// manDescription is the long help, or for the root its whole help text.
func manDescription(c *cobra.Command) string {
	if !c.HasParent() {
		return strings.TrimSpace(rootAbout() + "\n\n" + rootFooter())
	}
	if c.Long != "" {
		return c.Long
	}
	return c.Short
}

func writeManFlags(b *strings.Builder, title string, fs *pflag.FlagSet) {
	if !fs.HasAvailableFlags() {
		return
	}
	fmt.Fprintf(b, ".SH %s\n", title)
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		b.WriteString(".TP\n")
		if f.Shorthand != "" {
			fmt.Fprintf(b, "\\fB\\-%s\\fR, ", f.Shorthand)
		}
		fmt.Fprintf(b, "\\fB\\-\\-%s\\fR", f.Name)
		varname, usage := pflag.UnquoteUsage(f)
		if varname != "" {
			fmt.Fprintf(b, " \\fI%s\\fR", roffEscape(varname))
		}
		b.WriteString("\n" + roffLine(usage))
		if f.DefValue != "" && f.DefValue != "false" && f.DefValue != "0" && f.DefValue != "[]" {
			fmt.Fprintf(b, " (default %s)", roffEscape(f.DefValue))
		}
		b.WriteString("\n")
	})
}

// roffEscape makes text safe inside a roff line: backslashes would start
// escapes and hyphens would be typeset as hyphens, not minus signs.
func roffEscape(s string) string {
	s = strings.ReplaceAll(s, `\`, `\e`)
	return strings.ReplaceAll(s, "-", `\-`)
}

// roffLine is roffEscape for a whole line, which must also not start
// with a control character, a dot or an apostrophe.
func roffLine(s string) string {
	s = roffEscape(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
