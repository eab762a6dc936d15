package fakegemini

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
)

func post(t *testing.T, url, body string) (int, string) {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// reply decodes a generateContent answer or the single SSE chunk of a
// streamGenerateContent answer.
func reply(t *testing.T, raw string) []Part {
	t.Helper()
	raw = strings.TrimSpace(strings.TrimPrefix(raw, "data: "))
	var r struct {
		Candidates []struct {
			Content      Content `json:"content"`
			FinishReason string  `json:"finishReason"`
		} `json:"candidates"`
	}
	if err := json.Unmarshal([]byte(raw), &r); err != nil || len(r.Candidates) != 1 || r.Candidates[0].FinishReason != "STOP" {
		t.Fatalf("bad reply %q: %v", raw, err)
	}
	return r.Candidates[0].Content.Parts
}

func TestRouterAnsweredFromSchema(t *testing.T) {
	s := Start(t, Script{})
	router := `{"contents":[{"role":"user","parts":[{"text":"route"}]}],"generationConfig":{"responseMimeType":"application/json","responseJsonSchema":{"type":"object","properties":{"reasoning":{"type":"string"},"complexity_score":{"type":"integer","minimum":1,"maximum":100}},"required":["reasoning","complexity_score"]}}}`
	code, raw := post(t, s.URL+"/v1beta/models/gemini-3.5-flash-lite:generateContent", router)
	if code != 200 {
		t.Fatalf("status %d: %s", code, raw)
	}
	var answer struct {
		Reasoning string  `json:"reasoning"`
		Score     float64 `json:"complexity_score"`
	}
	if err := json.Unmarshal([]byte(reply(t, raw)[0].Text), &answer); err != nil || answer.Reasoning == "" || answer.Score < 1 {
		t.Fatalf("router answer %+v: %v", answer, err)
	}
	next := `{"contents":[],"generationConfig":{"responseJsonSchema":{"type":"OBJECT","properties":{"next_speaker":{"type":"STRING","enum":["model","user"]}}}}}`
	_, raw = post(t, s.URL+"/v1beta/models/m:generateContent", next)
	if got := reply(t, raw)[0].Text; got != `{"next_speaker":"user"}` {
		t.Errorf("next speaker answer %s", got)
	}
	if n := len(s.RequestsOf(KindSide)); n != 2 {
		t.Errorf("side requests %d", n)
	}
}

func TestStepsByModelTurns(t *testing.T) {
	s := Start(t, Script{Steps: []Step{Do(Shell("rm -rf victim")), Text("finished")}})
	url := s.URL + "/v1beta/models/gemini-3.1-pro-preview:streamGenerateContent?alt=sse"
	tools := `"tools":[{"functionDeclarations":[{"name":"run_shell_command"}]}]`
	code, raw := post(t, url, `{"contents":[{"role":"user","parts":[{"text":"go"}]}],`+tools+`}`)
	if code != 200 || !strings.HasPrefix(raw, "data: ") || !strings.HasSuffix(raw, "\r\n\r\n") {
		t.Fatalf("status %d, not one SSE event: %q", code, raw)
	}
	parts := reply(t, raw)
	if len(parts) != 1 || parts[0].FunctionCall == nil || parts[0].FunctionCall.Args["command"] != "rm -rf victim" {
		t.Fatalf("step 0 = %+v", parts)
	}
	second := `{"contents":[{"role":"user","parts":[{"text":"go"}]},{"role":"model","parts":[{"functionCall":{"id":"c1","name":"run_shell_command","args":{}}}]},{"role":"user","parts":[{"functionResponse":{"id":"c1","name":"run_shell_command","response":{"error":"Tool execution blocked: no"}}}]}],` + tools + `}`
	_, raw = post(t, url, second)
	if parts := reply(t, raw); parts[0].Text != "finished" {
		t.Errorf("step 1 = %+v", parts)
	}
	_, raw = post(t, url, strings.Replace(second, `"role":"user","parts":[{"text":"go"}]}`, `"role":"user","parts":[{"text":"go"}]},{"role":"model","parts":[{"text":"x"}]}`, 1))
	if parts := reply(t, raw); parts[0].Text != "done" {
		t.Errorf("past the script = %+v", parts)
	}
	frs := s.FunctionResponses()
	if len(frs) != 1 || frs[0].Error() != "Tool execution blocked: no" || frs[0].Name != "run_shell_command" {
		t.Errorf("function responses %+v", frs)
	}
}

func TestUnknownEndpointRecorded(t *testing.T) {
	s := Start(t, Script{})
	code, _ := post(t, s.URL+"/v1beta/models/m:embedContent", `{}`)
	if code != 404 || len(s.RequestsOf(KindNotFound)) != 1 {
		t.Errorf("status %d, notfound %d", code, len(s.RequestsOf(KindNotFound)))
	}
}
