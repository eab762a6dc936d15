package governance

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// TestScopeThroughWrappers: a write outside the owned scope is refused
// whatever wrapper, shell or carrier the guard unwraps around it, and the
// same command inside the scope passes. Scope: src/auth/**.
func TestScopeThroughWrappers(t *testing.T) {
	f := newFixture(t)
	if err := f.selectIntent("s1", "auth"); err != nil {
		t.Fatal(err)
	}
	forms := []string{
		"rm %s", "ionice -c3 rm %s", "ionice -c 3 -n 7 rm %s", "setsid rm %s", "setsid -f rm %s",
		"timeout -s KILL 5 rm %s", "timeout --signal=KILL 5 rm %s", "busybox rm %s", "sudo tee %s",
		"sudo -u root -- rm %s", "env -i FOO=1 rm %s", "nice -n 10 rm %s", "nohup rm %s", "stdbuf -oL rm %s",
		"chrt -i 0 rm %s", "taskset -c 0 rm %s", "flock /tmp/l rm %s", "bash -c 'rm %s'", "sh -c \"rm %s\"",
		"eval 'rm %s'", "command rm %s", "exec rm %s", "time rm %s", "xargs rm %s < /dev/null",
		"find . -maxdepth 0 -exec rm %s \\;", "echo x | tee -a %s", "echo x > %s", "cat a >> %s",
		"cp /etc/hosts %s", "mv src/auth/a.go %s", "ln -sf x %s", "install -m 644 a %s", "truncate -s 0 %s",
		"dd if=/dev/zero of=%s", "sed -i s/a/b/ %s", "sort -o %s a", "curl -o %s https://example.com/x",
		"rsync -a src/auth/ %s", "chmod -x %s", "touch %s", "git checkout -- %s", "unlink %s",
		"watch -n1 rm %s", "script -qc 'rm %s' /dev/null", "su -c 'rm %s'", "f() { rm \"$1\"; }; f %s",
		"x=%s; rm $x", "for f in %s; do rm $f; done", "true && rm %s", "(cd src && rm ../%s)",
	}
	for i, form := range forms {
		out := strings.ReplaceAll(form, "%s", "README.md")
		if strings.Contains(form, "(cd src") {
			out = strings.ReplaceAll(form, "%s", "README.md")
		}
		d := f.shell("s1", out, "o"+string(rune('a'+i%26)), event.PreTool)
		if d.Verdict != event.Deny || !strings.Contains(d.Reason, "README.md") {
			t.Errorf("%s: verdict %v, want deny naming README.md (%q)", out, d.Verdict, d.Reason)
		}
		in := strings.ReplaceAll(form, "%s", "src/auth/b.go")
		if strings.Contains(form, "(cd src") {
			in = strings.ReplaceAll(form, "../%s", "auth/b.go")
		}
		if d := f.shell("s1", in, "i"+string(rune('a'+i%26)), event.PreTool); d.Verdict == event.Deny {
			t.Errorf("%s: inside the scope but denied: %q", in, d.Reason)
		}
	}
}

// TestUnknownWrites: commands whose writes cannot be listed ask (the
// default governance.unknown_writes) instead of passing.
func TestUnknownWrites(t *testing.T) {
	f := newFixture(t)
	if err := f.selectIntent("s1", "auth"); err != nil {
		t.Fatal(err)
	}
	for _, cmd := range []string{
		`python3 -c "open('docs/x','w').write('y')"`, "make", "npm install", "node -e 'require(`fs`).rmSync(`x`)'",
		"tar -xzf a.tgz", "git apply p.diff", "find . -name '*.tmp' -delete", "ls | xargs rm", "$EDITOR README.md",
		"npx rimraf dist", "mytool rm README.md", "patch -p1 < fix.diff", "unzip a.zip", "rm \"$OUT\"",
	} {
		if d := f.shell("s1", cmd, "u", event.PreTool); d.Verdict != event.Ask {
			t.Errorf("%s: verdict %v, want ask (%q)", cmd, d.Verdict, d.Reason)
		}
	}
	for _, cmd := range []string{"go test ./...", "cat README.md", "git status", "ls -la", "grep -r rm ."} {
		if d := f.shell("s1", cmd, "r", event.PreTool); d.Verdict != event.None {
			t.Errorf("%s: verdict %v, want no gate (%q)", cmd, d.Verdict, d.Reason)
		}
	}
}

func TestMCPToolsGated(t *testing.T) {
	f := newFixture(t)
	if err := f.selectIntent("s1", "auth"); err != nil {
		t.Fatal(err)
	}
	mcp := func(name string, in map[string]any) *event.Decision {
		b, _ := json.Marshal(in)
		return f.run(&event.Event{Kind: event.PreTool, SessionID: "s1", ToolUseID: "m",
			Tool: event.Tool{Name: event.ToolName("mcp:" + name), Raw: "mcp__" + name, Input: b}})
	}
	for _, tt := range []struct {
		name string
		in   map[string]any
		want event.Verdict
	}{
		{"fs__write_file", map[string]any{"path": f.root + "/README.md", "content": "x"}, event.Deny},
		{"fs__write_file", map[string]any{"path": "src/auth/a.go", "content": "x"}, event.None},
		{"fs__move_file", map[string]any{"source": "src/auth/a.go", "destination": "docs/a.go"}, event.Deny},
		{"fs__edit_file", map[string]any{"content": "x"}, event.Ask},
		{"fs__read_file", map[string]any{"path": "/etc/hosts"}, event.None},
		{"github__create_issue", map[string]any{"title": "x"}, event.None},
		// A command an MCP tool runs writes what the shell model says.
		{"shell__run_command", map[string]any{"command": "rm " + f.root + "/README.md"}, event.Deny},
		{"shell__run_command", map[string]any{"command": "rm src/auth/old.go", "cwd": f.root}, event.None},
		{"shell__run_command", map[string]any{"command": "ls"}, event.None},
		{"shell__run_command", map[string]any{}, event.Ask},
	} {
		if d := mcp(tt.name, tt.in); d.Verdict != tt.want {
			t.Errorf("%s %v: verdict %v, want %v (%q)", tt.name, tt.in, d.Verdict, tt.want, d.Reason)
		}
	}
}
