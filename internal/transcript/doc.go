// Package transcript reads the hosts' transcripts (JSONL files that grow to
// hundreds of megabytes) from their end: the newest entries are what the
// context monitor, the stop gates and the delegation registry need, so
// only a bounded tail is ever read, a chunk at a time, and a line cut by
// the bound is never passed on. It also knows where Claude Code keeps a
// subagent's transcript.
package transcript
