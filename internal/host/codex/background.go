package codex

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/shell"
)

// headless is how a background task runs `codex exec` as its agent
// (checked against 0.171.0's --help): the read-only sandbox for an agent
// that reads, workspace-write for one that edits. `codex exec resume` has
// no --sandbox, so a resume sets the same through -c sandbox_mode.
var headless = event.Headless{
	ReadOnly:       []string{"--sandbox", "read-only"},
	Full:           []string{"--sandbox", "workspace-write"},
	ResumeReadOnly: []string{"-c", "sandbox_mode=read-only"},
	ResumeFull:     []string{"-c", "sandbox_mode=workspace-write"},
	Model:          []string{"--model", "{model}"},
	Guarded:        HooksTrusted,
	AutoApprove: []string{"--dangerously-bypass-approvals-and-sandbox", "--full-auto", "--approve-for-me",
		"-s workspace-write", "--sandbox workspace-write", "-s danger-full-access", "--sandbox danger-full-access",
		"-c sandbox_mode=workspace-write", "-c sandbox_mode=danger-full-access"},
}

// trustWait bounds the question to Codex's app server.
const trustWait = 30 * time.Second

// HooksTrusted checks that `codex exec` in root will run atreides's
// hooks: `codex exec` skips a hook the user has not trusted without a
// word, so a background task would run unguarded. It asks Codex itself:
// its app server's hooks/list (0.171.0) names every hook that applies in
// a directory with its trustStatus (trusted, managed or untrusted). It
// fails closed: a Codex that cannot say refuses the task too.
func HooksTrusted(ctx context.Context, cli, root string) error {
	hooks, err := listHooks(ctx, cli, root)
	if err != nil {
		return fmt.Errorf("refused: atreides cannot tell whether Codex runs its hooks in %s (%v), and `codex exec` skips untrusted hooks silently, so the task would run unguarded", root, err)
	}
	ours, untrusted := 0, 0
	for _, h := range hooks {
		if !h.Enabled || !atreidesHook(h.Command) {
			continue
		}
		ours++
		if h.TrustStatus != "trusted" && h.TrustStatus != "managed" {
			untrusted++
		}
	}
	switch {
	case ours == 0:
		return errors.New("refused: Codex runs none of atreides's hooks in this project, so a background task would run unguarded; run 'atreides install codex' first")
	case untrusted > 0:
		return fmt.Errorf("refused: Codex does not trust %d of atreides's %d hooks, and `codex exec` skips untrusted hooks silently, so the task would run unguarded. Trust them once: start `codex` in this project and trust atreides's hooks under /hooks (trust them again after reinstalling atreides with another binary path or timeout)", untrusted, ours)
	}
	return nil
}

// listedHook is one hook of hooks/list's answer.
type listedHook struct {
	Command     string `json:"command"`
	Enabled     bool   `json:"enabled"`
	TrustStatus string `json:"trustStatus"`
}

// atreidesHook reports whether a hook's command is atreides's
// (`<dir>/atreides hook codex …`, as install writes it).
func atreidesHook(cmd string) bool {
	words, _, ok := shell.Argv(cmd)
	return ok && len(words) >= 3 && strings.TrimSuffix(filepath.Base(words[0]), ".exe") == "atreides" && words[1] == "hook" && words[2] == Host
}

// listHooks asks `codex app-server` (JSON-RPC over stdio) for the hooks
// that apply in root.
func listHooks(ctx context.Context, cli, root string) ([]listedHook, error) {
	ctx, cancel := context.WithTimeout(ctx, trustWait)
	defer cancel()
	cmd := exec.CommandContext(ctx, cli, "app-server")
	cmd.Dir = root
	in, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	cwd, _ := json.Marshal(root)
	_, err = io.WriteString(in, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":{"name":"atreides","version":"1"}}}
{"jsonrpc":"2.0","method":"initialized"}
{"jsonrpc":"2.0","id":2,"method":"hooks/list","params":{"cwds":[`+string(cwd)+`]}}
`)
	// A server that answered and ended before reading all of it made the
	// write fail: its answer, if any, is what counts.
	hooks, rerr := readHooks(out)
	if rerr != nil && err != nil {
		return nil, fmt.Errorf("%w (writing to it: %v)", rerr, err)
	}
	return hooks, rerr
}

// readHooks reads the app server's lines up to the answer to hooks/list.
func readHooks(r io.Reader) ([]listedHook, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 16<<20)
	for sc.Scan() {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result *struct {
				Data []struct {
					Hooks []listedHook `json:"hooks"`
				} `json:"data"`
			} `json:"result"`
			Error *struct {
				Message string `json:"message"`
			} `json:"error"`
		}
		if json.Unmarshal(sc.Bytes(), &msg) != nil || string(msg.ID) != "2" {
			continue
		}
		if msg.Error != nil || msg.Result == nil {
			return nil, fmt.Errorf("its app server refused hooks/list: %s", strings.TrimSpace(sc.Text()))
		}
		var out []listedHook
		for _, d := range msg.Result.Data {
			out = append(out, d.Hooks...)
		}
		return out, nil
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return nil, errors.New("its app server ended without answering hooks/list")
}
