package demo

import (
	"bufio"
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

//go:embed session.jsonl
var recorded []byte

// Step is one recorded hook call.
type Step struct {
	Note    string          `json:"note"`
	Payload json.RawMessage `json:"payload"`
	Raw     string          `json:"raw"` // a payload that is deliberately not valid JSON
}

// Steps returns the recorded session with its placeholders filled in.
func Steps(projectDir, home, sessionID string) ([]Step, error) {
	r := strings.NewReplacer("__PROJ__", projectDir, "__HOME__", home, "__SID__", sessionID)
	var steps []Step
	sc := bufio.NewScanner(bytes.NewReader(recorded))
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for n := 1; sc.Scan(); n++ {
		var s Step
		// Placeholders are replaced after decoding so that paths with
		// quotes or backslashes cannot break the JSON.
		if err := json.Unmarshal(sc.Bytes(), &s); err != nil {
			return nil, fmt.Errorf("recorded session line %d: %w", n, err)
		}
		s.Note = r.Replace(s.Note)
		if s.Raw != "" {
			s.Raw = r.Replace(s.Raw)
		} else {
			p, err := replaceStrings(s.Payload, r)
			if err != nil {
				return nil, fmt.Errorf("recorded session line %d: %w", n, err)
			}
			s.Payload = p
		}
		steps = append(steps, s)
	}
	return steps, sc.Err()
}

func replaceStrings(raw json.RawMessage, r *strings.Replacer) (json.RawMessage, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	v = walk(v, r)
	return json.Marshal(v)
}

func walk(v any, r *strings.Replacer) any {
	switch x := v.(type) {
	case string:
		return r.Replace(x)
	case map[string]any:
		for k, e := range x {
			x[k] = walk(e, r)
		}
	case []any:
		for i, e := range x {
			x[i] = walk(e, r)
		}
	}
	return v
}

// Input is the bytes the step sends on the hook's stdin.
func (s Step) Input() []byte {
	if s.Raw != "" {
		return []byte(s.Raw)
	}
	return s.Payload
}

// EventName is the hook event the step carries.
func (s Step) EventName() string {
	var p struct {
		Name string `json:"hook_event_name"`
		Tool string `json:"tool_name"`
	}
	if json.Unmarshal(s.Input(), &p) != nil {
		return "(malformed)"
	}
	if p.Tool != "" {
		return p.Name + ":" + p.Tool
	}
	return p.Name
}

// Outcome is what one hook process answered.
type Outcome struct {
	Stdout   string
	Stderr   string
	Exit     int
	Duration time.Duration
}

// Run starts one hook process as Claude Code would: the payload on stdin,
// the project directory in CLAUDE_PROJECT_DIR.
func Run(bin []string, env []string, dir string, input []byte) (Outcome, error) {
	cmd := exec.Command(bin[0], bin[1:]...)
	cmd.Dir, cmd.Env = dir, env
	cmd.Stdin = bytes.NewReader(input)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	o := Outcome{Stdout: out.String(), Stderr: errb.String(), Duration: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		o.Exit = ee.ExitCode()
		return o, nil
	}
	if err != nil {
		return o, fmt.Errorf("run hook: %w", err)
	}
	return o, nil
}

// Describe summarizes a hook answer for a person.
func Describe(o Outcome) string {
	out := strings.TrimSpace(o.Stdout)
	if out == "" {
		if o.Exit != 0 {
			return fmt.Sprintf("exit %d: %s", o.Exit, strings.TrimSpace(o.Stderr))
		}
		return "no objection"
	}
	var a struct {
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
		HSO      struct {
			PermissionDecision       string `json:"permissionDecision"`
			PermissionDecisionReason string `json:"permissionDecisionReason"`
			AdditionalContext        string `json:"additionalContext"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &a); err != nil {
		return "unreadable answer: " + out
	}
	var parts []string
	if d := a.HSO.PermissionDecision; d != "" {
		parts = append(parts, strings.ToUpper(d)+": "+a.HSO.PermissionDecisionReason)
	}
	if a.Decision == "block" {
		parts = append(parts, "BLOCK (keep going): "+a.Reason)
	}
	if c := a.HSO.AdditionalContext; c != "" {
		parts = append(parts, "context for the model: "+c)
	}
	if o.Exit != 0 {
		parts = append(parts, fmt.Sprintf("(exit %d)", o.Exit))
	}
	return strings.Join(parts, "\n")
}
