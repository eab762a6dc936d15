package usage

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"

	"github.com/atreides-dev/atreides/internal/transcript"
)

// step is what one transcript line says about the context's size.
type step int

const (
	next  step = iota // nothing: look further back
	found             // the line gives the size
	reset             // compacted since any earlier figure: unknown unless the line gives the new size
)

// lineFunc reads one transcript line.
type lineFunc func(line []byte) (Usage, step)

// last scans the tail of a transcript for the newest figure.
func last(r io.ReaderAt, size int64, line lineFunc) (Usage, bool) {
	var u Usage
	var ok bool
	_, _ = transcript.ScanTail(r, size, MaxTail, chunk, func(l []byte) bool {
		got, s := line(l)
		if s == next {
			return false
		}
		u, ok = got, got.Used > 0
		return true
	})
	return u, ok
}

// claudeLine reads a Claude Code transcript line. In the session's own
// transcript (main), entries of subagents (isSidechain, written there by
// older versions) are not the lead agent's.
func claudeLine(main bool) lineFunc {
	return func(l []byte) (Usage, step) {
		boundary := bytes.Contains(l, []byte(`"compact_boundary"`))
		if !boundary && !hasType(l, "assistant") {
			return Usage{}, next
		}
		var e struct {
			Type            string `json:"type"`
			Subtype         string `json:"subtype"`
			IsSidechain     bool   `json:"isSidechain"`
			IsAPIError      bool   `json:"isApiErrorMessage"`
			RequestedModel  string `json:"requestedModel"`
			CompactMetadata struct {
				PostTokens int `json:"postTokens"`
			} `json:"compactMetadata"`
			Message struct {
				Model string `json:"model"`
				Usage *struct {
					Input         int `json:"input_tokens"`
					CacheCreation int `json:"cache_creation_input_tokens"`
					CacheRead     int `json:"cache_read_input_tokens"`
					Output        int `json:"output_tokens"`
				} `json:"usage"`
			} `json:"message"`
		}
		if json.Unmarshal(l, &e) != nil {
			return Usage{}, next // cut, or not an entry
		}
		switch {
		case e.Type == "system" && e.Subtype == "compact_boundary":
			return Usage{Used: e.CompactMetadata.PostTokens}, reset
		case e.Type != "assistant" || e.IsAPIError || e.Message.Usage == nil || e.Message.Model == "<synthetic>":
			return Usage{}, next
		case main && e.IsSidechain:
			return Usage{}, next
		}
		n := e.Message.Usage
		u := Usage{Used: n.Input + n.CacheCreation + n.CacheRead + n.Output}
		if u.Used <= 0 {
			return Usage{}, next
		}
		if oneMillion(e.RequestedModel) || oneMillion(e.Message.Model) {
			u.Window = Million
		}
		return u, found
	}
}

// oneMillion reports whether a Claude model id names the 1M-token context.
func oneMillion(model string) bool {
	return strings.HasSuffix(strings.ToLower(model), "[1m]")
}

// codexLine reads a Codex rollout line: token_count events carry the last
// request's usage and the model's window; a compacted entry replaces the
// history.
func codexLine(l []byte) (Usage, step) {
	tc := bytes.Contains(l, []byte(`"token_count"`))
	if !tc && !hasType(l, "compacted") {
		return Usage{}, next
	}
	var e struct {
		Type    string `json:"type"`
		Payload struct {
			Type string `json:"type"`
			Info *struct {
				Last struct {
					Input  int `json:"input_tokens"`
					Output int `json:"output_tokens"`
				} `json:"last_token_usage"`
				Window int `json:"model_context_window"`
			} `json:"info"`
		} `json:"payload"`
	}
	if json.Unmarshal(l, &e) != nil {
		return Usage{}, next
	}
	switch {
	case e.Type == "compacted":
		return Usage{}, reset
	case e.Type != "event_msg" || e.Payload.Type != "token_count" || e.Payload.Info == nil:
		return Usage{}, next
	}
	i := e.Payload.Info
	u := Usage{Used: i.Last.Input + i.Last.Output, Window: i.Window}
	if u.Used <= 0 {
		return Usage{}, next
	}
	return u, found
}

// geminiLine reads a Gemini CLI chat recording line: each model answer is
// a "gemini" entry with its request's token counts.
func geminiLine(l []byte) (Usage, step) {
	if !hasType(l, "gemini") || !bytes.Contains(l, []byte(`"tokens"`)) {
		return Usage{}, next
	}
	var e struct {
		Type   string `json:"type"`
		Model  string `json:"model"`
		Tokens *struct {
			Input  int `json:"input"`
			Output int `json:"output"`
		} `json:"tokens"`
	}
	if json.Unmarshal(l, &e) != nil || e.Type != "gemini" || e.Tokens == nil {
		return Usage{}, next
	}
	u := Usage{Used: e.Tokens.Input + e.Tokens.Output}
	if u.Used <= 0 {
		return Usage{}, next
	}
	if strings.HasPrefix(e.Model, "gemini-") {
		u.Window = geminiWindow
	}
	return u, found
}

// hasType is a cheap test, before any JSON is parsed, that a line may be
// an entry of type t; hosts write compact JSON, a spaced one is allowed.
func hasType(l []byte, t string) bool {
	return bytes.Contains(l, []byte(`"type":"`+t+`"`)) || bytes.Contains(l, []byte(`"type": "`+t+`"`))
}
