package usage

import (
	"os"
	"sync"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/transcript"
)

// Usage is how full an agent's context window is, in tokens.
type Usage struct {
	Used, Window int
}

// Percent is the share of the window in use, rounded down.
func (u Usage) Percent() int {
	if u.Window <= 0 {
		return 0
	}
	return int(int64(u.Used) * 100 / int64(u.Window))
}

// Left is how many tokens the window still has room for.
func (u Usage) Left() int { return max(u.Window-u.Used, 0) }

// BytesPerToken is the rough size of a token of English text and code.
// Tokenizers differ (3 to 5 bytes a token for prose and source); 4 is the
// usual rule of thumb, and the room it gives is a budget, not a promise.
const BytesPerToken = 4

// Window sizes known from the model.
const (
	// Million is the window of Claude models run with the 1M-token
	// context (ids tagged "[1m]").
	Million = 1_000_000
	// geminiWindow is the window of Gemini models (Gemini CLI's own
	// token limit for them).
	geminiWindow = 1_048_576
)

// Of returns how full the context window of the agent behind ev is, or
// false when the host gave no figure (no transcript, none in its tail, a
// compaction since, a subagent whose own figures are not known). window
// is the size assumed when neither the host nor the model says.
func Of(ev *event.Event, window int) (Usage, bool) {
	if ev.ContextUsed > 0 {
		return fit(Usage{Used: ev.ContextUsed, Window: ev.ContextWindow}, window), true
	}
	path, line := source(ev)
	if path == "" {
		return Usage{}, false
	}
	u, ok := read(path, line)
	if !ok {
		return Usage{}, false
	}
	return fit(u, window), true
}

// Room is the shape the output truncation asks for: how many bytes of
// context are left for ev's agent ((window − used) × [BytesPerToken]), or
// false when unknown. window is as for [Of].
func Room(window int) func(ev *event.Event) (bytesLeft int, ok bool) {
	return func(ev *event.Event) (int, bool) {
		u, ok := Of(ev, window)
		if !ok {
			return 0, false
		}
		return u.Left() * BytesPerToken, true
	}
}

// fit fills in the window: the host's or model's, else the default; a
// usage above it proves the window larger (the 1M one, the only larger
// size a model the default stands for comes in).
func fit(u Usage, window int) Usage {
	if u.Window <= 0 {
		u.Window = window
	}
	if u.Window <= 0 {
		u.Window = 200_000
	}
	if u.Used > u.Window {
		u.Window = max(Million, u.Used)
	}
	return u
}

// source is the transcript that holds the figures of ev's agent, and how
// to read its lines; "" when there is none.
func source(ev *event.Event) (string, lineFunc) {
	if ev.TranscriptPath == "" {
		return "", nil
	}
	switch ev.HostFacts().Transcript {
	case event.ClaudeTranscript:
		if !ev.InSubagent() {
			return ev.TranscriptPath, claudeLine(true)
		}
		p := transcript.ClaudeSubagent(ev.TranscriptPath, ev.AgentID)
		if p == "" {
			return "", nil
		}
		return p, claudeLine(false)
	case event.CodexTranscript:
		if !ev.InSubagent() {
			return ev.TranscriptPath, codexLine
		}
	case event.GeminiTranscript:
		if !ev.InSubagent() {
			return ev.TranscriptPath, geminiLine
		}
	}
	return "", nil
}

// cacheSize is how many transcripts' figures are kept: one event needs
// one, a server serving several sessions a few.
const cacheSize = 8

type cached struct {
	path string
	size int64
	mod  time.Time
	u    Usage
	ok   bool
}

var cache struct {
	sync.Mutex
	entries [cacheSize]cached
	next    int
}

// read returns the last figure of the transcript at path, from the cache
// while the file has not changed.
func read(path string, line lineFunc) (Usage, bool) {
	f, err := os.Open(path)
	if err != nil {
		return Usage{}, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || !st.Mode().IsRegular() {
		return Usage{}, false
	}
	cache.Lock()
	for _, c := range cache.entries {
		if c.path == path && c.size == st.Size() && c.mod.Equal(st.ModTime()) {
			cache.Unlock()
			return c.u, c.ok
		}
	}
	cache.Unlock()

	u, ok := last(f, st.Size(), line)
	cache.Lock()
	cache.entries[cache.next] = cached{path: path, size: st.Size(), mod: st.ModTime(), u: u, ok: ok}
	cache.next = (cache.next + 1) % cacheSize
	cache.Unlock()
	return u, ok
}
