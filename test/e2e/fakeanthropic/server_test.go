package fakeanthropic

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func post(t *testing.T, url, body string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// events parses an SSE stream into (event, data) pairs.
func events(t *testing.T, s string) [][2]string {
	t.Helper()
	var out [][2]string
	var ev string
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			ev = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: "):
			out = append(out, [2]string{ev, strings.TrimPrefix(line, "data: ")})
		}
	}
	return out
}

const tools = `"tools":[{"name":"Bash"}]`

func TestStreamAndStepSelection(t *testing.T) {
	s := Start(t, Script{Steps: []Step{
		{Text: "running", Tools: []ToolUse{Bash("ls -l")}},
		Text("finished"),
	}})
	// Step 0: no assistant turns yet.
	resp, body := post(t, s.URL+"/v1/messages?beta=true",
		`{"model":"m","stream":true,`+tools+`,"messages":[{"role":"user","content":"hi"}]}`)
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content-type %q", ct)
	}
	evs := events(t, body)
	var names []string
	for _, e := range evs {
		names = append(names, e[0])
	}
	want := "message_start content_block_start content_block_delta content_block_stop content_block_start content_block_delta content_block_stop message_delta message_stop"
	if got := strings.Join(names, " "); got != want {
		t.Fatalf("events:\n got %s\nwant %s", got, want)
	}
	var delta struct {
		Delta struct {
			Type        string `json:"type"`
			PartialJSON string `json:"partial_json"`
		}
	}
	json.Unmarshal([]byte(evs[5][1]), &delta)
	if delta.Delta.Type != "input_json_delta" || !strings.Contains(delta.Delta.PartialJSON, `"command":"ls -l"`) {
		t.Errorf("tool delta = %+v", delta)
	}
	if !strings.Contains(evs[7][1], `"stop_reason":"tool_use"`) {
		t.Errorf("message_delta = %s", evs[7][1])
	}

	// Step 1: one assistant turn, with a role:"system" entry in between and
	// the tool_result as string content.
	id := ToolID("main", 0, 0)
	_, body = post(t, s.URL+"/v1/messages", `{"model":"m","stream":true,`+tools+`,"messages":[
		{"role":"user","content":[{"type":"text","text":"<system-reminder>x</system-reminder>"},{"type":"text","text":"hi"}]},
		{"role":"system","content":"SessionStart hook additional context: CTX"},
		{"role":"assistant","content":[{"type":"tool_use","id":"`+id+`","name":"Bash","input":{}}]},
		{"role":"user","content":[{"type":"tool_result","tool_use_id":"`+id+`","content":"PreToolUse:Bash hook error: no","is_error":true}]}]}`)
	if !strings.Contains(body, `"text":"finished"`) || !strings.Contains(body, `"stop_reason":"end_turn"`) {
		t.Errorf("step 1 reply: %s", body)
	}
	// Past the end: "done".
	_, body = post(t, s.URL+"/v1/messages", `{"stream":false,`+tools+`,"messages":[{"role":"assistant","content":"a"},{"role":"assistant","content":"b"}]}`)
	if !strings.Contains(body, `"text":"done"`) {
		t.Errorf("past-end reply: %s", body)
	}

	tr, req, ok := s.ToolResult(id)
	if !ok || !tr.IsError || tr.Text != "PreToolUse:Bash hook error: no" || req.Step != 1 {
		t.Errorf("ToolResult = %+v %v (step %d)", tr, ok, req.Step)
	}
	if !req.Contains("CTX") || !req.Contains("<system-reminder>") {
		t.Errorf("AllText misses system message or reminder: %q", req.AllText())
	}
	if got := len(s.Main()); got != 3 {
		t.Errorf("main requests = %d", got)
	}
}

func TestSideCompactAgentsAndEndpoints(t *testing.T) {
	s := Start(t, Script{
		Steps:  []Step{Text("main")},
		Agents: []AgentScript{{Name: "sub", Match: FirstUserMatches("^SUB"), Steps: []Step{Text("sub says hi")}}},
	})
	_, body := post(t, s.URL+"/v1/messages", `{"messages":[{"role":"user","content":"generate a title"}]}`)
	if !strings.Contains(body, "fake side answer") {
		t.Errorf("side reply: %s", body)
	}
	_, body = post(t, s.URL+"/v1/messages", `{`+tools+`,"messages":[{"role":"user","content":"Your task is to create a detailed summary of the conversation so far"}]}`)
	if !strings.Contains(body, "<summary>") {
		t.Errorf("compact reply: %s", body)
	}
	_, body = post(t, s.URL+"/v1/messages", `{`+tools+`,"messages":[{"role":"user","content":"SUB: do it"}]}`)
	if !strings.Contains(body, "sub says hi") {
		t.Errorf("agent reply: %s", body)
	}
	_, body = post(t, s.URL+"/v1/messages/count_tokens", `{}`)
	if strings.TrimSpace(body) != `{"input_tokens":100}` {
		t.Errorf("count_tokens: %s", body)
	}
	resp, err := http.Get(s.URL + "/v1/models")
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("models: %v %v", resp, err)
	}
	resp, err = http.Head(s.URL + "/")
	if err != nil || resp.StatusCode != 200 {
		t.Errorf("HEAD /: %v %v", resp, err)
	}
	resp, err = http.Get(s.URL + "/v1/other")
	if err != nil || resp.StatusCode != 404 {
		t.Errorf("unknown path: %v %v", resp, err)
	}
	var kinds []string
	for _, r := range s.Requests() {
		kinds = append(kinds, string(r.Kind))
	}
	if got := strings.Join(kinds, ","); got != "side,compact,agent,count_tokens,models,probe,not_found" {
		t.Errorf("kinds = %s", got)
	}
}

func TestRequestLimit(t *testing.T) {
	ft := &fakeTB{TB: t}
	s := Start(ft, Script{MaxRequests: 2})
	for i := 0; i < 3; i++ {
		post(t, s.URL+"/v1/messages", `{`+tools+`,"messages":[]}`)
	}
	s.srv.Close()
	ft.runCleanups()
	if !ft.failed {
		t.Error("exceeding MaxRequests did not fail the test")
	}
}

// fakeTB records Errorf and runs cleanups on demand.
type fakeTB struct {
	testing.TB
	failed   bool
	cleanups []func()
}

func (f *fakeTB) Errorf(string, ...any) { f.failed = true }
func (f *fakeTB) Cleanup(fn func())     { f.cleanups = append(f.cleanups, fn) }
func (f *fakeTB) Helper()               {}
func (f *fakeTB) runCleanups() {
	for i := len(f.cleanups) - 1; i >= 0; i-- {
		f.cleanups[i]()
	}
}
