// Package usage reads how full an agent's context window is, from the
// host's own figures: nothing is estimated from text.
//
//   - Claude Code: the transcript (JSONL) named by the event. The last
//     assistant entry's message.usage gives input + cache creation + cache
//     read + output tokens, the sum Claude Code itself shows; a
//     compact_boundary entry after it means the context was compacted
//     since (its compactMetadata.postTokens, when present, is the new
//     size; else the size is unknown until the next answer). Synthetic and
//     API-error entries carry no real usage and are skipped. A subagent
//     has its own transcript beside the session's
//     (<session>/subagents/agent-<id>.jsonl); without it a subagent's
//     usage is unknown, never the lead agent's.
//   - Codex: the rollout's last token_count event: last_token_usage
//     (input, which includes cached input, + output) and the host's own
//     model_context_window; a compacted entry after it makes it unknown.
//   - Gemini CLI: the chat recording's last "gemini" entry's tokens
//     (input, which includes cached input, + output).
//   - OpenCode: no file; the mapper puts the last assistant message's
//     token count into the event ([event.Event.ContextUsed]).
//
// Only the tail of a transcript is read: it is scanned backwards in
// chunks, at most [MaxTail] bytes, since transcripts grow to hundreds of
// megabytes and a hook is on the agent's critical path. A line cut by a
// write in progress is skipped. Claude Code writes its transcript
// asynchronously: the figure a hook reads may be one answer old. Results are cached by file, size and
// modification time, so the handlers of one event read a transcript once.
//
// The window is the host's figure when it gives one (Codex), else the
// model's: Claude model ids tagged [1m] and Gemini models have 1M-token
// windows; else the caller's default (the config's
// context.monitor.window_tokens). A usage above the window proves the
// window larger: it is taken as the 1M window.
package usage
