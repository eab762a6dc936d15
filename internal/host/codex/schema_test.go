package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/atreides-dev/atreides/internal/event"
	"github.com/atreides-dev/atreides/internal/host"
)

// schemaDir holds the hook schemas built into the pinned Codex binary
// (see its README).
const schemaDir = "testdata/schema"

// schemaName is the file stem Codex gives an event's schemas:
// PreToolUse → pre-tool-use.
func schemaName(hostEvent string) string {
	var b strings.Builder
	for i, r := range hostEvent {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('-')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// compileSchema compiles one vendored schema; kind is "input" or "output".
func compileSchema(t *testing.T, hostEvent, kind string) *jsonschema.Schema {
	t.Helper()
	path := filepath.Join(schemaDir, schemaName(hostEvent)+".command."+kind+".schema.json")
	sch, err := jsonschema.NewCompiler().Compile(path)
	if err != nil {
		t.Fatalf("%s %s schema: %v", hostEvent, kind, err)
	}
	return sch
}

// outputSchemas are the output schemas of the events atreides answers;
// SessionEnd has none (Codex reads no answer to it).
func outputSchemas(t *testing.T) map[string]*jsonschema.Schema {
	t.Helper()
	out := map[string]*jsonschema.Schema{}
	for _, ev := range DefaultEvents {
		if ev != "SessionEnd" {
			out[ev] = compileSchema(t, ev, "output")
		}
	}
	if _, err := os.Stat(filepath.Join(schemaDir, "session-end.command.output.schema.json")); !errors.Is(err, os.ErrNotExist) {
		t.Error("Codex now publishes a SessionEnd output schema: Encode answers nothing there")
	}
	return out
}

// TestAnswersMatchSchema puts every decision the engine can make, on
// every event atreides registers and every kind of tool, through Encode,
// and checks each answer against the event's output schema and the rules
// Codex enforces beyond it. The unreadable-payload answers are checked the
// same way.
func TestAnswersMatchSchema(t *testing.T) {
	schemas := outputSchemas(t)
	n := 0
	for _, hostEvent := range DefaultEvents {
		for _, ev := range schemaEvents(hostEvent) {
			for _, d := range allDecisions() {
				n++
				checkAnswer(t, schemas[hostEvent], ev, d, Encode(ev, d))
			}
		}
		// The fail-closed answers: to a payload that cannot be read, and
		// in place of an answer that cannot be encoded.
		bare := &event.Event{HostEvent: hostEvent}
		checkAnswer(t, schemas[hostEvent], bare, unreadable(hostEvent), Adapter{}.Unreadable(hostEvent, errors.New("bad payload")))
		checkAnswer(t, schemas[hostEvent], bare, unreadable(hostEvent), failClosed(hostEvent, "cannot encode"))
		if t.Failed() {
			return // one event's failures are enough to read
		}
	}
	t.Logf("%d answers checked", n)
}

// unreadable is the decision an unreadable payload stands for: a deny on
// a tool call, nothing elsewhere.
func unreadable(hostEvent string) *event.Decision {
	if hostEvent == "PreToolUse" || hostEvent == "PermissionRequest" {
		return &event.Decision{Verdict: event.Deny, Reason: "unreadable"}
	}
	return &event.Decision{}
}

// schemaEvents are the events of hostEvent to encode for: a tool event
// once per kind of tool Codex hooks, anything else once.
func schemaEvents(hostEvent string) []*event.Event {
	switch hostEvent {
	case "PreToolUse", "PermissionRequest", "PostToolUse":
	default:
		return []*event.Event{{HostEvent: hostEvent}}
	}
	var out []*event.Event
	for _, raw := range []string{"Bash", "apply_patch", "spawn_agent", "mcp__memory__store"} {
		tool, _ := NormalizeTool(raw, json.RawMessage(`{}`))
		// A shell command's output is text Codex lets a block replace.
		out = append(out, &event.Event{HostEvent: hostEvent, Tool: tool, ReplacesOutput: tool.Name == event.Shell})
	}
	return out
}

// allDecisions is every combination of what a decision can hold: each
// verdict with and without a reason; no rewrite, a shell rewrite, another
// tool's input, a null command and input that is not JSON; context; a
// block with and without a reason; warnings; an output replacement.
func allDecisions() []*event.Decision {
	cut := "[atreides: output cut]"
	rewrites := []json.RawMessage{nil, json.RawMessage(`{"command":"ls -a"}`), json.RawMessage(`{"agent_type":"explorer","message":"look"}`), json.RawMessage(`{"command":null}`), json.RawMessage(`{not json`)}
	var out []*event.Decision
	for _, v := range []event.Verdict{event.None, event.Allow, event.Ask, event.Deny} {
		for _, reason := range []string{"", "why"} {
			for _, rw := range rewrites {
				for _, ctx := range [][]event.Entry{nil, {{Text: "phase: implementation"}}} {
					for _, block := range []string{"-", "", "todos open"} {
						for _, warn := range [][]string{nil, {"config broken"}} {
							for _, replace := range []*string{nil, &cut} {
								out = append(out, &event.Decision{
									Verdict: v, Reason: reason, UpdatedInput: rw, Context: ctx,
									Block: block != "-", BlockReason: strings.TrimPrefix(block, "-"),
									Warnings: warn, ReplaceOutput: replace,
								})
							}
						}
					}
				}
			}
		}
	}
	return out
}

// checkAnswer checks one answer: its exit code, its JSON against the
// event's schema, Codex's own rules, and that it means what d says.
func checkAnswer(t *testing.T, sch *jsonschema.Schema, ev *event.Event, d *event.Decision, ans host.Answer) {
	t.Helper()
	fail := func(format string, args ...any) {
		t.Helper()
		t.Errorf("%s %s %+v:\n%s\nexit %d: %s", ev.HostEvent, ev.Tool.Raw, *d, ans.Stdout, ans.Exit, fmt.Sprintf(format, args...))
	}
	if msg := checkExit(ev.HostEvent, ans); msg != "" {
		fail("%s", msg)
	}
	if len(ans.Stdout) == 0 {
		if msg := meansNothing(ev, d); msg != "" {
			fail("no answer, but %s", msg)
		}
		return
	}
	if ev.HostEvent == "SessionEnd" {
		fail("Codex reads no answer to SessionEnd")
		return
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(ans.Stdout))
	if err != nil {
		fail("not JSON: %v", err)
		return
	}
	if err := sch.Validate(inst); err != nil {
		fail("schema: %v", err)
	}
	var a answer
	if err := json.Unmarshal(ans.Stdout, &a); err != nil {
		fail("%v", err)
		return
	}
	for _, msg := range a.violations(ev.HostEvent) {
		fail("Codex rejects this: %s", msg)
	}
	if msg := a.means(ev, d); msg != "" {
		fail("%s", msg)
	}
}

// checkExit wants exit 0, or exit 2 with a reason on stderr on a tool
// call (the fail-closed block); Codex treats any other code as a failed
// hook, which lets the call run.
func checkExit(hostEvent string, ans host.Answer) string {
	switch {
	case ans.Exit == 0:
		return ""
	case ans.Exit != 2:
		return "an exit code Codex reads as a failed hook"
	case hostEvent != "PreToolUse" && hostEvent != "PermissionRequest":
		return "exit 2 outside a tool call"
	case strings.TrimSpace(ans.Stderr) == "":
		return "exit 2 without a reason on stderr"
	}
	return ""
}

// meansNothing says what an empty answer loses of d, or "" when d asks
// for nothing Codex can do on the event.
func meansNothing(ev *event.Event, d *event.Decision) string {
	switch ev.HostEvent {
	case "PreToolUse":
		if d.Verdict >= event.Ask || (d.UpdatedInput != nil && d.Verdict != event.Deny) {
			return "the verdict or rewrite is lost"
		}
	case "PermissionRequest":
		if d.Verdict == event.Deny || d.Verdict == event.Allow {
			return "the verdict is lost"
		}
	case "Stop", "SubagentStop", "UserPromptSubmit", "PostToolUse":
		if d.Block {
			return "the block is lost"
		}
	}
	return ""
}

// answer is Codex's answer object, every field of every event's schema.
type answer struct {
	Continue       *bool   `json:"continue"`
	SuppressOutput *bool   `json:"suppressOutput"`
	StopReason     *string `json:"stopReason"`
	SystemMessage  *string `json:"systemMessage"`
	Decision       *string `json:"decision"`
	Reason         *string `json:"reason"`
	Specific       *struct {
		PermissionDecision       *string         `json:"permissionDecision"`
		PermissionDecisionReason *string         `json:"permissionDecisionReason"`
		UpdatedInput             json.RawMessage `json:"updatedInput"`
		AdditionalContext        *string         `json:"additionalContext"`
		UpdatedMCPToolOutput     json.RawMessage `json:"updatedMCPToolOutput"`
		Decision                 *struct {
			Behavior           string          `json:"behavior"`
			Message            *string         `json:"message"`
			Interrupt          *bool           `json:"interrupt"`
			UpdatedInput       json.RawMessage `json:"updatedInput"`
			UpdatedPermissions json.RawMessage `json:"updatedPermissions"`
		} `json:"decision"`
	} `json:"hookSpecificOutput"`
}

func blank(s *string) bool { return s == nil || strings.TrimSpace(*s) == "" }

// violations are the rules Codex 0.171.0 enforces when it parses an
// answer, beyond its schema: each is one of the messages in its binary
// ("PreToolUse hook returned unsupported permissionDecision:ask", ...),
// and each marks the hook failed, so the call runs as if unhooked.
func (a *answer) violations(hostEvent string) []string {
	var v []string
	add := func(cond bool, msg string) {
		if cond {
			v = append(v, msg)
		}
	}
	// atreides never stops a session or hides a hook's output.
	add(a.Continue != nil, "continue")
	add(a.SuppressOutput != nil, "suppressOutput")
	add(a.StopReason != nil, "stopReason")
	add(a.Decision != nil && *a.Decision == "block" && blank(a.Reason), "decision:block without a non-empty reason")
	add(a.Reason != nil && a.Decision == nil, "reason without decision")
	switch hostEvent {
	case "PreToolUse":
		v = append(v, a.preToolUse()...)
	case "PermissionRequest":
		if hs := a.Specific; hs != nil && hs.Decision != nil {
			add(hs.Decision.Interrupt != nil, "interrupt")
			add(hs.Decision.UpdatedInput != nil, "updatedInput (Codex fails closed)")
			add(hs.Decision.UpdatedPermissions != nil, "updatedPermissions")
			add(hs.Decision.Behavior == "deny" && blank(hs.Decision.Message), "deny without a message for the model")
		}
	case "PostToolUse":
		add(a.Specific != nil && a.Specific.UpdatedMCPToolOutput != nil, "updatedMCPToolOutput")
	}
	return v
}

// preToolUse are PreToolUse's rules: no decision/reason of the old form,
// never ask, no plain allow (0.171.0 marks a bare allow, and an allow with
// only a reason, failed), updatedInput only with allow and only in the
// shape seen to work (an object with a string command), a deny with a
// reason.
func (a *answer) preToolUse() []string {
	var v []string
	add := func(cond bool, msg string) {
		if cond {
			v = append(v, msg)
		}
	}
	add(a.Decision != nil, "decision (approve/block are the old form)")
	hs := a.Specific
	if hs == nil {
		return v
	}
	pd := ""
	if hs.PermissionDecision != nil {
		pd = *hs.PermissionDecision
	}
	add(pd == "ask", "permissionDecision:ask")
	add(pd == "allow" && hs.UpdatedInput == nil, "permissionDecision:allow without updatedInput")
	add(pd == "deny" && blank(hs.PermissionDecisionReason), "permissionDecision:deny without a non-empty permissionDecisionReason")
	add(pd == "" && hs.PermissionDecisionReason != nil, "permissionDecisionReason without permissionDecision")
	add(hs.UpdatedInput != nil && pd != "allow", "updatedInput without permissionDecision:allow")
	if hs.UpdatedInput != nil {
		var in map[string]json.RawMessage
		add(json.Unmarshal(hs.UpdatedInput, &in) != nil || len(in["command"]) == 0 || in["command"][0] != '"',
			"updatedInput without string field `command`")
	}
	return v
}

// means says how the answer differs from what d asks for, or "".
func (a *answer) means(ev *event.Event, d *event.Decision) string {
	hs := a.Specific
	switch ev.HostEvent {
	case "PreToolUse":
		pd := ""
		if hs != nil && hs.PermissionDecision != nil {
			pd = *hs.PermissionDecision
		}
		switch {
		case d.Verdict >= event.Ask && pd != "deny":
			return "a deny or ask that does not deny"
		case pd == "allow" && (d.Verdict >= event.Ask || ev.Tool.Name != event.Shell):
			return "a rewrite Codex does not make"
		case d.UpdatedInput != nil && d.Verdict != event.Deny && pd == "":
			return "a rewrite dropped without a deny"
		}
	case "PermissionRequest":
		if d.Verdict == event.Deny && (hs == nil || hs.Decision == nil || hs.Decision.Behavior != "deny") {
			return "a deny that does not deny"
		}
	case "Stop", "SubagentStop", "UserPromptSubmit", "PostToolUse":
		if d.Block && a.Decision == nil {
			return "a block that does not block"
		}
	}
	return ""
}

// TestSchemaRulesCatch: the checks above refuse the answers Codex 0.171.0
// rejects (each seen as "hook: PreToolUse Failed" in a real run, or named
// by a message in its binary), so a passing table means something.
func TestSchemaRulesCatch(t *testing.T) {
	schemas := outputSchemas(t)
	bad := []struct{ event, json string }{
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"ask","permissionDecisionReason":"r"}}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow"}}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","permissionDecisionReason":"fine"}}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","updatedInput":{"command":"ls"}}}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":"ls"}}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"allow","updatedInput":{"command":null}}}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny"}}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PreToolUse","permissionDecision":"deny","permissionDecisionReason":"r","extra":1}}`},
		{"PreToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse"}}`},
		{"PreToolUse", `{"decision":"approve"}`},
		{"PermissionRequest", `{"hookSpecificOutput":{"hookEventName":"PermissionRequest","decision":{"behavior":"allow","updatedInput":{}}}}`},
		{"PostToolUse", `{"reason":"r"}`},
		{"PostToolUse", `{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":"x"}}`},
		{"Stop", `{"decision":"block","reason":" "}`},
		{"SessionStart", `{"decision":"block","reason":"r"}`},
		{"PreCompact", `{"hookSpecificOutput":{"hookEventName":"PreCompact","additionalContext":"x"}}`},
	}
	for _, b := range bad {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(b.json))
		if err != nil {
			t.Fatal(err)
		}
		var a answer
		if err := json.Unmarshal([]byte(b.json), &a); err != nil {
			t.Fatal(err)
		}
		if schemas[b.event].Validate(inst) == nil && len(a.violations(b.event)) == 0 {
			t.Errorf("%s: %s passes the checks", b.event, b.json)
		}
	}
}
