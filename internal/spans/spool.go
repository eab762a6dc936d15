package spans

import "github.com/atreides-dev/atreides/internal/audit"

// SpoolName is the spool's name in the state directory: spans.jsonl and
// its rotated segments spans-<time>-<pid>.jsonl.
const SpoolName = "spans"

// Spool is the span spool of a project's state directory, kept at most
// maxBytes (asked for once per 64 KiB written; 0 or less: unbounded).
func Spool(stateDir string, maxBytes func() int64) *audit.Trail {
	return audit.NewNamed(stateDir, SpoolName, maxBytes)
}
