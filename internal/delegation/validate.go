package delegation

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/atreides-dev/atreides/internal/project"
)

// ReturnStatuses are the allowed values of a return object's status
// (seed-004).
var ReturnStatuses = []string{"completed", "partial", "failed", "blocked"}

// MaxSummaryWords bounds a return object's summary: it is what the parent
// reads instead of the subagent's work, so it must fit a glance; details
// belong in artifacts.
const MaxSummaryWords = 100

// maxListed bounds the missing artifacts named in one finding.
const maxListed = 5

// ReturnInstructions tell a subagent how to end; session is the session id
// it may put in metadata.
func ReturnInstructions(session string) string {
	return fmt.Sprintf(`End with your final message being only this JSON object (no prose around it):
{"status": "completed|partial|failed|blocked", "summary": "at most %d words", "artifacts": ["paths of files you wrote, project-relative"], "metadata": {"session_id": %q}, "errors": [...], "next_steps": [...]}`, MaxSummaryWords, session)
}

// Return is a valid return object's gist.
type Return struct {
	Status  string
	Summary string
}

// ValidateReturn checks a subagent's final message against the return
// object {status, summary, artifacts, metadata, errors, next_steps} and
// lists what is wrong (nil when it is valid). The object may stand alone
// or sit in a ```json fence. Artifacts must exist inside the project at
// root (project-relative or absolute paths); a session id in metadata
// must be session.
func ValidateReturn(msg, root, session string) (Return, []string) {
	var r Return
	text := extractJSON(msg)
	if text == "" {
		return r, []string{"no JSON object found"}
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(text), &obj); err != nil {
		return r, []string{"not valid JSON: " + err.Error()}
	}
	bad := shapeErrors(obj)
	if kind(obj, "status") == "string" {
		_ = json.Unmarshal(obj["status"], &r.Status)
		if !slices.Contains(ReturnStatuses, r.Status) {
			bad = append(bad, fmt.Sprintf("status %q is not one of %s", r.Status, strings.Join(ReturnStatuses, ", ")))
		}
	}
	if kind(obj, "summary") == "string" {
		_ = json.Unmarshal(obj["summary"], &r.Summary)
		switch n := len(strings.Fields(r.Summary)); {
		case n == 0:
			bad = append(bad, "summary is empty")
		case n > MaxSummaryWords:
			bad = append(bad, fmt.Sprintf("summary has %d words, over %d", n, MaxSummaryWords))
		}
	}
	if kind(obj, "artifacts") == "array" {
		var arts []any
		_ = json.Unmarshal(obj["artifacts"], &arts)
		if missing := missingArtifacts(arts, root); len(missing) > 0 {
			bad = append(bad, "artifacts not found in the project: "+listed(missing))
		}
	}
	if kind(obj, "metadata") == "object" {
		var meta struct {
			SessionID string `json:"session_id"`
		}
		_ = json.Unmarshal(obj["metadata"], &meta)
		if meta.SessionID != "" && session != "" && meta.SessionID != session {
			bad = append(bad, fmt.Sprintf("metadata.session_id %q is not this session (%s)", meta.SessionID, session))
		}
	}
	return r, bad
}

func shapeErrors(obj map[string]json.RawMessage) []string {
	var bad []string
	want := []struct{ key, kind string }{
		{"status", "string"}, {"summary", "string"}, {"artifacts", "array"},
		{"metadata", "object"}, {"errors", "array"}, {"next_steps", "array"},
	}
	for _, w := range want {
		switch k := kind(obj, w.key); k {
		case "":
			bad = append(bad, "missing "+w.key)
		case w.kind:
		default:
			bad = append(bad, fmt.Sprintf("%s must be a%s %s, not %s", w.key, article(w.kind), w.kind, k))
		}
	}
	return bad
}

// kind is the JSON kind of obj[key], "" when absent.
func kind(obj map[string]json.RawMessage, key string) string {
	raw, ok := obj[key]
	if !ok {
		return ""
	}
	switch t := strings.TrimSpace(string(raw)); {
	case strings.HasPrefix(t, "{"):
		return "object"
	case strings.HasPrefix(t, "["):
		return "array"
	case strings.HasPrefix(t, `"`):
		return "string"
	case t == "null":
		return "null"
	default:
		return "other"
	}
}

// missingArtifacts lists the artifacts that are no file or directory
// inside the project. An artifact is a path, or an object naming one
// under "path"; a path outside the project counts as missing, since the
// parent is told to rely on it.
func missingArtifacts(arts []any, root string) []string {
	var missing []string
	for _, a := range arts {
		p, _ := a.(string)
		if m, ok := a.(map[string]any); ok {
			p, _ = m["path"].(string)
		}
		if p == "" {
			continue
		}
		rel, inside := project.Rel(root, root, p)
		if !inside {
			missing = append(missing, p+" (outside the project)")
			continue
		}
		// Lstat: a link is the artifact, wherever it points.
		if _, err := os.Lstat(filepath.Join(root, filepath.FromSlash(rel))); err != nil {
			missing = append(missing, p)
		}
	}
	return missing
}

func listed(s []string) string {
	if len(s) > maxListed {
		return strings.Join(s[:maxListed], ", ") + fmt.Sprintf(" and %d more", len(s)-maxListed)
	}
	return strings.Join(s, ", ")
}

func article(kind string) string {
	if kind == "object" || kind == "array" {
		return "n"
	}
	return ""
}

func extractJSON(msg string) string {
	t := strings.TrimSpace(msg)
	if strings.HasPrefix(t, "{") {
		return t
	}
	if i := strings.Index(t, "```json"); i >= 0 {
		rest := t[i+len("```json"):]
		if j := strings.Index(rest, "```"); j >= 0 {
			return strings.TrimSpace(rest[:j])
		}
	}
	if i, j := strings.Index(t, "{"), strings.LastIndex(t, "}"); i >= 0 && j > i {
		return t[i : j+1]
	}
	return ""
}
