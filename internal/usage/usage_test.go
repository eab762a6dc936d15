package usage

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/atreides-dev/atreides/internal/event"
)

// claudeAssistant is an assistant entry as Claude Code writes it.
func claudeAssistant(model string, in, cacheCreate, cacheRead, out int, extra string) string {
	return fmt.Sprintf(`{"parentUuid":"p","isSidechain":false,%s"message":{"id":"msg_x","type":"message","role":"assistant","model":%q,"content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":%d,"cache_creation_input_tokens":%d,"cache_read_input_tokens":%d,"output_tokens":%d}},"type":"assistant","uuid":"u"}`,
		extra, model, in, cacheCreate, cacheRead, out)
}

func sample(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func write(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOf(t *testing.T) {
	claude := sample(t, "claude-2.1.330.jsonl")
	cases := []struct {
		name, host, content string
		want                Usage
		ok                  bool
	}{
		{"claude 2.1.330 sample", "claude", claude, Usage{120, 200_000}, true},
		{"claude 2.1.197 sample", "claude", sample(t, "claude-2.1.197.jsonl"), Usage{120, 200_000}, true},
		{"codex sample: the host's window", "codex", sample(t, "codex-0.169.0.jsonl"), Usage{120, 258_400}, true},
		{"gemini sample: the model's window", "gemini", sample(t, "gemini-0.61.0.jsonl"), Usage{120, 1_048_576}, true},
		{"the last assistant entry counts, all four figures", "claude",
			claude + claudeAssistant("claude-opus-5-5", 10, 2000, 150000, 500, "") + "\n" + `{"type":"last-prompt"}` + "\n",
			Usage{152510, 200_000}, true},
		{"a model tagged [1m]", "claude", claude + claudeAssistant("claude-opus-4-8[1m]", 300000, 0, 0, 10, "") + "\n",
			Usage{300010, Million}, true},
		{"requestedModel tagged [1m]", "claude", claude + claudeAssistant("claude-opus-4-8", 1000, 0, 0, 0, `"requestedModel":"opus[1m]",`) + "\n",
			Usage{1000, Million}, true},
		{"more than the default window proves the 1M one", "claude", claude + claudeAssistant("claude-opus-4-8", 250000, 0, 0, 0, "") + "\n",
			Usage{250000, Million}, true},
		{"tail cut mid-line: the last whole entry", "claude",
			claude + claudeAssistant("claude-opus-5-5", 9, 0, 150000, 0, "")[:200],
			Usage{120, 200_000}, true},
		{"compacted since: the size after it", "claude",
			claude + `{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"manual","preTokens":180000,"postTokens":4000}}` + "\n",
			Usage{4000, 200_000}, true},
		{"compacted, no size after it: unknown", "claude",
			claude + `{"type":"system","subtype":"compact_boundary","compactMetadata":{"trigger":"auto","preTokens":180000}}` + "\n", Usage{}, false},
		{"an answer after the compaction counts", "claude",
			claude + `{"type":"system","subtype":"compact_boundary","compactMetadata":{}}` + "\n" + claudeAssistant("m", 5000, 0, 0, 7, "") + "\n",
			Usage{5007, 200_000}, true},
		{"synthetic and error entries carry no usage", "claude",
			claude + claudeAssistant("<synthetic>", 0, 0, 0, 0, "") + "\n" + claudeAssistant("m", 99999, 0, 0, 0, `"isApiErrorMessage":true,`) + "\n",
			Usage{120, 200_000}, true},
		{"a subagent's entries in the session's transcript are not the lead's", "claude",
			claude + strings.Replace(claudeAssistant("m", 99999, 0, 0, 0, ""), `"isSidechain":false`, `"isSidechain":true`, 1) + "\n",
			Usage{120, 200_000}, true},
		{"no assistant entry", "claude", `{"type":"user","message":{"role":"user","content":"hi"}}` + "\n", Usage{}, false},
		{"empty", "claude", "", Usage{}, false},
		{"codex compacted since", "codex", sample(t, "codex-0.169.0.jsonl") + `{"timestamp":"t","type":"compacted","payload":{"message":"summary"}}` + "\n", Usage{}, false},
		{"a host without transcript figures", "opencode", claude, Usage{}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ev := &event.Event{Host: c.host, Facts: testHosts[c.host], TranscriptPath: write(t, "t.jsonl", c.content)}
			got, ok := Of(ev, 200_000)
			if ok != c.ok || got != c.want {
				t.Errorf("Of = %+v, %v; want %+v, %v", got, ok, c.want, c.ok)
			}
		})
	}
}

func TestOfWithoutFile(t *testing.T) {
	dir := t.TempDir()
	for _, ev := range []*event.Event{
		{Host: "claude", Facts: testHosts["claude"]},
		{Host: "claude", Facts: testHosts["claude"], TranscriptPath: filepath.Join(dir, "missing.jsonl")},
		{Host: "claude", Facts: testHosts["claude"], TranscriptPath: dir}, // a directory
	} {
		if u, ok := Of(ev, 200_000); ok {
			t.Errorf("%q: got %+v, want unknown", ev.TranscriptPath, u)
		}
	}
}

func TestOfSubagent(t *testing.T) {
	dir := t.TempDir()
	main := filepath.Join(dir, "sess.jsonl")
	if err := os.WriteFile(main, []byte(claudeAssistant("m", 150000, 0, 0, 0, "")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ev := &event.Event{Host: "claude", Facts: testHosts["claude"], TranscriptPath: main, AgentID: "ad17e9d19d4b24701"}
	if u, ok := Of(ev, 200_000); ok {
		t.Fatalf("subagent without its own transcript: got %+v (the lead's), want unknown", u)
	}
	sub := filepath.Join(dir, "sess", "subagents", "agent-ad17e9d19d4b24701.jsonl")
	if err := os.MkdirAll(filepath.Dir(sub), 0o755); err != nil {
		t.Fatal(err)
	}
	line := strings.Replace(claudeAssistant("m", 3000, 0, 0, 20, ""), `"isSidechain":false`, `"isSidechain":true`, 1)
	if err := os.WriteFile(sub, []byte(line+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if u, ok := Of(ev, 200_000); !ok || u.Used != 3020 {
		t.Errorf("subagent with its own transcript: got %+v, %v; want 3020 used", u, ok)
	}
	for _, id := range []string{"../x", "a/b", ""} {
		ev := &event.Event{Host: "claude", Facts: testHosts["claude"], TranscriptPath: main, AgentID: id}
		if id == "" {
			continue
		}
		if _, ok := Of(ev, 200_000); ok {
			t.Errorf("agent id %q: read a file", id)
		}
	}
	for _, h := range []string{"codex", "gemini"} {
		ev := &event.Event{Host: h, Facts: testHosts[h], TranscriptPath: main, AgentID: "x"}
		if _, ok := Of(ev, 200_000); ok {
			t.Errorf("%s subagent: want unknown", h)
		}
	}
}

func TestOfEventFigures(t *testing.T) {
	ev := &event.Event{Host: "opencode", Facts: testHosts["opencode"], ContextUsed: 50_000}
	if u, ok := Of(ev, 100_000); !ok || u != (Usage{50_000, 100_000}) {
		t.Errorf("got %+v, %v", u, ok)
	}
	ev.ContextWindow = 400_000
	if u, _ := Of(ev, 100_000); u.Window != 400_000 {
		t.Errorf("the host's window: got %d", u.Window)
	}
}

func TestRoom(t *testing.T) {
	room := Room(100_000)
	if n, ok := room(&event.Event{Host: "opencode", Facts: testHosts["opencode"], ContextUsed: 60_000}); !ok || n != 40_000*BytesPerToken {
		t.Errorf("room = %d, %v", n, ok)
	}
	if _, ok := room(&event.Event{Host: "claude", Facts: testHosts["claude"]}); ok {
		t.Error("unknown usage has no room figure")
	}
	if n, _ := room(&event.Event{Host: "opencode", Facts: testHosts["opencode"], ContextUsed: 100_000}); n != 0 {
		t.Errorf("a full window: room %d", n)
	}
}

func TestPercent(t *testing.T) {
	for _, c := range []struct {
		u    Usage
		want int
	}{{Usage{139_999, 200_000}, 69}, {Usage{140_000, 200_000}, 70}, {Usage{1, 0}, 0}, {Usage{200_000, 200_000}, 100}} {
		if got := c.u.Percent(); got != c.want {
			t.Errorf("%+v: %d, want %d", c.u, got, c.want)
		}
	}
}

// TestCacheFollowsTheFile: a transcript that grew is read again.
func TestCacheFollowsTheFile(t *testing.T) {
	p := write(t, "t.jsonl", claudeAssistant("m", 1000, 0, 0, 0, "")+"\n")
	ev := &event.Event{Host: "claude", Facts: testHosts["claude"], TranscriptPath: p}
	if u, _ := Of(ev, 200_000); u.Used != 1000 {
		t.Fatalf("first read: %d", u.Used)
	}
	f, err := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(claudeAssistant("m", 2000, 0, 0, 0, "") + "\n")
	f.Close()
	if u, _ := Of(ev, 200_000); u.Used != 2000 {
		t.Errorf("after the file grew: %d, want 2000", u.Used)
	}
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.ReaderAt
	n atomic.Int64
}

func (c *countingReader) ReadAt(p []byte, off int64) (int, error) {
	n, err := c.r.ReadAt(p, off)
	c.n.Add(int64(n))
	return n, err
}

// TestHugeTranscriptReadsTheTail: a 64 MB transcript costs a few chunks
// when the figure is near its end, and never more than MaxTail when it is
// not there at all.
func TestHugeTranscriptReadsTheTail(t *testing.T) {
	filler := strings.Repeat(`{"type":"user","message":{"role":"user","content":"`+strings.Repeat("x", 1000)+`"}}`+"\n", 64<<10)
	near := filler + claudeAssistant("m", 7000, 0, 0, 0, "") + "\n" + filler[:200<<10]
	r := &countingReader{r: strings.NewReader(near)}
	u, ok := last(r, int64(len(near)), claudeLine(true))
	if !ok || u.Used != 7000 {
		t.Fatalf("got %+v, %v", u, ok)
	}
	if n := r.n.Load(); n > 300<<10 {
		t.Errorf("read %d bytes of a %d-byte transcript for a figure 200 KiB from its end", n, len(near))
	}
	far := claudeAssistant("m", 7000, 0, 0, 0, "") + "\n" + filler
	r = &countingReader{r: strings.NewReader(far)}
	if u, ok := last(r, int64(len(far)), claudeLine(true)); ok {
		t.Errorf("a figure beyond MaxTail was found: %+v", u)
	}
	if n := r.n.Load(); n > MaxTail {
		t.Errorf("read %d bytes, more than MaxTail %d", n, MaxTail)
	}
}

// TestLongLastLine: an entry longer than a chunk is put together whole.
func TestLongLastLine(t *testing.T) {
	long := claudeAssistant("m", 4242, 0, 0, 0, "") // then pad its text
	long = strings.Replace(long, `"text":"ok"`, `"text":"`+strings.Repeat("y", 3*chunk)+`"`, 1)
	content := sample(t, "claude-2.1.330.jsonl") + long + "\n" + `{"type":"user","message":{"content":"` + strings.Repeat("z", chunk) + `"}}` + "\n"
	ev := &event.Event{Host: "claude", Facts: testHosts["claude"], TranscriptPath: write(t, "t.jsonl", content)}
	if u, ok := Of(ev, 200_000); !ok || u.Used != 4242 {
		t.Errorf("got %+v, %v", u, ok)
	}
}
