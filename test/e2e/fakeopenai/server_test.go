package fakeopenai

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// events posts a Responses request and returns its SSE events by type.
func events(t *testing.T, url, body string) map[string]map[string]any {
	t.Helper()
	resp, err := http.Post(url+"/responses", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("status %d type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	out := map[string]map[string]any{}
	sc := bufio.NewScanner(resp.Body)
	var typ string
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "event: "); ok {
			typ = v
		} else if v, ok := strings.CutPrefix(line, "data: "); ok {
			var m map[string]any
			if err := json.Unmarshal([]byte(v), &m); err != nil || m["type"] != typ {
				t.Fatalf("bad data for %s: %s", typ, v)
			}
			out[typ] = m
		}
	}
	return out
}

func TestStepsAndOutputs(t *testing.T) {
	s := Start(t, Script{Steps: []Step{Exec("rm -rf victim"), Text("finished")}})
	tools := `"tools":[{"type":"function","name":"exec_command"}]`
	ev := events(t, s.URL, `{"model":"gpt-fake","input":[{"type":"message","role":"user","content":[{"type":"input_text","text":"go"}]}],`+tools+`}`)
	item := ev["response.output_item.done"]["item"].(map[string]any)
	if item["type"] != "function_call" || item["call_id"] != CallID(0) || item["arguments"] != `{"cmd":"rm -rf victim"}` {
		t.Fatalf("step 0 item %v", item)
	}
	if _, ok := ev["response.completed"]; !ok {
		t.Fatal("no response.completed")
	}
	second := `{"input":[{"type":"message","role":"user","content":"go"},{"type":"function_call","call_id":"` + CallID(0) + `","name":"exec_command","arguments":"{}"},{"type":"function_call_output","call_id":"` + CallID(0) + `","output":"Command blocked by PreToolUse hook: no"}],` + tools + `}`
	ev = events(t, s.URL, second)
	item = ev["response.output_item.done"]["item"].(map[string]any)
	if item["type"] != "message" || !strings.Contains(mustJSON(item), "finished") {
		t.Fatalf("step 1 item %v", item)
	}
	third := strings.Replace(second, `}],"tools"`, `},{"type":"message","role":"assistant","content":[{"type":"output_text","text":"finished"}]},{"type":"message","role":"user","content":[{"type":"input_text","text":"<hook_prompt>go on</hook_prompt>"}]}],"tools"`, 1)
	ev = events(t, s.URL, third)
	if !strings.Contains(mustJSON(ev["response.output_item.done"]), `"done"`) {
		t.Errorf("past the script: %v", ev["response.output_item.done"])
	}
	if out, ok := s.CallOutput(CallID(0)); !ok || out != "Command blocked by PreToolUse hook: no" {
		t.Errorf("call output %q %v", out, ok)
	}
	if got := s.Main()[2].MessagesContaining("user", "hook_prompt"); len(got) != 1 {
		t.Errorf("hook prompt messages %v", got)
	}
	events(t, s.URL, `{"input":[]}`)
	if len(s.RequestsOf(KindSide)) != 1 || len(s.Main()) != 3 {
		t.Errorf("kinds: %s", s.Summary())
	}
}

func mustJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
