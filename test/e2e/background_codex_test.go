package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/background"
	"github.com/atreides-dev/atreides/internal/host/codex"
	fo "github.com/atreides-dev/atreides/test/e2e/fakeopenai"
)

// TestBackgroundCodexHooksTrust: with atreides's hooks installed but not
// trusted, the real Codex's app server says so and a Codex background
// task is refused (codex exec would skip the hooks without a word and
// run it unguarded); once the user has trusted them (the trust Codex's
// /hooks records in config.toml) the check passes, and a read-only task
// then runs `codex exec` in the read-only sandbox, without
// --dangerously-bypass-hook-trust, with atreides's hooks running in the
// child (its session is in the project's state).
func TestBackgroundCodexHooksTrust(t *testing.T) {
	const answer = "GUARDED-ANSWER-9d2"
	p := newCodexProject(t, fo.Script{Steps: []fo.Step{fo.Text(answer)}})
	p.writeCodexHooks()
	atreides := atreidesFor(t)
	t.Setenv("HOME", p.Home)
	t.Setenv("PATH", strings.Join([]string{filepath.Dir(p.bin), filepath.Dir(atreides), os.Getenv("PATH")}, string(os.PathListSeparator)))
	t.Setenv("FAKE_OPENAI_KEY", "sk-fake")
	ctx := context.Background()
	err := codex.HooksTrusted(ctx, p.bin, p.Dir)
	if err == nil || !strings.Contains(err.Error(), "Codex does not trust") {
		t.Fatalf("untrusted hooks: %v", err)
	}
	trustCodexHooks(t, p)
	if err := codex.HooksTrusted(ctx, p.bin, p.Dir); err != nil {
		t.Fatalf("trusted hooks: %v", err)
	}
	task := runBackgroundTask(t, p.Dir, atreides, "codex")
	out := background.Dir(p.Dir, "bg-1")
	argv, _ := os.ReadFile(filepath.Join(out, "argv.json"))
	if task.Status != background.Completed || !strings.Contains(task.Result, answer) {
		stderr, _ := os.ReadFile(filepath.Join(out, "stderr"))
		t.Fatalf("bg-1: %s %q %q\nargv %s\nstderr:\n%s", task.Status, task.Result, task.Error, argv, tail(string(stderr), 3000))
	}
	if !strings.Contains(string(argv), `"--sandbox","read-only"`) || strings.Contains(string(argv), "bypass") {
		t.Errorf("the read-only task's argv: %s", argv)
	}
	if ls := p.Atreides("status", "--json"); !strings.Contains(ls, task.Child) {
		t.Errorf("atreides's hooks never saw the child session %s:\n%s", task.Child, tail(ls, 2000))
	}
}

// trustCodexHooks records the user's trust of every hook Codex lists in
// the project, as Codex's /hooks does: [hooks.state."<key>"]
// trusted_hash = "<its current hash>" in config.toml.
func trustCodexHooks(t *testing.T, p *codexProject) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, p.bin, "app-server")
	cmd.Dir = p.Dir
	// Its input stays open until it has answered: at the end of its
	// input the app server stops at once.
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	req := fmt.Sprintf(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"t","version":"1"}}}
{"jsonrpc":"2.0","method":"initialized"}
{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":[%q]}}
`, p.Dir)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	if _, err := io.WriteString(in, req); err != nil {
		t.Fatal(err)
	}
	dec := json.NewDecoder(stdout)
	var trust strings.Builder
	for {
		var msg struct {
			ID     int `json:"id"`
			Result struct {
				Data []struct {
					Hooks []struct {
						Key  string `json:"key"`
						Hash string `json:"currentHash"`
					} `json:"hooks"`
				} `json:"data"`
			} `json:"result"`
		}
		if err := dec.Decode(&msg); err != nil {
			if err == io.EOF {
				t.Fatal("codex app-server ended without listing the hooks")
			}
			t.Fatal(err)
		}
		if msg.ID != 2 {
			continue
		}
		for _, d := range msg.Result.Data {
			for _, h := range d.Hooks {
				fmt.Fprintf(&trust, "\n[hooks.state.%q]\ntrusted_hash = %q\n", h.Key, h.Hash)
			}
		}
		break
	}
	f, err := os.OpenFile(p.Path("../home/.codex/config.toml"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(trust.String()); err != nil {
		t.Fatal(err)
	}
}
