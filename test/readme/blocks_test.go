package readme

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// installTag is the info string that marks a README block for this test.
const installTag = "sh install-test"

// block is one fenced block of the README marked installTag.
type block struct {
	line  int // the line of its opening fence, for messages
	lines []string
}

// name is the block's subtest name: its line and the channels its
// checks name.
func (b block) name() string {
	n := fmt.Sprintf("line%d", b.line)
	for _, c := range checksFor(b) {
		n += "_" + c.name
	}
	return n
}

// script is the block's text as bash runs it.
func (b block) script() string { return strings.Join(b.lines, "\n") + "\n" }

// installBlocks reads the README's fenced blocks marked installTag. A
// block left open is an error: what follows it would be run as commands.
func installBlocks(path string) ([]block, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read the README: %w", err)
	}
	defer f.Close()
	var (
		out   []block
		cur   *block
		fence string
		n     int
	)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		n++
		line := sc.Text()
		trimmed := strings.TrimSpace(line)
		switch {
		case fence == "" && strings.HasPrefix(trimmed, "```"):
			fence = "```"
			if strings.TrimSpace(strings.TrimPrefix(trimmed, "```")) == installTag {
				cur = &block{line: n}
			}
		case fence != "" && trimmed == fence:
			if cur != nil {
				out = append(out, *cur)
			}
			fence, cur = "", nil
		case cur != nil:
			cur.lines = append(cur.lines, line)
		}
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read %s: %w", path, err)
	}
	if fence != "" {
		return nil, fmt.Errorf("%s: a fenced block is never closed", path)
	}
	return out, nil
}

// TestInstallBlocksParse: the parser takes exactly the marked blocks, with
// their lines, and refuses a README whose block is left open.
func TestInstallBlocksParse(t *testing.T) {
	dir := t.TempDir()
	path := dir + "/README.md"
	text := "# x\n\n```sh\nnot this\n```\n\n```sh install-test\nnpm install -g @atreides-dev/atreides\nx init\n```\n\n```\nnor this\n```\n```sh install-test\nFOO=1 gemini go\n```\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := installBlocks(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0].script() != "npm install -g @atreides-dev/atreides\nx init\n" || got[1].script() != "FOO=1 gemini go\n" {
		t.Fatalf("blocks = %+v", got)
	}
	if got[0].name() != "line7_npm" || got[1].name() != "line15" {
		t.Fatalf("names = %q, %q", got[0].name(), got[1].name())
	}
	if err := os.WriteFile(path, []byte("```sh install-test\nnpm i\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := installBlocks(path); err == nil {
		t.Fatal("an unclosed block parsed without an error")
	}
}
