package slash

import (
	"regexp"
	"strings"
	"testing"
)

// TestCommands: every command of the issue is there, parses, names the
// user's arguments, says what a missing argument is answered with, and
// holds nothing a host would expand by itself.
func TestCommands(t *testing.T) {
	cmds, err := All()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	if got := strings.Join(names, " "); got != "errors implement meta plan research review revise task todo" {
		t.Errorf("commands %s", got)
	}
	expands := regexp.MustCompile("!`|!\\{|@[A-Za-z.{/]|\\$[0-9]|\\{\\{args")
	for _, c := range cmds {
		if !strings.Contains(c.text, Args) {
			t.Errorf("%s does not name the arguments", c.Name)
		}
		if m := expands.FindString(c.text); m != "" {
			t.Errorf("%s holds %q, which a host expands", c.Name, m)
		}
		if c.Name != "meta" && !strings.Contains(c.text, "reply exactly `/"+c.Name) {
			t.Errorf("%s has no exact error text for its arguments", c.Name)
		}
		body := c.Body("{{args}}", func(tool string) string { return "mcp_x_" + tool })
		if strings.Contains(body, Args) || strings.Contains(body, "{{tool:") || !strings.Contains(body, "{{args}}") {
			t.Errorf("%s: placeholders left in\n%s", c.Name, body)
		}
	}
}

// TestBody: the arguments and tool names are spelt for the host; a tool
// name without a host stays bare.
func TestBody(t *testing.T) {
	c := Command{Name: "x", text: "args: $ARGUMENTS; call {{tool:task_create}} then {{tool:task_ready}}\n"}
	if got := c.Body("{{args}}", func(s string) string { return "mcp__atreides__" + s }); got != "args: {{args}}; call mcp__atreides__task_create then mcp__atreides__task_ready\n" {
		t.Errorf("got %q", got)
	}
	if got := c.Body(Args, nil); got != "args: $ARGUMENTS; call task_create then task_ready\n" {
		t.Errorf("got %q", got)
	}
}

func TestParseRefuses(t *testing.T) {
	for _, data := range []string{"no front matter", "---\ndescription: x\n", "---\nname: x\n---\nbody", "---\nargument-hint: x\n---\nbody"} {
		if _, err := parse("x", data); err == nil {
			t.Errorf("parsed %q", data)
		}
	}
}
