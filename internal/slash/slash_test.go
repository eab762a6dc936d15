package slash

import (
	"os"
	"path/filepath"
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
	if got := strings.Join(names, " "); got != "errors implement meta plan research review-models review revise task todo" {
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
		if c.Name != "meta" && !strings.Contains(c.text, "reply exactly `/"+c.HostName()) {
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

// TestForProject: a project's command is added, one named like atreides's
// replaces it, a file not named like a command is left out, and one that
// does not parse is an error naming it.
func TestForProject(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, ProjectDir)
	write := func(name, data string) {
		t.Helper()
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if cmds, err := ForProject(root); err != nil || len(cmds) != 10 {
		t.Fatalf("no project commands: %d %v", len(cmds), err)
	}
	write("deploy.md", "---\ndescription: Deploy to staging\nargument-hint: <service>\n---\nDeploy $ARGUMENTS.\n")
	write("todo.md", "---\ndescription: Our todo\n---\nOurs: $ARGUMENTS\n")
	write("Bad Name.md", "not a command")
	write("notes.txt", "not a command")
	cmds, err := ForProject(root)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Command{}
	for _, c := range cmds {
		byName[c.Name] = c
	}
	if len(cmds) != 11 || byName["deploy"].Body("{{args}}", nil) != "Deploy {{args}}.\n" || byName["todo"].Description != "Our todo" {
		t.Errorf("project commands: %+v", cmds)
	}
	write("broken.md", "no front matter")
	if _, err := ForProject(root); err == nil || !strings.Contains(err.Error(), "broken.md") {
		t.Errorf("broken command: %v", err)
	}
}

// TestTextsNameHostNames: where a text names one of atreides's commands
// it names it as the user types it (/at-plan): a bare /plan is the host's
// own command on some hosts.
func TestTextsNameHostNames(t *testing.T) {
	cmds, err := All()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range cmds {
		names = append(names, c.Name)
	}
	bare := regexp.MustCompile("(^|[\\s`(\"])/(" + strings.Join(names, "|") + ")([\\s`).,:\"]|$)")
	for _, c := range cmds {
		if m := bare.FindString(c.text); m != "" {
			t.Errorf("%s names a command by its bare name: %q", c.Name, m)
		}
	}
	if got := HostName("plan"); got != "at-plan" || HostName(got) != got {
		t.Errorf("HostName(plan) = %q, HostName of that %q", got, HostName(got))
	}
}
