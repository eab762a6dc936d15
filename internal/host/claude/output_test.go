package claude

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/atreides-dev/atreides/internal/event"
)

func postToolUse(tool, input, response string) []byte {
	return []byte(`{"session_id":"s","cwd":"/p","hook_event_name":"PostToolUse","tool_name":"` + tool +
		`","tool_input":` + input + `,"tool_response":` + response + `,"tool_use_id":"t1"}`)
}

// The text of each tool's response, whether it can be replaced, and the
// replacement in the tool's own shape (golden answers).
func TestOutputReplacement(t *testing.T) {
	bash := `{"stdout":"a\nb","stderr":"warn","interrupted":false,"isImage":false,"noOutputExpected":false}`
	persisted := `{"stdout":"1:match\n2:mat","stderr":"","interrupted":false,"isImage":false,"noOutputExpected":false,"persistedOutputPath":"/h/tool-results/x.txt","persistedOutputSize":5652158}`
	grep := `{"mode":"content","numFiles":2,"filenames":[],"content":"a.go:1:x\nb.go:2:y","numLines":2}`
	fetch := `{"bytes":100,"code":200,"codeText":"OK","result":"page text","durationMs":5,"url":"https://x"}`
	tests := []struct {
		name, tool, input, response string
		text, file                  string
		replaceable                 bool
		want                        string // the answer with ReplaceOutput "CUT"
	}{
		{"bash", "Bash", `{"command":"ls"}`, bash, "a\nb\nwarn", "", true,
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"interrupted":false,"isImage":false,"noOutputExpected":false,"stderr":"","stdout":"CUT"}}}`},
		{"bash saved by Claude Code", "Bash", `{"command":"grep -rn x"}`, persisted, "1:match\n2:mat", "/h/tool-results/x.txt", true,
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"interrupted":false,"isImage":false,"noOutputExpected":false,"stderr":"","stdout":"CUT"}}}`},
		{"grep content", "Grep", `{"pattern":"x"}`, grep, "a.go:1:x\nb.go:2:y", "", true,
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"content":"CUT","filenames":[],"mode":"content","numFiles":2,"numLines":2}}}`},
		{"grep file list is not replaced", "Grep", `{"pattern":"x"}`, `{"mode":"files_with_matches","numFiles":1,"filenames":["a.go"]}`, `{"mode":"files_with_matches","numFiles":1,"filenames":["a.go"]}`, "", false, ""},
		{"web fetch", "WebFetch", `{"url":"https://x","prompt":"p"}`, fetch, "page text", "", true,
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedToolOutput":{"bytes":100,"code":200,"codeText":"OK","durationMs":5,"result":"CUT","url":"https://x"}}}`},
		{"mcp text blocks", "mcp__gh__search", `{}`, `[{"type":"text","text":"one"},{"type":"text","text":"two"}]`, "one\ntwo", "", true,
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":[{"type":"text","text":"CUT"}]}}`},
		{"mcp string", "mcp__gh__search", `{}`, `"plain"`, "plain", "", true,
			`{"hookSpecificOutput":{"hookEventName":"PostToolUse","updatedMCPToolOutput":"CUT"}}`},
		{"mcp image is not replaced", "mcp__gh__shot", `{}`, `[{"type":"image","data":"..."}]`, `[{"type":"image","data":"..."}]`, "", false, ""},
		{"read is not replaced", "Read", `{"file_path":"/p/a"}`, `{"type":"text","file":{"filePath":"/p/a","content":"x"}}`, `{"type":"text","file":{"filePath":"/p/a","content":"x"}}`, "", false, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ev, err := Decode(postToolUse(tt.tool, tt.input, tt.response), "/p", time.Unix(0, 0))
			if err != nil {
				t.Fatal(err)
			}
			if ev.FullOutput != tt.text || ev.Output != tt.text || ev.OutputFile != tt.file || ev.ReplacesOutput != tt.replaceable || string(ev.Response) != tt.response {
				t.Errorf("decoded text %q file %q replaceable %v response %s", ev.FullOutput, ev.OutputFile, ev.ReplacesOutput, ev.Response)
			}
			cut := "CUT"
			ans := Encode(ev, &event.Decision{ReplaceOutput: &cut})
			if got := strings.TrimSpace(string(ans.Stdout)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
			if tt.want != "" && !json.Valid(ans.Stdout) {
				t.Error("invalid JSON")
			}
		})
	}
}

// A replacement goes with the other PostToolUse answers, and the output
// the event carries stays clipped while FullOutput is whole.
func TestOutputReplacementWithContext(t *testing.T) {
	big := strings.Repeat("x", 20000)
	ev, err := Decode(postToolUse("Bash", `{"command":"ls"}`, `{"stdout":"`+big+`","stderr":""}`), "/p", time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if len(ev.Output) != 8<<10 || ev.FullOutput != big {
		t.Errorf("output %d bytes, full %d", len(ev.Output), len(ev.FullOutput))
	}
	cut := "short"
	d := &event.Decision{ReplaceOutput: &cut, Block: true, BlockReason: "r", Context: []event.Entry{{Text: "note"}}}
	want := `{"decision":"block","reason":"r","hookSpecificOutput":{"hookEventName":"PostToolUse","additionalContext":"note","updatedToolOutput":{"stderr":"","stdout":"short"}}}`
	if got := strings.TrimSpace(string(Encode(ev, d).Stdout)); got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
